"""What every benchmark shares: one thread for BLAS and torch, alternated pairs, robust ratios.

Import this module before numpy, torch or autoviz: it sets OMP_NUM_THREADS, MKL_NUM_THREADS,
OPENBLAS_NUM_THREADS (and the others BLAS builds read) to 1 on import, so that two cores shared
with other jobs do not make BLAS threads fight each other, and `torch()` imports torch with
`torch.set_num_threads(1)`. Contenders run in alternating order, each from a collected heap,
and a comparison is the median of the ratios of runs made back to back, with the middle half
of those ratios as its spread.
"""

import contextlib
import gc
import json
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
for _name in THREAD_VARIABLES:
    os.environ[_name] = "1"
if "numpy" in sys.modules:
    warnings.warn(
        "benchmarks/harness.py was imported after numpy: BLAS read its thread count when numpy "
        "loaded, so it may not be pinned to one thread",
        stacklevel=2,
    )

PINNED = (
    "BLAS and torch pinned to one thread (OMP/MKL/OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1))"
)


def torch():
    """torch, imported and pinned to one thread (its intra-op and inter-op pools)."""
    import torch as lib

    lib.set_num_threads(1)
    if lib.get_num_interop_threads() != 1:
        # allowed only before the first parallel op: if one ran, the pool stays as it is
        with contextlib.suppress(RuntimeError):
            lib.set_num_interop_threads(1)
    return lib


def compile_package() -> None:
    """Write autoviz's bytecode now, so interpreters started by a benchmark load it as every
    run after a user's first does; with PYTHONDONTWRITEBYTECODE set (as on this machine)
    each would compile the whole package from source again (0.1-0.5 s)."""
    import compileall
    import importlib.util

    package = Path(importlib.util.find_spec("autoviz").origin).parent
    compileall.compile_dir(str(package), quiet=1)


def clock(fn) -> float:
    """Seconds `fn()` takes, from a collected heap (no earlier run's garbage is charged)."""
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def alternate(contenders: dict, rounds: int, warmup: int = 1) -> dict:
    """Seconds of each contender per round, run in turn and in a rotating order.

    `contenders` maps a name to a function of no arguments; each round runs every one once,
    starting each time from the next one, so drift in the machine's speed hits all alike.
    A function may return a dict of its phases' seconds (recording, build), kept beside
    its total: the result maps each name to a list of {"total": s, phase: s, ...} per round.
    """
    names = list(contenders)
    times = {name: [] for name in names}
    for r in range(warmup + rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            gc.collect()
            start = time.perf_counter()
            made = contenders[name]()
            total = time.perf_counter() - start
            if isinstance(made, dict):  # phases timed apart: what they made is freed untimed
                total = sum(v for k, v in made.items() if isinstance(v, float))
            if r >= warmup:
                times[name].append({"total": total, **(made if isinstance(made, dict) else {})})
            del made  # what a run returns (its graph, its timeline) is freed outside the clock
    return times


def column(runs: list, key: str = "total") -> list:
    """One phase's seconds from alternate()'s runs of one contender."""
    return [run[key] for run in runs]


def phases(**steps) -> dict:
    """Run each keyword's function in order, timing each: {name: seconds}; what the last one
    returns is kept as "made", so that freeing it is not timed."""
    out = {}
    for name, fn in steps.items():
        start = time.perf_counter()
        made = fn()
        out[name] = time.perf_counter() - start
    out["made"] = made
    return out


def ratios(numerators: list, denominators: list) -> list:
    """The ratio of each round's pair of runs."""
    return [a / b for a, b in zip(numerators, denominators, strict=True)]


def spread(values: list) -> tuple[float, float, float]:
    """Median and the middle half (first and third quartiles) of `values`."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return statistics.median(values), low, high


def median(values: list) -> float:
    return statistics.median(values)


class Targets:
    """The measures a benchmark checks against its targets, for run_all.py's table."""

    def __init__(self, source: str) -> None:
        self.source, self.rows = source, []

    def add(self, measure: str, value: float, target: float, unit: str = "x", low=None, high=None):
        """A measure that meets its target when value <= target."""
        self.rows.append(
            {
                "benchmark": self.source,
                "measure": measure,
                "value": value,
                "low": low,
                "high": high,
                "target": target,
                "unit": unit,
                "met": value <= target,
            }
        )

    def ratio(self, measure: str, values: list, target: float) -> None:
        """A ratio measured as the median of paired ratios, with its spread."""
        mid, low, high = spread(values)
        self.add(measure, mid, target, "x", low, high)

    def write(self) -> None:
        """To the file run_all.py named in $AUTOVIZ_BENCH_TARGETS, if any; else nothing."""
        path = os.environ.get("AUTOVIZ_BENCH_TARGETS")
        if path:
            with open(path, "a", encoding="utf-8") as out:
                for row in self.rows:
                    out.write(json.dumps(row) + "\n")


def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"


def fmt_ratio(values: list) -> str:
    """`1.23x (1.20–1.31x)`: the median of paired ratios and their middle half."""
    mid, low, high = spread(values)
    return f"{mid:.2f}x ({low:.2f}–{high:.2f}x)"
