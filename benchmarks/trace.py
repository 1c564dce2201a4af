"""What recording a Timeline costs: a 10,000-op program traced vs untraced, memory per event."""

import argparse
import statistics
import time
import tracemalloc

import autoviz


def program(n_ops: int, size: int) -> None:
    """A chain of `*`, `+` and relu on leaves of `size` elements, then backward.

    Values stay finite and gradients non-zero, so every backward step has numbers to record.
    """
    shape = (size,) if size > 1 else ()
    a = (
        autoviz.full(shape, 0.001, requires_grad=True)
        if shape
        else autoviz.tensor(0.001, requires_grad=True)
    )
    b = (
        autoviz.ones(shape, requires_grad=True)
        if shape
        else autoviz.tensor(1.0, requires_grad=True)
    )
    h = a
    for i in range(n_ops):
        if i % 3 == 0:
            h = h * b
        elif i % 3 == 1:
            h = h + a
        else:
            h = autoviz.relu(h)
    h.sum().backward()


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def record_and_build(n_ops: int, size: int) -> tuple[float, float, int]:
    """Seconds inside the traced block, seconds to build the Timeline on first use, steps."""
    start = time.perf_counter()
    with autoviz.trace() as tl:
        program(n_ops, size)
    recorded = time.perf_counter()
    steps = len(tl)  # the first use builds nodes, edges, steps and captions
    return recorded - start, time.perf_counter() - recorded, steps


def memory_per_step(n_ops: int, size: int) -> float:
    """Bytes the built Timeline holds per step (tracemalloc; the engine's graph is freed)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    with autoviz.trace() as tl:
        program(n_ops, size)
    steps = len(tl)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{'workload':<30} {'untraced ms':>11} {'traced ms':>10} {'ratio':>6} "
        f"{'build ms':>9} {'steps':>7} {'bytes/step':>10}"
    )
    for size, label in ((1, "scalars"), (100, "tensors of 100"), (10_000, "tensors of 10k")):
        plain = timed(lambda s=size: program(args.ops, s), args.repeats)
        runs = [record_and_build(args.ops, size) for _ in range(args.repeats)]
        rec = statistics.median(r[0] for r in runs)
        build = statistics.median(r[1] for r in runs)
        print(
            f"{args.ops:,} ops, {label:<18} {plain * 1e3:>11.1f} {rec * 1e3:>10.1f} "
            f"{rec / plain:>5.2f}x {build * 1e3:>9.1f} {runs[0][2]:>7,} "
            f"{memory_per_step(args.ops, size):>10,.0f}"
        )
    print("traced = the program inside `with autoviz.trace()`; build = the Timeline's first use")


if __name__ == "__main__":
    main()
