"""The inspector in the Jupyter widget, in a real JupyterLab: the card, nudge-and-verify
re-run in the kernel, and a Comparison stepping both sides with Python following."""

from browser import FRAME_CLOCK, QUICK_KEYS

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

# An MLP's step and a neuron's side by side: long camera moves on one side, short on the other.
QUICK_CELL = """\
import autoviz
autoviz.manual_seed(0)
net = autoviz.nn.Sequential(autoviz.nn.Linear(3, 8), autoviz.nn.Tanh(), autoviz.nn.Linear(8, 1))
opt = autoviz.optim.SGD(net.parameters(), lr=0.1)
with autoviz.trace() as mlp:
    opt.zero_grad()
    autoviz.nn.functional.mse_loss(net(autoviz.randn(4, 3)), autoviz.randn(4, 1)).backward()
    opt.step()
with autoviz.trace() as neuron:
    x = autoviz.tensor(0.5, requires_grad=True)
    w = autoviz.tensor(-2.0, requires_grad=True)
    autoviz.tanh(w * x).backward()
autoviz.compare(mlp, neuron, labels=("mlp", "neuron"))"""

FIT_CELL = """\
w = autoviz.tensor(1.0, requires_grad=True)
c = autoviz.tensor(0.0, requires_grad=True)
opt = autoviz.optim.SGD([w, c], lr=0.05)
xs, ys = autoviz.tensor([0.0, 1.0, 2.0, 3.0]), autoviz.tensor([1.0, 3.0, 5.0, 7.0])
with autoviz.trace() as fit:
    for _ in range(10):
        opt.zero_grad()
        loss = ((w * xs + c - ys) ** 2).mean()
        loss.backward()
        opt.step()
fitter = autoviz.Stepper(fit, full_iterations=3)
fitter"""


def test_the_widgets_card_nudges_in_the_kernel_and_a_comparison_steps(lab, lab_page):  # noqa: F811
    page = lab_page
    page.set_viewport_size({"width": 1366, "height": 768})
    open_notebook(page, lab, "details.ipynb", [LESSON_CELL, COMPARE_CELL, FIT_CELL])
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
    # A condensed iteration of a long run, expanded by the kernel on demand.
    fitter = page.locator(".jp-OutputArea .av-player:has(.av-run)")
    fitter.scroll_into_view_if_needed()
    fitter.locator(".av-go").fill("7")
    fitter.locator("[data-go]").click()
    fitter.locator(".av-where", has_text="iteration 7 · forward").wait_for()
    run_typed(page, "print('fitter at iteration 7:', fitter.step == fit.iterations[6].steps[0])")
    page.get_by_text("fitter at iteration 7: True").wait_for()
    # stderr holds the exports' progress bars (a long run); no error may be among them.
    stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
    assert not [text for text in stderr if "Error" in text or "Traceback" in text], stderr


def test_the_widgets_comparison_ends_quick_keys_with_each_sides_step_on_stage(lab, lab_page):  # noqa: F811
    page = lab_page
    page.set_viewport_size({"width": 1366, "height": 768})
    open_notebook(page, lab, "quick.ipynb", [QUICK_CELL])
    players = page.locator(".jp-OutputArea .av-compare-player")
    players.nth(1).locator("svg.av-svg:visible g#n1").wait_for()
    players.nth(0).locator("[data-action=first]").click()  # the first side has the keys
    page.evaluate(FRAME_CLOCK)
    assert page.evaluate(QUICK_KEYS, [[3, 6], 0]) == []
