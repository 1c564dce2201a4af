"""What trace_torch() costs: a torch program untraced vs traced, beside autoviz.trace() on the
same program in autoviz's engine, in one run.

Targets: trace_torch's recording <= 2x untraced torch and recording + build <= 3x on a chain of
scalar ops, at every length (the ratio does not grow with it). The four contenders (torch,
torch in trace_torch, autoviz, autoviz in trace) take turns in a rotating order, each run from a
collected heap; the traced runs time their recording and the Timeline's build (its first use)
apart. Ratios are medians of the ratios of runs made back to back, with their middle half.
The last table (no target) is what torch's own interception costs of that budget: an empty
TorchFunctionMode, and an empty Python hook on every backward node.
"""

import argparse
import gc
import time

import harness  # before numpy and torch: one thread

import autoviz

torch = harness.torch()
from torch.overrides import TorchFunctionMode  # noqa: E402 (after the thread pinning)

RECORD_TARGET, BUILD_TARGET = 2.0, 3.0


def chain(lib, n_ops: int, size: int):
    """A chain of `*`, `+` and relu on leaves of `size` elements, then backward."""
    a = lib.full((size,), 0.001, requires_grad=True)
    b = lib.ones(size, requires_grad=True)
    h = a
    for i in range(n_ops):
        h = h * b if i % 3 == 0 else h + a if i % 3 == 1 else lib.relu(h)
    h.sum().backward()
    return h  # freed after the clock stops, as a traced run's timeline is


def mlp_steps(lib, steps: int):
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
    return net


class _Empty(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def floor_chain(n: int, hooked: bool = False):
    a = torch.full((1,), 0.001, requires_grad=True)
    b = torch.ones(1, requires_grad=True)
    h = a
    for i in range(n):
        h = h * b if i % 3 == 0 else h + a if i % 3 == 1 else torch.relu(h)
    out = h.sum()
    if hooked:
        stack, seen = [out.grad_fn], set()
        while stack:
            fn = stack.pop()
            if fn is None or id(fn) in seen:
                continue
            seen.add(id(fn))
            fn.register_hook(lambda grad_inputs, grad_outputs: None)
            stack.extend(child for child, _ in fn.next_functions)
    out.backward()


def floor_moded(n: int):
    with _Empty():
        floor_chain(n)


def _best(run, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def floor(n: int, rounds: int) -> None:
    """The least any recorder of torch through its Python hooks costs (no target): how much of
    trace_torch's budget torch's own interception takes before the recorder does any work.
    CPU time, best of the rounds."""
    for run in (lambda: floor_chain(n), lambda: floor_moded(n), lambda: floor_chain(n, True)):
        run()  # warm
    plain = _best(lambda: floor_chain(n), rounds)
    mode = _best(lambda: floor_moded(n), rounds)
    hook = _best(lambda: floor_chain(n, True), rounds)
    print(
        f"\nWhat torch's interception alone costs, {n:,} scalar ops (CPU time, best of {rounds}):"
    )
    print()
    print("| run | per op | / untraced |")
    print("|---|---:|---:|")
    for label, t in (
        ("untraced torch (forward and backward)", plain),
        ("an empty TorchFunctionMode", mode),
        ("an empty Python hook on every node", hook),
    ):
        print(f"| {label} | {t / n * 1e6:.2f} us | {t / plain:.2f}x |")
    print(f"| both: the least a recorder pays | | {(mode + hook - plain) / plain:.2f}x |")


def traced(tracer, work):
    """A contender: `work()` recorded inside `tracer()`, then the Timeline built."""

    def run():
        made = {}

        def record():
            with tracer() as tl:
                work()
            made["tl"] = tl

        return harness.phases(record=record, build=lambda: len(made["tl"]) and made["tl"])

    return run


def measure(work_torch, work_ours, rounds: int) -> dict:
    return harness.alternate(
        {
            "torch": work_torch,
            "trace_torch": traced(autoviz.trace_torch, work_torch),
            "autoviz": work_ours,
            "trace": traced(autoviz.trace, work_ours),
        },
        rounds,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k ops, 3 rounds")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    lengths = (1_000, 10_000) if args.quick else (1_000, 10_000, 30_000)
    rounds = 3 if args.quick else args.rounds
    workloads = [(f"{n:,} ops, scalars", n, lambda lib, n=n: chain(lib, n, 1)) for n in lengths]
    workloads += [
        ("3,000 ops, tensors of 10k", None, lambda lib: chain(lib, 3_000, 10_000)),
        ("MLP 784-128-10, 10 steps", None, lambda lib: mlp_steps(lib, 10)),
    ]
    print(f"{harness.PINNED}; {rounds} rounds\n")
    print(
        "| workload | torch | trace_torch: recording | ratio | + build | ratio | autoviz "
        "| autoviz.trace: recording | ratio | + build | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets, growth = harness.Targets("bridge.py"), {}
    for label, n_ops, work in workloads:
        t = measure(lambda w=work: w(torch), lambda w=work: w(autoviz), rounds)
        cells = [label]
        for plain, tracer in (("torch", "trace_torch"), ("autoviz", "trace")):
            base = harness.column(t[plain])
            record = harness.column(t[tracer], "record")
            whole = harness.column(t[tracer])
            cells += [
                harness.fmt_time(harness.median(base)),
                harness.fmt_time(harness.median(record)),
                harness.fmt_ratio(harness.ratios(record, base)),
                harness.fmt_time(harness.median(harness.column(t[tracer], "build"))),
                harness.fmt_ratio(harness.ratios(whole, base)),
            ]
        print("| " + " | ".join(cells) + " |", flush=True)
        if n_ops is not None:
            base = harness.column(t["torch"])
            recording = harness.ratios(harness.column(t["trace_torch"], "record"), base)
            whole = harness.ratios(harness.column(t["trace_torch"]), base)
            growth[n_ops] = harness.median(whole)
            targets.ratio(f"trace_torch recording / torch, {label}", recording, RECORD_TARGET)
            targets.ratio(f"trace_torch (recording + build) / torch, {label}", whole, BUILD_TARGET)
    first, last = min(growth), max(growth)
    targets.add(
        f"trace_torch (recording + build) ratio at {last:,} ops / at {first:,} ops",
        growth[last] / growth[first],
        1.25,
    )
    print(
        "\nrecording = the program inside the tracer; + build = recording and the Timeline's first "
        "use; ratio = the median of the ratios to the same program untraced in the same engine, "
        "over runs made back to back (middle half in brackets)"
    )
    floor(3_000, 7 if args.quick else 11)
    targets.write()


if __name__ == "__main__":
    main()
