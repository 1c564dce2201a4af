"""The inspector in the Jupyter widget, in a real JupyterLab: the card, nudge-and-verify
re-run in the kernel, and a Comparison stepping both sides with Python following."""

# The widget tests' JupyterLab server and helpers; importing a fixture makes it usable here.
from test_stepper_browser import LESSON_CELL, lab, lab_page, open_notebook, run_typed  # noqa: F401

COMPARE_CELL = """\
def run(x0):
    x = autoviz.tensor(x0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x * x if x0 > 0 else -x
        y.backward()
    return tl
pair = autoviz.compare(run(2.0), run(-2.0), labels=("x > 0", "x <= 0"))
pair"""


def test_the_widgets_card_nudges_in_the_kernel_and_a_comparison_steps(lab, lab_page):  # noqa: F811
    page = lab_page
    page.set_viewport_size({"width": 1366, "height": 768})
    open_notebook(page, lab, "details.ipynb", [LESSON_CELL, COMPARE_CELL])
    widget = page.locator(".jp-OutputArea .av-player").first
    widget.locator("svg.av-svg:visible g#n1").wait_for()
    widget.locator("[data-action=last]").click()
    widget.locator("svg.av-svg:visible g#n1").click()
    card = widget.locator(".av-card")
    assert "∂z/∂w = 2.0" in card.inner_text() and "value\n3.0" in card.inner_text()
    card.locator(".av-h").fill("0.01")
    card.locator("[data-nudge]").click()
    card.get_by_text("re-run in the kernel").wait_for()  # autoviz.tracing.replay, in Python
    assert "= 7.02 − 7.0 = 0.02 — as predicted" in card.inner_text()
    shot = lab["dir"].parent / "widget-card.png"
    widget.screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")

    pair = page.locator(".jp-OutputArea .av-compare")
    pair.wait_for()
    players = pair.locator(".av-compare-player")
    players.nth(0).locator("[data-action=next]").click()
    counters = players.locator(".av-counter")
    page.wait_for_function(
        "els => els.every(el => el.textContent.startsWith('step 2 of'))",
        arg=counters.element_handles(),
    )
    run_typed(page, "print('sides at', pair.steps)")
    page.get_by_text("sides at [1, 1]").wait_for()
    run_typed(page, "pair.steps = [1, 3]")  # Python moves the second; the first follows
    page.wait_for_function(
        "els => els.every(el => el.textContent.startsWith('step 4 of'))",
        arg=counters.element_handles(),
    )
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
