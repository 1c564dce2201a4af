"""Take the player page's screenshots for the docs (docs/screens/*.png) in headless Chromium.

    python tools/docs_screenshots.py          # CI runs it before `mkdocs build --strict`

Each picture is the real player written by `tl.save_html` for a real program (the lesson
example, an MLP's training loop), driven with the keys and clicks a learner uses, at 1366×768,
a classroom projector's size. Needs Playwright and Chromium (`$AUTOVIZ_CHROMIUM`, else
chromium on PATH); the browser is never downloaded.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screens"
SIZE = {"width": 1366, "height": 768}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def lesson():
    """The lesson's z = w * x + b, traced with its backward pass."""
    import autoviz as torch

    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    with torch.trace() as tl:
        y = w * x
        z = y + b
        z.backward()
    return tl


def training_loop():
    """A 1-4-1 network fitted with SGD for eight iterations: a long run with a loss plot."""
    import autoviz as torch
    from autoviz import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 4), nn.Tanh(), nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    X = torch.linspace(-1, 1, 16).reshape(16, 1)
    target = 2 * X + 0.5
    with torch.trace() as tl:
        for _ in range(8):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(X), target)
            loss.backward()
            opt.step()
    return tl


def chromium() -> str:
    path = os.environ.get("AUTOVIZ_CHROMIUM") or shutil.which("chromium")
    if not path:
        raise SystemExit("no Chromium: apt-get install chromium (or set $AUTOVIZ_CHROMIUM)")
    return path


def open_player(browser, path: Path, step: int | None = None):
    page = browser.new_page(viewport=SIZE)
    page.emulate_media(reduced_motion="reduce")  # the camera jumps: each shot is settled
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    if step is not None:
        page.evaluate("k => window.autoviz.goto(k)", step)
    page.wait_for_timeout(300)
    return page


def shoot(page, name: str) -> Path:
    path = OUT / name
    page.screenshot(path=str(path))
    page.close()
    return path


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        tl = lesson()
        plain = tl.save_html(Path(folder) / "lesson.html")
        backward = next(k for k, s in enumerate(tl.steps) if s.caption.startswith("MulBackward0"))
        written.append(shoot(open_player(browser, plain, backward), "player.png"))

        page = open_player(browser, plain, backward)
        page.keyboard.press("f")
        page.wait_for_timeout(300)
        written.append(shoot(page, "player-projector.png"))

        plan = {"kinds": ["broadcast"]}  # how a bias's gradient is summed back
        quiz = training_loop().save_html(Path(folder) / "quiz.html", quiz=plan)
        page = open_player(browser, quiz)
        page.keyboard.press("End")  # stops in front of the first question
        page.wait_for_selector(".av-quiz", state="visible")
        page.fill(".av-answer", "1")
        page.press(".av-answer", "Enter")  # a first wrong try: its hint, and a second try
        page.wait_for_timeout(200)
        written.append(shoot(page, "player-quiz.png"))

        page = open_player(browser, plain, len(tl) - 1)
        op = page.evaluate(
            """() => [...document.querySelectorAll('svg.av-svg g.node.op')]
                .find(g => g.getBoundingClientRect().width && /MulBackward0/.test(g.textContent))
                .id"""
        )
        page.locator(f"svg.av-svg:visible g#{op}").click()
        page.wait_for_selector(".av-card", state="visible")
        page.wait_for_timeout(200)
        written.append(shoot(page, "player-card.png"))

        run = training_loop()
        loop = run.save_html(Path(folder) / "loop.html")
        third = run.iterations[2].steps  # a full iteration, the loss plot marking it
        update = next(k for k in third if run.steps[k].phase == "update")
        page = open_player(browser, loop, update)
        written.append(shoot(page, "player-loop.png"))
        browser.close()
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
