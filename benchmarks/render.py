"""Rendering cost beside torchviz: the whole draw call, one layout and stepping frames per size.

Both libraries draw the same program, a chain of sin and tanh on one leaf, built once in
autoviz and once in PyTorch, and both lay it out with the same `dot`, a new process per call.
torchviz's time is `make_dot(y).pipe(format="svg")` (its render, without the file); autoviz's is
`autoviz.draw(y).svg()`. Each call is timed whole (walking the graph, DOT text, layout) as the
wall time a user waits, the two alternating, and the ratio is the median of the pairs' ratios.
autoviz runs dot for SVG without its Pango plugin (text sized from dot's font tables), from a
folder made once per installed dot (timed first); $AUTOVIZ_MEASURE_FONTS=1 measures text with
the real fonts, as torchviz's dot does. autoviz draws tensors as nodes too
(op + output per step), torchviz only grad_fns; above collapse_above (300) nodes autoviz leaves
the inner tensors out by default, so big graphs are drawn with about as many nodes as
torchviz's. The "every tensor" column forces them in (hide_inner_tensors=False).
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

import autoviz
from autoviz.render import draw_frame, plugins

SIZES = (10, 100, 1000, 5000)  # autoviz nodes: 2 per op plus the leaf
BIG = {"max_nodes": 10_000, "timeout": 1200}  # a 5,000-node frame layout takes minutes


def chain(lib, n_ops: int):
    """y = tanh(sin(tanh(... x))) with `n_ops` ops, in autoviz or torch."""
    x = lib.tensor([0.5, -0.25], requires_grad=True)
    y = x
    for i in range(n_ops):
        y = y.sin() if i % 2 else y.tanh()
    return y.sum() if n_ops % 2 == 0 else y.mean()


def timed(fn, repeats: int) -> float:
    """Median wall seconds of `fn`."""
    return statistics.median(clock(fn) for _ in range(repeats))


def clock(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def making_the_folder() -> float:
    """Seconds to make dot's plugin folder, as the first diagram with a newly installed dot does
    (in a scratch cache folder, so the real one stays)."""
    saved = os.environ.get("XDG_CACHE_HOME")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            os.environ["XDG_CACHE_HOME"] = scratch
            plugins.plugin_folder.cache_clear()
            return clock(lambda: plugins.plugin_folder(shutil.which("dot")))
    finally:
        os.environ.pop("XDG_CACHE_HOME")
        if saved is not None:
            os.environ["XDG_CACHE_HOME"] = saved
        plugins.plugin_folder.cache_clear()


def measuring_fonts(fn):
    """`fn` timed with text measured in the real fonts (Pango), as torchviz's dot does."""

    def run():
        os.environ["AUTOVIZ_MEASURE_FONTS"] = "1"
        try:
            return clock(fn)
        finally:
            del os.environ["AUTOVIZ_MEASURE_FONTS"]

    return run


def versus(ours, theirs, repeats: int) -> tuple[float, float]:
    """Median seconds of `ours` and the median ratio ours / theirs over alternating pairs
    (each of the two runs its call and returns the seconds it took)."""
    mine, ratios = [], []
    for _ in range(repeats):
        a, b = ours(), theirs()
        mine.append(a)
        ratios.append(a / b)
    return statistics.median(mine), statistics.median(ratios)


def measure(n_nodes: int, repeats: int) -> dict:
    import torch
    from torchviz import make_dot

    n_ops = (n_nodes - 1) // 2
    ours, theirs = chain(autoviz, n_ops), chain(torch, n_ops)
    svg = lambda **options: lambda: autoviz.draw(ours, **BIG, **options).svg()  # noqa: E731
    torchviz = lambda: clock(lambda: make_dot(theirs).pipe(format="svg"))  # noqa: E731
    torchviz()
    svg()()  # finds dot's plugins
    diagram = autoviz.draw(ours, **BIG)
    row = {
        "nodes": len(diagram.graph.nodes),
        "drawn": len(re.findall(r'^\tn\d+ \[id="n\d+"', diagram.source, re.M)),
        "torchviz nodes": len(re.findall(r"^\t\d+ \[", make_dot(theirs).source, re.M)),
        "torchviz": statistics.median(torchviz() for _ in range(repeats)),
        # DOT text alone: walking the graph and writing DOT, no layout
        "dot text": timed(lambda: autoviz.draw(ours, **BIG).source, repeats),
        "torchviz dot text": timed(lambda: make_dot(theirs).source, repeats),
    }
    row["autoviz"], row["ratio"] = versus(lambda: clock(svg()), torchviz, repeats)
    _, row["fonts ratio"] = versus(measuring_fonts(svg()), torchviz, repeats)
    every = lambda: clock(svg(hide_inner_tensors=False))  # noqa: E731
    _, row["every ratio"] = versus(every, torchviz, repeats)
    with autoviz.trace() as tl:
        chain(autoviz, n_ops).backward()
    start = len(tl) // 3  # late in forward: the backward steps follow
    draw_frame(tl, start, **BIG).svg()  # the one layout, untimed
    steps = iter(range(start + 1, len(tl)))
    row["next frame"] = timed(
        lambda: draw_frame(tl, next(steps), **BIG).svg(), min(25, len(tl) - start - 1)
    )
    jumps = iter(range(start, 0, -1))  # going back: the whole frame is recomputed
    row["jump"] = timed(lambda: draw_frame(tl, next(jumps), **BIG).svg(), 3)
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
    if shutil.which("dot") is None:
        raise SystemExit("benchmarks/render.py needs Graphviz's `dot` on PATH (both libraries)")
    sizes = args.sizes or (SIZES[:3] if args.quick else SIZES)
    repeats = 5 if args.quick else 11
    made = statistics.median(making_the_folder() for _ in range(5))
    print(f"dot's plugin folder, made once per installed dot: {ms(made)}\n")
    print(
        "| program's nodes | drawn: autoviz / torchviz | DOT text: autoviz / torchviz "
        "| torchviz: make_dot + dot "
        "| autoviz | ratio | fonts measured (Pango), ratio "
        "| every tensor drawn, ratio | next frame | frame after a jump |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        r = measure(size, repeats if size < 5000 else 3)
        print(
            f"| {r['nodes']:,} | {r['drawn']:,} / {r['torchviz nodes']:,} "
            f"| {ms(r['dot text'])} / {ms(r['torchviz dot text'])} | {ms(r['torchviz'])} "
            f"| {ms(r['autoviz'])} | {r['ratio']:.2f}x | {r['fonts ratio']:.2f}x "
            f"| {r['every ratio']:.2f}x | {ms(r['next frame'])} | {ms(r['jump'])} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
