"""The HTML player: page size and generation time by graph size, step latency in Chromium.

Peers in the same run: one SVG per step (what `save_frames` writes) for size and time, and
swapping a whole frame's SVG into the page for step latency. Writing the player and writing a
sample of frames take turns, each from a collected heap; in the browser each → press is
followed by a whole-SVG swap, so both see the same load. Targets: the page at most 3 × one SVG
+ 1 KB per step; a step no slower than a swap.
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.export.html import player_page
from autoviz.render.layout import engine_name, find_engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM_ARGS, chromium_path


def tree(n_nodes: int):
    """x_i * w_i for t terms summed pairwise, then backward: 6t - 2 nodes, a shallow layout."""
    terms = max(2, round((n_nodes + 2) / 6))
    xs = [autoviz.tensor(0.1 * (i % 7 + 1), requires_grad=True) for i in range(terms)]
    ws = [autoviz.tensor(0.5 - 0.1 * (i % 5), requires_grad=True) for i in range(terms)]
    with autoviz.trace() as tl:
        level = [x * w for x, w in zip(xs, ws, strict=True)]
        while len(level) > 1:
            pairs = range(0, len(level) - 1, 2)
            level = [level[i] + level[i + 1] for i in pairs] + level[len(level) // 2 * 2 :]
        level[0].backward()
    len(tl)  # build the timeline outside the timings
    return tl


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


STEP_JS = """async ([count, frame]) => {
    const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const box = document.querySelector('.av-graph:not([hidden])');
    const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k}));
    const script = [], painted = [], swap = [];
    window.autoviz.goto(0);
    for (let i = 0; i < count; i++) {
        let t = performance.now();
        key('ArrowRight');
        box.querySelector('svg').getBBox();  // force style and layout of the updated SVG
        script.push(performance.now() - t);
        await settle();
        painted.push(performance.now() - t);
        t = performance.now();  // the peer: a whole frame's SVG swapped in
        const div = document.createElement('div');
        div.innerHTML = frame;
        document.body.appendChild(div);
        div.querySelector('svg').getBBox();
        swap.push(performance.now() - t);
        div.remove();
    }
    return {script, painted, swap};
}"""


def latency(pages: dict, count: int) -> dict:
    """Median ms per → press: DOM update, to the next painted frame, and a whole-SVG swap."""
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        for n, (page_text, frame) in pages.items():
            path = Path(tmp) / f"player-{n}.html"
            path.write_text(page_text, encoding="utf-8")
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(path.as_uri())
            times = page.evaluate(STEP_JS, [count, frame])
            out[n] = {name: statistics.median(values) for name, values in times.items()}
            page.close()
        browser.close()
    return out


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
    print(
        "| nodes | steps | HTML | one SVG | size target | one SVG per step | layout | save_html "
        "| save_frames | step | to next frame | whole-SVG swap |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("player.py")
    for n, tl, r in rows:
        target = 3 * r["svg_bytes"] + 1024 * len(tl)
        ms = lat[n]
        print(
            f"| {len(tl.nodes):,} | {len(tl):,} | {kb(r['html_bytes'])} | {kb(r['svg_bytes'])} "
            f"| {kb(target)} | {kb(r['frames_bytes'])} "
            f"({r['frames_bytes'] / r['html_bytes']:,.1f}x) | {r['layout_s']:.2f} s "
            f"| {r['player_s']:.2f} s | {r['frames_s']:.2f} s | {ms['script']:.1f} ms "
            f"| {ms['painted']:.1f} ms | {ms['swap']:.1f} ms ({ms['swap'] / ms['script']:.1f}x) |"
        )
        targets.add(
            f"player page / (3 × one SVG + 1 KB per step), {len(tl.nodes):,} nodes",
            r["html_bytes"] / target,
            1.0,
        )
        targets.add(
            f"player → step / whole-SVG swap in Chromium, {len(tl.nodes):,} nodes",
            ms["script"] / ms["swap"],
            1.0,
        )
    print(
        "\nHTML = the player page; one SVG = one frame; size target = 3 × SVG + 1 KB per step; one "
        "SVG per step = what save_frames writes (time and size from a sample of steps); layout "
        "= one layout engine run; save_html = its work, its own layout included; step = → "
        "pressed to the SVG updated and laid out; to next frame = to the next painted frame; "
        "swap = the peer, a whole frame's SVG put into the page instead (medians)."
    )
    targets.write()


def kb(n: float) -> str:
    return f"{n / 1024:,.1f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


if __name__ == "__main__":
    main()
