"""What recording a Timeline costs: a 10,000-op program traced vs untraced, memory per event.

Targets: traced / untraced <= 1.5x at every size; (traced + the Timeline's build) / untraced
<= 3x for scalars. Untraced, traced, and traced-then-built runs take turns in a rotating order,
each from a collected heap, and each ratio is the median of the ratios of runs made back to
back, with the middle half of them as its spread. `--instructions` counts CPU instructions
under valgrind's callgrind instead, which load does not change (slower: use fewer ops).
"""

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tracemalloc

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.engine import events

TARGET, BUILD_TARGET = 1.5, 3.0
SIZES = ((1, "scalars"), (100, "tensors of 100"), (10_000, "tensors of 10k"))


def program(n_ops: int, size: int):
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
    return h  # freed after the clock stops, as the traced run's timeline is


def paired(n_ops: int, size: int, repeats: int) -> dict:
    """Per round: seconds untraced, and traced split into recording and the Timeline's build."""

    def recorded():
        made = {}
        return harness.phases(
            record=lambda: made.setdefault("tl", traced(n_ops, size)),
            build=lambda: len(made["tl"]) and made["tl"],  # the first use builds the steps
        )

    runs = {"untraced": lambda: program(n_ops, size), "traced": recorded}
    return harness.alternate(runs, repeats)


def traced(n_ops: int, size: int):
    with autoviz.trace() as tl:
        program(n_ops, size)
    return tl


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
    parser.add_argument("--repeats", type=int, default=9, help="rounds of runs, at least 2")
    parser.add_argument("--quick", action="store_true", help="5 rounds")
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
    repeats = 5 if args.quick else args.repeats
    if repeats < 2:
        parser.error("--repeats must be at least 2: the spread needs two rounds of runs")
    print(f"{harness.PINNED}; {repeats} rounds\n")
    print(
        "| workload | untraced | traced | traced / untraced | build | (traced + build) / "
        "untraced | steps | bytes/event | bytes/step |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("trace.py")
    for size, label in SIZES:
        t = paired(args.ops, size, repeats)
        plain, record = harness.column(t["untraced"]), harness.column(t["traced"], "record")
        recording = harness.ratios(record, plain)
        building = harness.ratios(harness.column(t["traced"]), plain)
        build = harness.median(harness.column(t["traced"], "build"))
        steps = len(traced(args.ops, size))
        _, per_event, per_step = memory(args.ops, size)
        print(
            f"| {args.ops:,} ops, {label} | {harness.fmt_time(harness.median(plain))} "
            f"| {harness.fmt_time(harness.median(record))} | {harness.fmt_ratio(recording)} "
            f"| {harness.fmt_time(build)} | {harness.fmt_ratio(building)} | {steps:,} "
            f"| {per_event:,.0f} | {per_step:,.0f} |",
            flush=True,
        )
        targets.ratio(
            f"autoviz.trace recording / untraced, {args.ops:,} ops, {label}", recording, TARGET
        )
        if size == 1:
            targets.ratio(
                f"(traced + build) / untraced, {args.ops:,} scalar ops", building, BUILD_TARGET
            )
    print(
        f"\ntraced = the program inside `with autoviz.trace()` (target: <= {TARGET}x untraced); "
        f"build = the Timeline's first use (target: traced + build <= {BUILD_TARGET}x untraced "
        "for scalars); ratios are medians of the ratios of runs made back to back, with their "
        "middle half; bytes/event = memory held per recorded event until the build (the log "
        "and what it keeps alive); bytes/step = memory of the built Timeline per step"
    )
    targets.write()


if __name__ == "__main__":
    main()
