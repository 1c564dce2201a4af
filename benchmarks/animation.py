"""save_animation: size and time of the animated SVG and the GIF, beside their peers.

Peers in the same run: one SVG per step (what `save_frames` writes), the HTML player
(`save_html`), and the single final SVG as the unit of size. Graphs are sums of products
(`x_i * w_i` summed pairwise), traced with backward, laid out by graphviz-pure.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from player import tree  # the same timelines as the player's benchmark

SIZES = (10, 100, 500)
GIF_UP_TO = 10  # nodes; a GIF rasterises every step, seconds each for bigger graphs


def timed(make) -> tuple[float, int]:
    """Seconds to write a file with `make(path)`, and its size in bytes."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        written = make(Path(folder))
        seconds = time.perf_counter() - start
        paths = written if isinstance(written, list) else [written]
        return seconds, sum(p.stat().st_size for p in paths)


def row(n_nodes: int) -> dict:
    tl = tree(n_nodes)
    tl.draw().svg()  # the layout, once, outside the timings (each export reuses it)
    out = {"nodes": len(tl.nodes), "steps": len(tl)}
    out["svg_bytes"] = len(tl.draw().svg().encode())
    out["anim_s"], out["anim_bytes"] = timed(lambda d: tl.save_animation(d / "a.svg"))
    out["frames_s"], out["frames_bytes"] = timed(lambda d: tl.save_frames(d / "f"))
    out["html_s"], out["html_bytes"] = timed(lambda d: tl.save_html(d / "p.html"))
    if n_nodes <= GIF_UP_TO:
        out["gif_s"], out["gif_bytes"] = timed(lambda d: tl.save_animation(d / "a.gif"))
    return out


def kb(n: float) -> str:
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    os.environ.setdefault("AUTOVIZ_DOT", "graphviz-pure")
    print(
        "| nodes | steps | animated SVG | × one SVG | frames (SVG per step) | player | GIF "
        "| time: animation | frames | player | GIF |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        r = row(size)
        gif = kb(r["gif_bytes"]) if "gif_bytes" in r else "-"
        gif_s = f"{r['gif_s']:.2f} s" if "gif_s" in r else "-"
        print(
            f"| {r['nodes']} | {r['steps']} | {kb(r['anim_bytes'])} "
            f"| {r['anim_bytes'] / r['svg_bytes']:.1f}x | {kb(r['frames_bytes'])} "
            f"| {kb(r['html_bytes'])} | {gif} | {r['anim_s']:.2f} s | {r['frames_s']:.2f} s "
            f"| {r['html_s']:.2f} s | {gif_s} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
