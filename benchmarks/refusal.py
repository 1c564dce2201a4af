"""Refusing an over-size graph: draw() of a 1,000,000-node chain, time and peak memory.

The walk counts operations as it goes and stops once the diagram could not fit max_nodes
(default 5,000), so refusing costs what walking 5,000 operations costs, whatever the size of
the graph (issue 15.2: it took 60-77 s and 3.6 GB when the whole graph was walked first).
The chain is `y = y * c + d`, as in benchmarks/engine.py (c), in autoviz and, with torch
installed, in PyTorch (drawn through the bridge). Peak memory is tracemalloc's, during the
draw() call alone (torch's own C++ graph is not seen by it; the walk's Python objects are).
"""

import argparse
import gc
import statistics
import time
import tracemalloc

import autoviz
from autoviz.errors import GraphTooLarge


def chain(lib, nodes: int):
    """A chain of `nodes` graph nodes: `nodes // 2` multiplications and additions."""
    x = lib.tensor(1.0, requires_grad=True)
    c, d = lib.tensor(1.0000001), lib.tensor(1e-9)
    y = x
    for _ in range(nodes // 2):
        y = y * c + d
    return y


def refuse(y) -> tuple[float, int, str]:
    """Seconds and peak bytes of draw(y) until it raises GraphTooLarge, and its message."""
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    try:
        autoviz.draw(y)
    except GraphTooLarge as error:
        message = str(error)
    else:
        raise SystemExit("draw() did not refuse the graph")
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    libs = [("autoviz", autoviz)]
    try:
        import torch

        torch.set_num_threads(1)
        libs.append(("torch (bridge)", torch))
    except ImportError:
        print("torch is not installed: autoviz only")
    print(
        f"{'engine':<16} {'chain nodes':>12} {'build s':>8} {'refusal ms':>11} {'spread':>14}"
        f" {'peak MB':>8}"
    )
    for name, lib in libs:
        start = time.perf_counter()
        y = chain(lib, args.nodes)
        built = time.perf_counter() - start
        runs = [refuse(y) for _ in range(args.repeats)]
        times = sorted(r[0] * 1000 for r in runs)
        low, high = times[len(times) // 4], times[-1 - len(times) // 4]
        peak = max(r[1] for r in runs) / 1e6
        print(
            f"{name:<16} {args.nodes:>12,} {built:>8.1f} {statistics.median(times):>11.1f} "
            f"{low:>6.1f}-{high:<6.1f} {peak:>8.2f}"
        )
        del y
    print(f"message: {runs[0][2]}")


if __name__ == "__main__":
    main()
