"""save_animation: size and time of the animated SVG and the GIF, beside their peers.

Peers in the same run: one SVG per step (what `save_frames` writes), the HTML player
(`save_html`), and the single final SVG as the unit of size. Graphs are sums of products
(`x_i * w_i` summed pairwise), traced with backward, laid out by graphviz-pure. The exports
take turns, each from a collected heap. Target: the animated SVG at most 4 × one SVG.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

import harness  # before numpy: one BLAS thread

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from programs import tree  # the same timelines as the player's benchmark

SIZES = (10, 100, 500)
GIF_UP_TO = 10  # nodes; a GIF rasterises every step, seconds each for bigger graphs


def written(make, sizes: dict, name: str):
    """A contender writing a file with `make(folder)`; its size in bytes goes to sizes[name]."""

    def run():
        with tempfile.TemporaryDirectory() as folder:
            out = make(Path(folder))
            paths = out if isinstance(out, list) else [out]
            sizes[name] = sum(p.stat().st_size for p in paths)

    return run


def row(n_nodes: int, rounds: int) -> dict:
    tl = tree(n_nodes)
    tl.draw().svg()  # the layout, once, outside the timings (each export reuses it)
    out = {"nodes": len(tl.nodes), "steps": len(tl)}
    out["svg_bytes"] = len(tl.draw().svg().encode())
    sizes = {}
    contenders = {
        "anim": written(lambda d: tl.save_animation(d / "a.svg"), sizes, "anim"),
        "frames": written(lambda d: tl.save_frames(d / "f"), sizes, "frames"),
        "html": written(lambda d: tl.save_html(d / "p.html"), sizes, "html"),
    }
    if n_nodes <= GIF_UP_TO:
        contenders["gif"] = written(lambda d: tl.save_animation(d / "a.gif"), sizes, "gif")
    t = harness.alternate(contenders, rounds, warmup=0)
    for name in contenders:
        out[f"{name}_s"] = harness.median(harness.column(t[name]))
        out[f"{name}_bytes"] = sizes[name]
    return out


def kb(n: float) -> str:
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 and 100 nodes, 2 rounds")
    parser.add_argument("--sizes", type=int, nargs="+")
    args = parser.parse_args()
    sizes = args.sizes or ([10, 100] if args.quick else list(SIZES))
    rounds = 2 if args.quick else 3
    os.environ.setdefault("AUTOVIZ_DOT", str(Path(sys.executable).parent / "graphviz-pure"))
    print(f"{harness.PINNED}; {rounds} rounds\n")
    print(
        "| nodes | steps | animated SVG | × one SVG | frames (SVG per step) | player | GIF "
        "| time: animation | frames | player | GIF |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("animation.py")
    for size in sizes:
        r = row(size, rounds)
        gif = kb(r["gif_bytes"]) if "gif_bytes" in r else "-"
        gif_s = f"{r['gif_s']:.2f} s" if "gif_s" in r else "-"
        print(
            f"| {r['nodes']} | {r['steps']} | {kb(r['anim_bytes'])} "
            f"| {r['anim_bytes'] / r['svg_bytes']:.1f}x | {kb(r['frames_bytes'])} "
            f"| {kb(r['html_bytes'])} | {gif} | {r['anim_s']:.2f} s | {r['frames_s']:.2f} s "
            f"| {r['html_s']:.2f} s | {gif_s} |",
            flush=True,
        )
        targets.add(
            f"animated SVG / one SVG, {r['nodes']} nodes", r["anim_bytes"] / r["svg_bytes"], 4.0
        )
    targets.write()


if __name__ == "__main__":
    main()
