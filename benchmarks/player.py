"""The HTML player: page size and generation time by graph size, step latency in Chromium.

Peers in the same run: one SVG per step (what `save_frames` writes) for size and time, and
swapping a whole frame's SVG into the page for step latency.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

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


def generation(tl, frames_sample: int) -> dict:
    """Seconds and bytes for the player, and for one SVG per step (timed on a sample)."""
    start = time.perf_counter()
    single = tl.draw(step=len(tl) - 1).svg()  # the layout, shared by the frames below
    layout_s = time.perf_counter() - start
    start = time.perf_counter()
    page = player_page(tl)  # lays the graph out again: its own layout is part of its cost
    player_s = time.perf_counter() - start
    sample = range(0, len(tl), max(1, len(tl) // frames_sample))
    start = time.perf_counter()
    frame_bytes = sum(len(tl.draw(step=k).svg().encode()) for k in sample)
    frames_s = (time.perf_counter() - start) * len(tl) / len(sample)
    return {
        "page": page,
        "html_bytes": len(page.encode()),
        "svg_bytes": len(single.encode()),
        "frames_bytes": frame_bytes * len(tl) / len(sample),
        "layout_s": layout_s,
        "player_s": player_s,
        "frames_s": frames_s,
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
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 500, 2000])
    parser.add_argument("--steps", type=int, default=30, help="→ presses timed per page")
    parser.add_argument("--sample", type=int, default=20, help="frames timed for the peer")
    args = parser.parse_args()
    # A 2,000-node layout takes Graphviz's dot longer than the default 30 s limit.
    os.environ.setdefault("AUTOVIZ_LAYOUT_TIMEOUT", "900")
    print(f"layout engine: {engine_name(find_engine())}")
    rows, pages = [], {}
    for n in args.sizes:
        tl = tree(n)
        result = generation(tl, args.sample)
        pages[n] = (result["page"], tl.draw(step=len(tl) - 1).svg())
        rows.append((n, tl, result))
    lat = latency(pages, args.steps)
    print(
        f"{'nodes':>6} {'steps':>6} {'HTML KB':>8} {'SVG KB':>7} {'target KB':>9} "
        f"{'frames KB':>10} {'size vs frames':>14} {'layout s':>8} {'gen s':>7} {'frames s':>8} "
        f"{'step ms':>8} {'painted ms':>10} {'swap ms':>8} {'swap/step':>9}"
    )
    for n, tl, r in rows:
        target = 3 * r["svg_bytes"] + 1024 * len(tl)
        ms = lat[n]
        print(
            f"{len(tl.nodes):>6} {len(tl):>6} {r['html_bytes'] / 1024:>8.1f} "
            f"{r['svg_bytes'] / 1024:>7.1f} {target / 1024:>9.1f} "
            f"{r['frames_bytes'] / 1024:>10.0f} {r['html_bytes'] / r['frames_bytes']:>13.3f}x "
            f"{r['layout_s']:>8.2f} {r['player_s']:>7.2f} {r['frames_s']:>8.2f} "
            f"{ms['script']:>8.2f} {ms['painted']:>10.1f} {ms['swap']:>8.2f} "
            f"{ms['swap'] / ms['script']:>8.1f}x"
        )
    print(
        "HTML = the player page; SVG = one frame; target = 3 × SVG + 1 KB per step; frames = one "
        "SVG per step (save_frames; time and size from a sample of steps); layout = one layout "
        "engine run; gen = save_html's work, its own layout included; step = → pressed to "
        "the SVG updated and laid out; painted = to the next frame; swap = the peer, a whole "
        "frame's SVG put into the page instead (medians)."
    )


if __name__ == "__main__":
    main()
