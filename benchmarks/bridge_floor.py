"""The least any recorder of torch through its Python hooks costs: a scalar chain untraced,
under an empty TorchFunctionMode, and with an empty Python hook on every backward node.

No target: it tells how much of trace_torch's budget (bridge.py: recording <= 2x torch) torch's
own interception takes before the recorder does any work. CPU time, best of the rounds, each
run from a collected heap.
"""

import argparse
import gc
import time

import harness  # before torch: one thread

torch = harness.torch()
from torch.overrides import TorchFunctionMode  # noqa: E402 (after the thread pinning)


class _Empty(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def chain(n: int, hooked: bool = False):
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


def moded(n: int):
    with _Empty():
        chain(n)


def best(run, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    n = args.ops
    for run in (lambda: chain(n), lambda: moded(n), lambda: chain(n, True)):
        run()  # warm
    plain = best(lambda: chain(n), args.rounds)
    mode = best(lambda: moded(n), args.rounds)
    hook = best(lambda: chain(n, True), args.rounds)
    print(f"{harness.PINNED}; best of {args.rounds}, CPU time, {n:,} scalar ops\n")
    print("| run | per op | / untraced |")
    print("|---|---:|---:|")
    for label, t in (
        ("untraced torch (forward and backward)", plain),
        ("an empty TorchFunctionMode", mode),
        ("an empty Python hook on every node", hook),
    ):
        print(f"| {label} | {t / n * 1e6:.2f} us | {t / plain:.2f}x |")
    print(f"| both (the least a recorder pays) | | {(mode + hook - plain) / plain:.2f}x |")


if __name__ == "__main__":
    main()
