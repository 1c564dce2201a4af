"""The HTML player: page size and generation time by graph size, step latency in Chromium.

Peers in the same run: one SVG per step (what `save_frames` writes) for size and time, and
swapping a whole frame's SVG into the page for step latency. Writing the player and writing a
sample of frames take turns, each from a collected heap; in the browser each → press is
followed by a whole-SVG swap, so both see the same load. Targets: what a timeline adds to the
page (all but the player's code, the same in every page) at most 3 × one SVG + 1 KB per step;
a step's work (the key's handler, then style, layout and paint of the next frame) within one
16 ms frame at 500 nodes, and no slower than a swap.
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.export import frontend
from autoviz.export.html import player_page
from autoviz.render.layout import engine_name, find_engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM_ARGS, chromium_path

from programs import tree


def generation(tl, frames_sample: int, rounds: int) -> dict:
    """Seconds and bytes for the player, and for one SVG per step (timed on a sample)."""
    single = tl.draw(step=len(tl) - 1).svg()  # the layout, shared by the frames below
    layout_s = harness.clock(lambda: autoviz.render.draw_graph(tl[len(tl) - 1]).svg())
    sample = range(0, len(tl), max(1, len(tl) // frames_sample))
    made = {}

    def player():
        tl.__dict__.pop("_index", None)  # lays the graph out again: its own layout counts
        made["page"] = player_page(tl)

    def frames():
        made["frames"] = sum(len(tl.draw(step=k).svg().encode()) for k in sample)

    t = harness.alternate({"player": player, "frames": frames}, rounds)
    scale = len(tl) / len(sample)
    return {
        "page": made["page"],
        "html_bytes": len(made["page"].encode()),
        "svg_bytes": len(single.encode()),
        "frames_bytes": made["frames"] * scale,
        "layout_s": layout_s,
        "player_s": harness.median(harness.column(t["player"])),
        "frames_s": harness.median(harness.column(t["frames"])) * scale,
    }


# Each → press, timed from an idle frame: the handler (the player's script, the camera
# included), then the rendering of the next frame (from its animation-frame callback to the
# task after its paint); "painted" is key to painted, waiting for the frame included. The peer
# swaps a whole frame's SVG into the page.
STEP_JS = """async ([count, frame]) => {
    const frameDone = () => new Promise((r) => requestAnimationFrame(() => {
        const start = performance.now();
        setTimeout(() => r([start, performance.now()]), 0);
    }));
    const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k}));
    const script = [], render = [], work = [], painted = [], swap = [];
    window.autoviz.goto(0);
    await frameDone();
    for (let i = 0; i < count; i++) {
        await frameDone();
        const t = performance.now();
        key('ArrowRight');
        const handled = performance.now();
        const [start, end] = await frameDone();
        script.push(handled - t);
        render.push(end - start);
        work.push(handled - t + end - start);
        painted.push(end - t);
        await frameDone();
        const s = performance.now();  // the peer: a whole frame's SVG swapped in
        const div = document.createElement('div');
        div.innerHTML = frame;
        document.body.appendChild(div);
        await frameDone();
        swap.push(performance.now() - s);
        div.remove();
    }
    return {script, render, work, painted, swap};
}"""


def open_player(browser, path: Path, width: int = 1366, height: int = 768):
    """A page at `path`, its camera jumping (reduced motion: one frame per step)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    return context, page


def latency(pages: dict, count: int) -> dict:
    """Median ms per → press (see STEP_JS) and for the whole-SVG swap."""
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        for n, (page_text, frame) in pages.items():
            path = Path(tmp) / f"player-{n}.html"
            path.write_text(page_text, encoding="utf-8")
            context, page = open_player(browser, path)
            times = page.evaluate(STEP_JS, [count, frame])
            out[n] = {name: statistics.median(values) for name, values in times.items()}
            context.close()
        browser.close()
    return out


def code_bytes() -> int:
    """The player's script and stylesheet as every page carries them."""
    return len(frontend.module(compact=True).encode()) + len(frontend.stylesheet(True).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="up to 500 nodes, 3 rounds")
    parser.add_argument("--sizes", type=int, nargs="+")
    parser.add_argument("--steps", type=int, default=30, help="→ presses timed per page")
    parser.add_argument("--sample", type=int, default=20, help="frames timed for the peer")
    args = parser.parse_args()
    sizes = args.sizes or ([10, 100, 500] if args.quick else [10, 100, 500, 2000])
    rounds = 3 if args.quick else 5
    # A 2,000-node layout takes Graphviz's dot longer than the default 30 s limit.
    os.environ.setdefault("AUTOVIZ_LAYOUT_TIMEOUT", "900")
    print(f"{harness.PINNED}; {rounds} rounds; layouts by {engine_name(find_engine())}\n")
    rows, pages = [], {}
    for n in sizes:
        tl = tree(n)
        result = generation(tl, args.sample, rounds)
        pages[n] = (result["page"], tl.draw(step=len(tl) - 1).svg())
        rows.append((n, tl, result))
    lat = latency(pages, args.steps)
    code = code_bytes()
    print(
        "| nodes | steps | HTML | of it the timeline | one SVG | size target | one SVG per step "
        "| layout | save_html | save_frames | step: script | + render | = work | to painted "
        "| whole-SVG swap |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("player.py")
    for n, tl, r in rows:
        target = 3 * r["svg_bytes"] + 1024 * len(tl)
        ms = lat[n]
        own = r["html_bytes"] - code
        print(
            f"| {len(tl.nodes):,} | {len(tl):,} | {kb(r['html_bytes'])} | {kb(own)} "
            f"| {kb(r['svg_bytes'])} | {kb(target)} | {kb(r['frames_bytes'])} "
            f"({r['frames_bytes'] / r['html_bytes']:,.1f}x) | {r['layout_s']:.2f} s "
            f"| {r['player_s']:.2f} s | {r['frames_s']:.2f} s | {ms['script']:.1f} ms "
            f"| {ms['render']:.1f} ms | {ms['work']:.1f} ms | {ms['painted']:.1f} ms "
            f"| {ms['swap']:.1f} ms ({ms['swap'] / ms['work']:.1f}x) |"
        )
        targets.add(
            f"player page less its code / (3 × one SVG + 1 KB per step), {len(tl.nodes):,} nodes",
            own / target,
            1.0,
        )
        targets.add(
            f"player → step / whole-SVG swap in Chromium, {len(tl.nodes):,} nodes",
            ms["work"] / ms["swap"],
            1.0,
        )
        if len(tl.nodes) >= 500 and len(tl.nodes) < 1000:
            targets.add(
                f"player → step's work in Chromium, {len(tl.nodes):,} nodes",
                ms["work"],
                16.0,
                "ms",
            )
    print(
        f"\nHTML = the player page; of it the timeline = all but the player's code ({kb(code)}, "
        "the same in every page); one SVG = one frame; size target = 3 × SVG + 1 KB per step; "
        "one SVG per step = what save_frames writes (time and size from a sample of steps); "
        "layout = one layout engine run; save_html = its work, both directions' layouts "
        "included; step = → pressed: script = the player's handler (camera included), render = "
        "style, layout and paint of the next frame, work = both, to painted = key to painted "
        "frame (waiting for it included); swap = the peer, a whole frame's SVG put into the page "
        "instead, to its painted frame (medians)."
    )
    targets.write()


def kb(n: float) -> str:
    return f"{n / 1024:,.1f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


if __name__ == "__main__":
    main()
