"""What recording a Timeline costs: a 10,000-op program traced vs untraced, memory per event.

The target is traced / untraced <= 1.5x. Both are timed with the garbage collector on (as
programs run) and off (the collector's share grows with what the log keeps alive).
"""

import argparse
import gc
import statistics
import time
import tracemalloc

import autoviz
from autoviz.engine import events

TARGET = 1.5


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


def timed(fn, repeats: int, collector: bool) -> float:
    """Median seconds of `fn()` after a warm-up run, each run from a collected heap."""
    fn()
    times = []
    for _ in range(repeats):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def traced(n_ops: int, size: int):
    with autoviz.trace() as tl:
        program(n_ops, size)
    return tl


def build_seconds(n_ops: int, size: int, repeats: int) -> tuple[float, int]:
    """Median seconds to build the Timeline on its first use, and its number of steps."""
    times, steps = [], 0
    for _ in range(repeats):
        tl = traced(n_ops, size)
        start = time.perf_counter()
        steps = len(tl)  # the first use builds nodes, edges, steps and captions
        times.append(time.perf_counter() - start)
    return statistics.median(times), steps


class EventCount:
    """An observer beside the recorder that counts the engine events it records."""

    def __init__(self) -> None:
        self.count = 0


def _counter(self, *args) -> None:
    self.count += 1


for _name in events.EVENTS:
    setattr(EventCount, _name, _counter)


def memory(n_ops: int, size: int) -> tuple[int, float, float]:
    """Events recorded, bytes held per event until the build (the log and the tensors and
    nodes it keeps alive), and bytes per step of the built Timeline (tracemalloc)."""
    counter = EventCount()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    events.add_observer(counter)
    try:
        tl = traced(n_ops, size)
    finally:
        events.remove_observer(counter)
    recorded = tracemalloc.get_traced_memory()[0]
    steps = len(tl)
    gc.collect()
    built = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return counter.count, (recorded - before) / counter.count, (built - before) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{'workload':<30} {'untraced ms':>11} {'traced ms':>10} {'ratio':>6} {'gc off':>7} "
        f"{'build ms':>9} {'steps':>7} {'events':>7} {'B/event':>8} {'B/step':>7}"
    )
    for size, label in ((1, "scalars"), (100, "tensors of 100"), (10_000, "tensors of 10k")):
        run = [program, traced]
        (plain, rec), (plain_off, rec_off) = (
            [timed(lambda f=f, s=size: f(args.ops, s), args.repeats, on) for f in run]
            for on in (True, False)
        )
        build, steps = build_seconds(args.ops, size, args.repeats)
        count, per_event, per_step = memory(args.ops, size)
        print(
            f"{args.ops:,} ops, {label:<18} {plain * 1e3:>11.1f} {rec * 1e3:>10.1f} "
            f"{rec / plain:>5.2f}x {rec_off / plain_off:>6.2f}x {build * 1e3:>9.1f} "
            f"{steps:>7,} {count:>7,} {per_event:>8,.0f} {per_step:>7,.0f}"
        )
    print(
        f"traced = the program inside `with autoviz.trace()` (target: <= {TARGET}x untraced); "
        "gc off = the same ratio with the garbage collector off; build = the Timeline's first "
        "use; B/event = memory held per recorded event until the build (the log and what it "
        "keeps alive); B/step = memory of the built Timeline per step"
    )


if __name__ == "__main__":
    main()
