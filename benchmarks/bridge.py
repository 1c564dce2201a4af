"""What trace_torch() costs: a torch program untraced vs traced, beside autoviz.trace() on the
same program in autoviz's engine, in one run (read the ratios: the machine may be loaded)."""

import argparse
import statistics
import time

import torch

import autoviz


def chain(lib, n_ops: int, size: int) -> None:
    """A chain of `*`, `+` and relu on leaves of `size` elements, then backward."""
    a = lib.full((size,), 0.001, requires_grad=True)
    b = lib.ones(size, requires_grad=True)
    h = a
    for i in range(n_ops):
        h = h * b if i % 3 == 0 else h + a if i % 3 == 1 else lib.relu(h)
    h.sum().backward()


def mlp_steps(lib, steps: int) -> None:
    """A 784-128-10 MLP on a batch of 64: forward, cross-entropy, backward, SGD step."""
    lib.manual_seed(0)
    nn = lib.nn
    net = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = lib.optim.SGD(net.parameters(), lr=0.1)
    x, y = lib.randn(64, 784), lib.randint(0, 10, (64,))
    for _ in range(steps):
        loss = nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def seconds(run, tracer, repeats: int) -> tuple[float, float]:
    """Median seconds of `run` (inside `tracer` when given), and of building the Timeline."""
    ran, built = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        if tracer is None:
            run()
            ran.append(time.perf_counter() - start)
            continue
        with tracer() as tl:
            run()
        middle = time.perf_counter()
        len(tl)  # the first use builds the steps
        ran.append(middle - start)
        built.append(time.perf_counter() - middle)
    return statistics.median(ran), statistics.median(built) if built else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=3_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    workloads = [
        (f"{args.ops} ops, scalars", lambda lib: chain(lib, args.ops, 1)),
        (f"{args.ops} ops, tensors of 10k", lambda lib: chain(lib, args.ops, 10_000)),
        ("MLP 784-128-10, 10 steps", lambda lib: mlp_steps(lib, 10)),
    ]
    print(
        f"{'workload':<28} {'torch ms':>9} {'trace_torch ms':>15} {'ratio':>6} {'build ms':>9}"
        f" | {'autoviz ms':>10} {'trace ms':>9} {'ratio':>6}"
    )
    for label, work in workloads:
        plain, _ = seconds(lambda w=work: w(torch), None, args.repeats)
        traced, build = seconds(lambda w=work: w(torch), autoviz.trace_torch, args.repeats)
        ours, _ = seconds(lambda w=work: w(autoviz), None, args.repeats)
        ours_traced, _ = seconds(lambda w=work: w(autoviz), autoviz.trace, args.repeats)
        print(
            f"{label:<28} {plain * 1e3:>9.1f} {traced * 1e3:>15.1f} {traced / plain:>5.2f}x"
            f" {build * 1e3:>9.1f} | {ours * 1e3:>10.1f} {ours_traced * 1e3:>9.1f}"
            f" {ours_traced / ours:>5.2f}x"
        )


if __name__ == "__main__":
    main()
