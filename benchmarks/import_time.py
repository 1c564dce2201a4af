"""How long `import autoviz` takes, beside numpy alone and torch, each in a fresh interpreter.

The modules take turns, one fresh interpreter each per round; the ratio to numpy is the median
of each round's paired ratios. Target: `import autoviz` at most 1.5x `import numpy` (it loads
only numpy and the engine), and none of torch, ipywidgets, graphviz loaded by it.
"""

import argparse
import ast
import subprocess
import sys

import harness  # sets the one-thread variables the child interpreters inherit

MODULES = ["numpy", "autoviz", "torch"]


def import_seconds(module: str) -> float | None:
    """Wall time of `import module` in a new interpreter; None when it is not installed."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return float(proc.stdout) if proc.returncode == 0 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 9")
    args = parser.parse_args()
    rounds = 5 if args.quick else 9
    harness.compile_package()
    times = {m: [] for m in MODULES}
    for r in range(rounds):
        for module in MODULES[r % 3 :] + MODULES[: r % 3]:
            times[module].append(import_seconds(module))
    print(f"{harness.PINNED}; {rounds} rounds\n")
    print("| module | import | vs numpy, paired |")
    print("|---|---:|---:|")
    for module, seconds in times.items():
        if None in seconds:
            print(f"| {module} | not installed | - |")
            continue
        ratio = harness.fmt_ratio(harness.ratios(seconds, times["numpy"]))
        print(f"| {module} | {harness.fmt_time(harness.median(seconds))} | {ratio} |")
    code = (
        "import autoviz, sys; print(sorted(m for m in "
        "('torch', 'ipywidgets', 'graphviz') if m in sys.modules))"
    )
    lazy = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    print(f"\nheavy modules loaded by `import autoviz`: {lazy.stdout.strip()}")
    targets = harness.Targets("import_time.py")
    targets.ratio(
        "import autoviz / import numpy", harness.ratios(times["autoviz"], times["numpy"]), 1.5
    )
    heavy = ast.literal_eval(lazy.stdout.strip())
    targets.add("heavy modules loaded by import autoviz", len(heavy), 0, "modules")
    targets.write()


if __name__ == "__main__":
    main()
