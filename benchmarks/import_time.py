"""How long `import autoviz` takes, beside numpy alone and torch, each in a fresh interpreter."""

import statistics
import subprocess
import sys

MODULES = ["numpy", "autoviz", "torch"]
RUNS = 7


def import_seconds(module: str) -> float | None:
    """Median wall time of `import module` in a new interpreter (minus an empty start)."""
    times = []
    for _ in range(RUNS):
        code = (
            f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
        )
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if proc.returncode != 0:
            return None
        times.append(float(proc.stdout))
    return statistics.median(times)


def main() -> None:
    results = {m: import_seconds(m) for m in MODULES}
    base = results["autoviz"]
    print(f"{'module':<10} {'import (ms)':>12} {'vs autoviz':>11}")
    for module, seconds in results.items():
        if seconds is None:
            print(f"{module:<10} {'not installed':>12}")
            continue
        print(f"{module:<10} {seconds * 1000:>12.1f} {seconds / base:>10.2f}x")
    lazy = subprocess.run(
        [
            sys.executable,
            "-c",
            "import autoviz, sys; print(sorted(m for m in "
            "('torch', 'ipywidgets', 'graphviz') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"heavy modules loaded by `import autoviz`: {lazy}")


if __name__ == "__main__":
    main()
