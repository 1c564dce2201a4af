"""Refusing an over-size graph: draw() of a 1,000,000-node chain, its time and peak memory.

The walk counts operations as it goes and stops once the diagram could not fit max_nodes
(default 5,000), so refusing costs what walking that much of the graph costs, whatever its
size (issue 15.2: 60-77 s and 3.6 GB when the whole graph was walked first). The chain is
`y = y * c + d`, as in benchmarks/engine.py (c), in autoviz and, with torch installed, in
PyTorch (drawn through the bridge). Peak memory is tracemalloc's during the draw() call alone
(torch's own C++ graph is not seen by it; the walk's Python objects are). Targets: refused
within a second, under 50 MB.
"""

import argparse
import time
import tracemalloc

import harness

import autoviz
from autoviz.errors import GraphTooLarge

SECONDS, MEGABYTES = 1.0, 50.0


def chain(lib, nodes: int):
    """A chain of `nodes` graph nodes: `nodes // 2` multiplications and additions."""
    x = lib.tensor(1.0, requires_grad=True)
    c, d = lib.tensor(1.0000001), lib.tensor(1e-9)
    y = x
    for _ in range(nodes // 2):
        y = y * c + d
    return y


def refuse(y) -> int:
    """draw(y) until it raises GraphTooLarge; the peak bytes it allocated meanwhile."""
    tracemalloc.start()
    try:
        autoviz.draw(y)
    except GraphTooLarge:
        pass
    else:
        raise SystemExit("draw() did not refuse the graph")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a 100,000-node chain, 3 rounds")
    args = parser.parse_args()
    nodes, rounds = (100_000, 3) if args.quick else (args.nodes, args.rounds)
    libs = {"autoviz": autoviz}
    try:
        libs["torch (bridge)"] = harness.torch()
    except ImportError:
        print("torch is not installed: autoviz only")
    targets = harness.Targets("refusal")
    print(f"draw() of a {nodes:,}-node chain, refused at max_nodes=5,000 ({harness.PINNED})")
    print(f"{'engine':<16} {'build':>9} {'refusal':>9} {'spread':>19} {'peak MB':>8}")
    for name, lib in libs.items():
        start = time.perf_counter()
        y = chain(lib, nodes)
        built = time.perf_counter() - start
        peaks = []
        runs = harness.alternate({name: lambda y=y, p=peaks: p.append(refuse(y))}, rounds)
        seconds = harness.column(runs[name])
        mid, low, high = harness.spread(seconds)
        peak = max(peaks) / 1e6
        spread = f"{harness.fmt_time(low)}–{harness.fmt_time(high)}"
        print(
            f"{name:<16} {harness.fmt_time(built):>9} {harness.fmt_time(mid):>9} {spread:>19} "
            f"{peak:>8.2f}"
        )
        targets.add(f"{name}: refusal of a {nodes:,}-node chain", mid, SECONDS, "s", low, high)
        targets.add(f"{name}: peak memory of the refusal", peak, MEGABYTES, "MB")
        del y
    targets.write()


if __name__ == "__main__":
    main()
