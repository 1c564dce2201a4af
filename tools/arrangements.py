"""The player's arrangement as it measures itself (export/player/js/layout.js), from 400 to 2560
px wide: for the 3-iteration MLP and the residual net, normal and in projector mode, where the
panels go, how wide the side is, the stage's size and the banner's lines. The breakpoints are
where a row changes: measured in Chromium, never set by hand.

    python tools/arrangements.py [--widths 400 934 1366 1920 2560] [--height 768]
"""

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM_ARGS, chromium_path, open_player

from programs import mlp_training, residual_net

STATE = """() => {
  const p = window.autoviz.player;
  const root = p.root;
  const line = parseFloat(getComputedStyle(p.banner).lineHeight);
  return {
    arrange: root.dataset.arrange + (root.dataset.columns ? ` (${root.dataset.columns} cols)` : ''),
    side: Math.round(p.side.getBoundingClientRect().width),
    stage: `${p.camera.W} × ${p.camera.H}`,
    banner: Math.round(parseFloat(p.banner.style.minHeight) / line),
    controls: root.dataset.controls,
    tall: Math.round(root.getBoundingClientRect().height),
  };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=int, nargs="+", default=list(range(400, 2561, 160)))
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        for name, make in (("MLP", lambda: mlp_training(3)), ("residual net", residual_net)):
            path = make().save_html(Path(tmp) / "player.html")
            print(f"\n{name}, {args.height} px tall")
            print("| width | mode | panels | side | stage | banner lines | controls | player |")
            print("|---:|---|---|---:|---|---:|---|---:|")
            for width in args.widths:
                for mode in ("normal", "projector"):
                    context, page = open_player(browser, path, width, args.height)
                    if mode == "projector":
                        page.evaluate("window.autoviz.player.setProjector(true)")
                    s = page.evaluate(STATE)
                    print(
                        f"| {width} | {mode} | {s['arrange']} | {s['side']} | {s['stage']} "
                        f"| {s['banner']} | {s['controls']} | {s['tall']} |"
                    )
                    context.close()
        browser.close()


if __name__ == "__main__":
    main()
