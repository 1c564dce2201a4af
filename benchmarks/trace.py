"""What recording a Timeline costs: a 10,000-op program traced vs untraced, memory per event.

The target is traced / untraced <= 1.5x. On a shared machine the speed changes from one second
to the next, so untraced and traced runs alternate and the ratio is the median of the pairs'
ratios, with its spread. `--instructions` counts CPU instructions under valgrind's callgrind
instead, which load does not change (slower: run it with fewer ops).
"""

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc

import autoviz
from autoviz.engine import events

TARGET = 1.5
SIZES = ((1, "scalars"), (100, "tensors of 100"), (10_000, "tensors of 10k"))


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


def paired(n_ops: int, size: int, repeats: int) -> tuple[float, float, list[float]]:
    """Median seconds untraced and traced, and the ratio of each pair of runs made back to
    back (after a warm-up pair; each run from a collected heap)."""
    plain, recorded, ratios = [], [], []
    for i in range(repeats + 1):
        pair = []
        for run in (program, traced):
            gc.collect()
            start = time.perf_counter()
            run(n_ops, size)
            pair.append(time.perf_counter() - start)
        if i:
            plain.append(pair[0])
            recorded.append(pair[1])
            ratios.append(pair[1] / pair[0])
    return statistics.median(plain), statistics.median(recorded), ratios


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


def instructions(n_ops: int, size: int, run: str) -> int:
    """CPU instructions of one run of `run` ("program" or "traced"), counted by callgrind.

    Only what runs inside one map() call is counted (`--toggle-collect=map_next`), so
    starting Python and importing numpy are left out.
    """
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        "--collect-atstart=no", "--toggle-collect=map_next",
        sys.executable, __file__, "--count-one", run, str(n_ops), str(size),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stderr
    return int(out.split("Collected : ")[1].split()[0])


def count_one(run: str, n_ops: int, size: int) -> None:
    """The body that `instructions` runs under callgrind: a warm-up, then the counted run."""
    work = {"program": program, "traced": traced}[run]
    work(50, size)
    list(map(lambda _: work(n_ops, size), [0]))


def print_instructions(n_ops: int) -> None:
    print(f"{'workload':<30} {'untraced':>13} {'traced':>13} {'ratio':>6}  (CPU instructions)")
    for size, label in SIZES:
        plain, recorded = (instructions(n_ops, size, run) for run in ("program", "traced"))
        print(f"{n_ops:,} ops, {label:<18} {plain:>13,} {recorded:>13,} {recorded / plain:>5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=9, help="pairs of runs, at least 2")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions with callgrind"
    )
    parser.add_argument("--count-one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count_one:
        run, n_ops, size = args.count_one
        return count_one(run, int(n_ops), int(size))
    if args.instructions:
        return print_instructions(args.ops)
    if args.repeats < 2:
        parser.error("--repeats must be at least 2: the spread needs two pairs of runs")
    print(
        f"{'workload':<30} {'untraced ms':>11} {'traced ms':>10} {'ratio':>6} {'spread':>11} "
        f"{'build ms':>9} {'steps':>7} {'events':>7} {'B/event':>8} {'B/step':>7}"
    )
    for size, label in SIZES:
        plain, rec, ratios = paired(args.ops, size, args.repeats)
        low, _, high = statistics.quantiles(ratios, n=4)
        build, steps = build_seconds(args.ops, size, args.repeats)
        count, per_event, per_step = memory(args.ops, size)
        print(
            f"{args.ops:,} ops, {label:<18} {plain * 1e3:>11.1f} {rec * 1e3:>10.1f} "
            f"{statistics.median(ratios):>5.2f}x {low:>5.2f}-{high:.2f}x {build * 1e3:>9.1f} "
            f"{steps:>7,} {count:>7,} {per_event:>8,.0f} {per_step:>7,.0f}"
        )
    print(
        f"traced = the program inside `with autoviz.trace()` (target: <= {TARGET}x untraced); "
        "ratio = median of the traced / untraced ratios of pairs run back to back, spread = "
        "their middle half; build = the Timeline's first use; B/event = memory held per "
        "recorded event until the build (the log and what it keeps alive); B/step = memory "
        "of the built Timeline per step"
    )


if __name__ == "__main__":
    main()
