"""Rendering cost beside torchviz: DOT text, one layout and one stepping frame per graph size.

Both libraries draw the same program, a chain of sin and tanh on one leaf, built once in
autoviz and once in PyTorch; both DOT texts go through the same `dot` executable. autoviz
draws tensors as nodes too (op + output per step), torchviz only grad_fns; above
collapse_above (300) nodes autoviz leaves the inner tensors out by default
(hide_inner_tensors=None), so big graphs are drawn with about as many nodes as torchviz's.
The "every tensor" column forces them in (hide_inner_tensors=False).
"""

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

import autoviz
import autoviz.tracing
from autoviz.render import draw_frame, get_theme, make_options, to_dot

SIZES = (10, 100, 1000, 5000)  # autoviz nodes: 2 per op plus the leaf


def chain(lib, n_ops: int):
    """y = tanh(sin(tanh(... x))) with `n_ops` ops, in autoviz or torch."""
    x = lib.tensor([0.5, -0.25], requires_grad=True)
    y = x
    for i in range(n_ops):
        y = y.sin() if i % 2 else y.tanh()
    return y.sum() if n_ops % 2 == 0 else y.mean()


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def layout(dot: str, source: str) -> float:
    """CPU seconds `dot` spends on `source`: steadier than wall time on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([dot, "-Tsvg"], input=source.encode(), capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def cpu(fn, repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def measure(n_nodes: int, dot: str, repeats: int) -> dict:
    import torch
    from torchviz import make_dot

    n_ops = (n_nodes - 1) // 2
    ours = autoviz.tracing.graph_of(chain(autoviz, n_ops), {})
    theirs = chain(torch, n_ops)
    theme, options = get_theme("default"), make_options(max_nodes=10_000)
    every = make_options(max_nodes=10_000, hide_inner_tensors=False)
    our_dot, every_dot = to_dot(ours, theme, options), to_dot(ours, theme, every)
    their_dot = make_dot(theirs).source
    few = max(1, repeats // 4)
    row = {
        "nodes": len(ours.nodes),
        "drawn": len(re.findall(r'^\tn\d+ \[id="n\d+"', our_dot, re.M)),
        "torchviz nodes": len(re.findall(r"^\t\d+ \[", their_dot, re.M)),
        "dot": timed(lambda: to_dot(ours, theme, options), repeats),
        "torchviz dot": timed(lambda: make_dot(theirs).source, repeats),
        "layout": cpu(lambda: layout(dot, our_dot), few),
        "torchviz layout": cpu(lambda: layout(dot, their_dot), few),
        "every dot": timed(lambda: to_dot(ours, theme, every), repeats),
        "every layout": cpu(lambda: layout(dot, every_dot), few),
    }
    with autoviz.trace() as tl:
        chain(autoviz, n_ops).backward()
    start = len(tl) // 3  # late in forward: the backward steps follow
    frame = {"timeout": 1200, "max_nodes": 10_000}  # a 5,000-node frame layout takes minutes
    draw_frame(tl, start, **frame).svg()  # the one layout, untimed
    steps = iter(range(start + 1, len(tl)))
    row["next frame"] = timed(
        lambda: draw_frame(tl, next(steps), **frame).svg(), min(25, len(tl) - start - 1)
    )
    jumps = iter(range(start, 0, -1))  # going back: the whole frame is recomputed
    row["jump"] = timed(lambda: draw_frame(tl, next(jumps), **frame).svg(), 3)
    return row


def ms(seconds: float) -> str:
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} us"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, sizes up to 1,000")
    parser.add_argument("--sizes", type=int, nargs="+", help=f"node counts (default {SIZES})")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)  # torchviz walks the graph recursively
    dot = shutil.which("dot")
    if dot is None:
        raise SystemExit("benchmarks/render.py needs Graphviz's `dot` on PATH (both libraries)")
    sizes = args.sizes or (SIZES[:3] if args.quick else SIZES)
    repeats = 5 if args.quick else 11
    print(
        "| program's nodes | drawn: autoviz / torchviz | DOT: autoviz | torchviz "
        "| layout: autoviz | torchviz | DOT + layout ratio | every tensor drawn, ratio "
        "| next frame | frame after a jump |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        r = measure(size, dot, repeats)
        theirs = r["torchviz dot"] + r["torchviz layout"]
        ratio = (r["dot"] + r["layout"]) / theirs
        every = (r["every dot"] + r["every layout"]) / theirs
        print(
            f"| {r['nodes']:,} | {r['drawn']:,} / {r['torchviz nodes']:,} | {ms(r['dot'])} | "
            f"{ms(r['torchviz dot'])} | {ms(r['layout'])} | {ms(r['torchviz layout'])} | "
            f"{ratio:.2f}x | {every:.2f}x | {ms(r['next frame'])} | {ms(r['jump'])} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
