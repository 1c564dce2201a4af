"""The Jupyter Stepper (anywidget): start-up in Python and in the browser, step latency.

The widget's front-end is the HTML player's module; here it runs in Chromium as anywidget runs
it (`render({model, el})`, the layouts arriving as SVG text), on a stand-in model holding what
the kernel sends, so the browser's share is measured without a Jupyter server (the browser test
in tests/test_stepper_browser.py measures it inside JupyterLab). Python side: Stepper(tl) (both
directions' layouts and the per-step changes) beside player_page(tl), the HTML file of the
same timeline, taking turns from a collected heap. Targets: a step's work (handler, then the
next frame's style, layout and paint) within 16 ms at 500 nodes.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

import harness  # before numpy: one BLAS thread

import autoviz
from autoviz.export.html import player_page

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM_ARGS, chromium_path, widget_page

from programs import tree

# The widget's element sits in a box as wide as JupyterLab 4's output area in its default
# layout (file browser open): the viewport less 432 px, 934 × 614 px for the player at
# 1366×768 (1,488 at 1920×1080), as measured in the JupyterLab that
# tests/test_stepper_browser.py starts (tests/browser.py's widget_page). A box as wide as the
# page gave its stage 924 px where JupyterLab gives 633, and another layout direction.

# Each → press on the widget (its keys are its own once focused), timed from an idle frame:
# the handler, then the next frame's rendering (its animation-frame callback to the task after
# its paint).
STEP_JS = """async (count) => {
    const root = document.querySelector('.av-player');
    const frameDone = () => new Promise((r) => requestAnimationFrame(() => {
        const start = performance.now();
        setTimeout(() => r([start, performance.now()]), 0);
    }));
    const script = [], render = [], work = [];
    for (let i = 0; i < count; i++) {
        await frameDone();
        const t = performance.now();
        root.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
        const handled = performance.now();
        const [start, end] = await frameDone();
        script.push(handled - t);
        render.push(end - start);
        work.push(handled - t + end - start);
    }
    return {script, render, work};
}"""


def python_side(tl, rounds: int) -> dict:
    """Seconds for Stepper(tl) and, taking turns with it, for player_page(tl)."""
    made = {}

    def stepper():
        tl.__dict__.pop("_index", None)
        made["stepper"] = autoviz.Stepper(tl)

    def page():
        tl.__dict__.pop("_index", None)
        player_page(tl)

    t = harness.alternate({"stepper": stepper, "page": page}, rounds)
    widget = made["stepper"]
    state = {name: getattr(widget, name) for name in ("_data", "_svgs")}
    return {
        "stepper_s": harness.median(harness.column(t["stepper"])),
        "page_s": harness.median(harness.column(t["page"])),
        "ratios": harness.ratios(harness.column(t["stepper"]), harness.column(t["page"])),
        "sent": len(json.dumps(state).encode()) + len(widget._esm.encode()),
        "widget": widget,
    }


def browser_side(widgets: dict, steps: int) -> dict:
    """Browser start-up (render to first painted frame) and per-step medians, in ms."""
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        for n, widget in widgets.items():
            path = Path(tmp) / f"widget-{n}.html"
            path.write_text(widget_page(widget), encoding="utf-8")
            context = browser.new_context(
                viewport={"width": 1366, "height": 768}, reduced_motion="reduce"
            )
            page = context.new_page()
            page.goto(path.as_uri())
            page.wait_for_function("window.startup !== undefined", timeout=120000)
            times = page.evaluate(STEP_JS, steps)
            out[n] = {name: statistics.median(v) for name, v in times.items()}
            out[n]["startup"] = page.evaluate("window.startup")
            context.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="up to 500 nodes, 3 rounds")
    parser.add_argument("--sizes", type=int, nargs="+")
    parser.add_argument("--steps", type=int, default=30, help="→ presses timed per widget")
    args = parser.parse_args()
    sizes = args.sizes or ([10, 500] if args.quick else [10, 500, 2000])
    rounds = 3 if args.quick else 5
    os.environ.setdefault("AUTOVIZ_LAYOUT_TIMEOUT", "900")
    print(f"{harness.PINNED}; {rounds} rounds\n")
    rows, widgets = [], {}
    for n in sizes:
        tl = tree(n)
        result = python_side(tl, rounds)
        widgets[n] = result.pop("widget")
        rows.append((n, tl, result))
    ms = browser_side(widgets, args.steps)
    print(
        "| nodes | steps | Stepper(tl) | save_html's page | ratio | sent once | browser "
        "start-up | step: script | + render | = work |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = harness.Targets("stepper.py")
    for n, tl, r in rows:
        m = ms[n]
        print(
            f"| {len(tl.nodes):,} | {len(tl):,} | {harness.fmt_time(r['stepper_s'])} "
            f"| {harness.fmt_time(r['page_s'])} | {harness.fmt_ratio(r['ratios'])} "
            f"| {r['sent'] / 1024:,.0f} KB | {m['startup']:.0f} ms | {m['script']:.1f} ms "
            f"| {m['render']:.1f} ms | {m['work']:.1f} ms |"
        )
        if 500 <= len(tl.nodes) < 1000:
            targets.add(
                f"Stepper → step's work in Chromium, {len(tl.nodes):,} nodes", m["work"], 16.0, "ms"
            )
    print(
        "\nStepper(tl) = the widget made in Python (every layout, both directions, and the "
        "per-step changes); save_html's page = player_page(tl), the peer, in turns with it; "
        "sent once = the widget's state and module as the kernel sends them; browser start-up "
        "= render() to the first painted frame; step = → in the focused widget: script = its "
        "handler, render = the next frame's style, layout and paint, work = both (medians)."
    )
    targets.write()


if __name__ == "__main__":
    main()
