"""The inspector in real Chromium: node cards, edge tooltips, heatmaps, code↔graph links, the
timeline's keys, nudge-and-verify, compare, and an accessibility check (axe-core)."""

import itertools
import json
import shutil
import subprocess

import pytest
from browser import FRAME_CLOCK, OFF_STAGE, QUICK_KEYS

import autoviz
from autoviz.export.details import ELEMENT_DIGITS
from autoviz.render import heat
from autoviz.runscript import run_script
from autoviz.tracing.index import index_of
from autoviz.tracing.replay import nudge
from autoviz.tracing.text import number
from conftest import IN_CI, lesson_timeline
from programs import mlp_training, rebinding_loop

HOSTILE = "</script><script>window.__pwned=1</script>\"'&<>\n😈"
AXE_VERSION = "4.10"  # axe-core from npm, for the test run only (never in the product)
LESSON_SCRIPT = """\
import autoviz as torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x
z = y + b
z.backward()
"""


def open_player(page, path):
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    return page


@pytest.fixture
def lesson_page(page, tmp_path, pure_engine):
    return open_player(page, lesson_timeline().save_html(tmp_path / "lesson.html"))


def shown(page, node_id: str):
    return page.locator(f"svg.av-svg:visible g#{node_id}")


def card(page) -> str:
    return page.locator(".av-card").inner_text()


def test_clicking_w_at_the_last_step_shows_its_card(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(11)")
    shown(page, "n1").click()
    text = card(page)
    assert page.locator(".av-card h2").inner_text() == "w"
    for fact in ("leaf tensor", "is_leaf\nTrue", "requires_grad\nTrue", "retains_grad\nFalse"):
        assert fact in text
    assert "grad_fn\nNone" in text
    assert "value\n3.0" in text and "grad\n2.0" in text and "∂z/∂w = 2.0" in text
    assert "y = w * x" in text  # the line that made it (w: the line that first used it)
    assert page.locator(".av-code li.av-linked").inner_text().endswith("y = w * x")
    page.keyboard.press("Escape")
    assert page.locator(".av-card").is_hidden()


def test_an_ops_card_shows_its_formulas_with_numbers_and_the_chain_rule(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(8)")  # MulBackward0 runs
    shown(page, "n3").click()
    text = card(page)
    assert "forward: y = w * x = 6.0" in text
    assert "∂y/∂w = x = 2.0" in text and "∂y/∂x = w = 3.0" in text
    assert "upstream × local = contribution — now, in backward" in text
    assert "→ w: 1.0 × 2.0 = 2.0" in text and "→ x: 1.0 × 3.0 = 3.0" in text
    page.evaluate("window.autoviz.goto(3)")  # before backward: formulas, no chain rule yet
    assert "∂y/∂w = x = 2.0" in card(page) and "upstream × local" not in card(page)


def test_hovering_an_edge_in_backward_shows_what_it_carries(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(8)")
    shown(page, "e1").locator("text.flow").hover()  # the gradient's label, on the edge
    tip = page.locator(".av-tip")
    assert tip.inner_text() == "gradient to w: upstream × local = contribution: 1.0 × 2.0 = 2.0"
    page.evaluate("window.autoviz.goto(3)")
    shown(page, "e1").locator("path").first.hover(force=True)
    assert "no gradient along it yet" in tip.inner_text()
    shown(page, "n2").hover()
    assert tip.inner_text() == "leaf tensor x, value 2.0, grad None"


def test_an_edge_is_hovered_a_few_pixels_beside_its_line(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(8)")
    # 4 CSS px off the middle of e1's line, across it: inside its unpainted 12 px hit stroke
    x, y = page.evaluate(
        """() => {
        const path = document.querySelector('svg.av-svg:not([style*="none"]) g#e1 > path');
        const m = path.getScreenCTM();
        const at = (d) => {
          const p = path.getPointAtLength(d);
          return [p.x * m.a + m.e, p.y * m.d + m.f];
        };
        const half = path.getTotalLength() / 2;
        const [a, b] = [at(half - 1), at(half + 1)];
        const [cx, cy] = at(half);
        const n = Math.hypot(b[0] - a[0], b[1] - a[1]);
        return [cx - 4 * (b[1] - a[1]) / n, cy + 4 * (b[0] - a[0]) / n];
    }"""
    )
    page.mouse.move(x, y)
    assert page.locator(".av-tip").inner_text().startswith("gradient to w: ")


def test_every_node_is_labelled_focusable_and_opens_its_card_by_keyboard(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(11)")
    labels = page.evaluate(
        """() => [...document.querySelectorAll('svg.av-svg:not([style*="none"]) g.node[id^=n]')]
        .map(g => [g.id, g.getAttribute('aria-label'), g.querySelector('title').textContent,
                   g.getAttribute('role'), g.getAttribute('tabindex')])"""
    )
    by_id = {i: rest for i, *rest in labels}
    assert by_id["n1"] == ["leaf tensor w, value 3.0, grad 2.0"] * 2 + ["button", "0"]
    assert by_id["n4"][0] == "intermediate tensor y, value 6.0, grad None (not retained)"
    assert by_id["n3"][0] == "operation MulBackward0, y = w * x"
    shown(page, "n2").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('av-card')")
    assert page.locator(".av-card h2").inner_text() == "x"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "n2"  # back where it was
    page.keyboard.press("ArrowLeft")  # the player's keys still step
    assert page.evaluate("window.autoviz.step()") == 10
    assert "step 11 of 12" in page.locator(".av-sr").inner_text()  # the caption is announced
    assert "x.grad is now 3.0" in page.locator(".av-sr").inner_text()


# Every node's label as the inspector defines it at the step shown, against what the DOM
# holds: a step relabels only the nodes whose facts change, and must end where relabelling
# every node would.
LABELS_AGREE_JS = """() => {
  const player = window.autoviz.player;
  const f = player.inspector.facts;
  const variant = player.picture.shown;
  const wrong = [];
  for (const [id, g] of variant.groups) {
    if (!g.classList.contains('node')) continue;
    const i = f.nodeAt(id);
    if (i === null || !f.node(i)) continue;
    const made = f.exists(i);
    const text = made ? f.describe(i) : `${f.node(i).name}, not made yet at this step`;
    if (g.getAttribute('aria-label') !== text || g.querySelector('title').textContent !== text
        || g.getAttribute('tabindex') !== (made ? '0' : '-1')) {
      wrong.push([id, g.getAttribute('aria-label'), text]);
    }
  }
  return wrong;
}"""


@pytest.mark.parametrize("program", ["lesson", "loop"])
def test_labels_after_any_walk_are_those_of_the_step_shown(page, tmp_path, pure_engine, program):
    tl = lesson_timeline() if program == "lesson" else mlp_training(3)
    open_player(page, tl.save_html(tmp_path / "walk.html"))
    last = len(tl) - 1
    walk = [*range(last + 1), *range(last, -1, -3), last // 2, 1, last, 0, last // 3, last]
    for k in walk:
        page.evaluate(f"window.autoviz.goto({k})")
        assert page.evaluate(LABELS_AGREE_JS) == [], f"step {k}"
    page.keyboard.press("r")  # the other direction's picture is labelled too
    assert page.evaluate(LABELS_AGREE_JS) == []


def test_a_weight_matrix_heatmap_has_a_cell_per_element_in_the_scale(page, tmp_path, pure_engine):
    tl = mlp_training(1)
    open_player(page, tl.save_html(tmp_path / "mlp.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    page.keyboard.press("0")  # Fit: the folded overview (the weight is inside net.0's box)
    assert page.locator(".av-overview-note").is_visible()
    page.keyboard.press("0")  # Fit again: the whole graph, the weight on screen to click
    assert not page.locator(".av-overview-note").is_visible()
    shown(page, weight.id).click()
    value = index_of(tl).state(weight, len(tl) - 1).value
    for kind, preview in (("value", value), ("grad", None)):
        cells = (
            page.locator(f".av-card .av-heat-{kind} rect[data-index]")
            if kind == "value"
            else (page.locator(".av-card .av-heat").nth(1).locator("rect[data-index]"))
        )
        assert cells.count() == 8 * 3
        fills = cells.evaluate_all("rs => rs.map(r => r.getAttribute('fill'))")
        if preview is not None:  # the scale Python draws nodes with, on the page's numbers
            shown_values = [[float(f"{v:.{ELEMENT_DIGITS}g}") for v in row] for row in preview]
            assert fills == heat.fills(shown_values, (8, 3))
        assert set(fills) <= set(_all_scale_colours(fills))
    figure = page.locator(".av-card .av-heat-value")
    assert figure.locator("figcaption").first.inner_text() == "value (8, 3)"
    caption = figure.locator("figcaption").last.inner_text()
    assert caption.startswith("min ") and ", mean " in caption
    assert "blue < 0 < orange" in page.locator(".av-card").inner_text()


def _all_scale_colours(fills):
    """Colours the scale can give (any interpolation between its stops): checked per channel
    to lie between two neighbouring stops of one side."""
    ok = []
    for fill in fills:
        rgb = [int(fill[i : i + 2], 16) for i in (1, 3, 5)]
        for stops in (heat.NEGATIVE, heat.POSITIVE):
            for a, b in itertools.pairwise(stops):
                lo = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
                hi = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
                if all(
                    min(x, y) - 1 <= c <= max(x, y) + 1 for c, x, y in zip(rgb, lo, hi, strict=True)
                ):
                    ok.append(fill)
    return ok


def test_non_finite_elements_are_marked_not_only_coloured(page, tmp_path, pure_engine):
    a = autoviz.tensor([[1000.0, -1.0], [0.0, 2.0]], requires_grad=True, name="a")
    with autoviz.trace() as tl:
        (a.log() + a.exp()).backward(autoviz.ones(2, 2))
    open_player(page, tl.save_html(tmp_path / "nan.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    node = next(n for n in tl.nodes if n.kind == "output")
    shown(page, node.id).click()
    figure = page.locator(".av-card .av-heat").first
    assert figure.locator("text.av-heat-glyph").all_text_contents() == ["+∞", "nan", "−∞"]
    assert "(1 nan, 1 inf, 1 -inf)" in figure.locator("figcaption").last.inner_text()


def test_hovering_code_line_5_lights_y_and_the_product(page, tmp_path, pure_engine):
    script = tmp_path / "lesson.py"
    script.write_text(LESSON_SCRIPT)
    tl = run_script(script).timeline
    open_player(page, tl.save_html(tmp_path / "lesson.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    line = page.locator(".av-code li", has=page.locator(".av-lineno", has_text="5"))
    line.hover()
    lit = page.evaluate(
        """() => [...document.querySelectorAll('svg.av-svg g.node[data-linked]')]
        .map(g => g.querySelector('text').textContent)"""
    )
    assert sorted(lit) == ["*", "y"]
    page.locator(".av-stage").hover()  # off the code: nothing lit
    assert page.locator("svg.av-svg g.node[data-linked]").count() == 0
    line.click()  # the first step line 5 caused: the product's
    first = next(s.index for s in tl.steps if s.source and s.source.line == 5)
    assert page.evaluate("window.autoviz.step()") == first
    shown(page, "n5" if tl.nodes[4].name == "b" else "n1").click()  # a leaf made on its line
    assert page.locator(".av-code li.av-linked .av-lineno").inner_text() in ("2", "3", "4")


def test_the_timeline_has_phase_bands_iteration_marks_and_keys(page, tmp_path, pure_engine):
    tl = mlp_training(3)
    open_player(page, tl.save_html(tmp_path / "mlp.html"))
    bands = page.locator(".av-bands .av-band")
    phases = bands.evaluate_all("bs => bs.map(b => b.className.split('av-band-')[1])")
    assert phases[:2] == ["forward", "backward"] and len(phases) >= 6
    assert page.locator(".av-bands .av-mark").count() == 2  # iterations 2 and 3 start
    where = page.locator(".av-where")
    assert where.inner_text() + page.locator(".av-counter").inner_text() == (
        f"iteration 1 · forward · step 1 of {len(tl)}"
    )
    # PageDown goes from phase to phase: each run of one phase in one iteration, in order.
    starts = [s for s in tl.steps if s.index == 0 or _run_of(tl.steps[s.index - 1]) != _run_of(s)]
    for start in starts[1:]:
        page.keyboard.press("PageDown")
        assert page.evaluate("window.autoviz.step()") == start.index
        graph, phase = _run_of(start)
        assert where.inner_text() == f"iteration {graph + 1} · {phase} · "
    first_backward = next(s.index for s in tl.steps if s.phase == "backward")
    for _ in starts:
        page.keyboard.press("PageUp")
    assert page.evaluate("window.autoviz.step()") == 0
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    page.keyboard.press("PageUp")
    assert page.evaluate("window.autoviz.step()") == first_backward
    line = tl.steps[first_backward].source.line
    page.keyboard.press("Shift+ArrowRight")  # past every step of this line
    k = page.evaluate("window.autoviz.step()")
    assert tl.steps[k].source.line != line and tl.steps[k - 1].source.line == line
    page.keyboard.press("Shift+ArrowLeft")
    assert page.evaluate("window.autoviz.step()") == first_backward
    assert "iteration 1 · backward" in page.locator(".av-slider").get_attribute("aria-valuetext")


def _run_of(step):
    return step.details.get("graph", 0), step.phase


def test_nudging_w_by_a_hundredth_predicts_and_reruns_to_two_hundredths(lesson_page):
    page = lesson_page
    page.evaluate("window.autoviz.goto(11)")
    shown(page, "n1").click()
    page.fill(".av-card .av-h", "0.01")
    page.click(".av-card [data-nudge]")
    nudge = page.locator(".av-nudge").inner_text()
    assert "predicted Δz ≈ ∂z/∂w × h = 2.0 × 0.01 = 0.02" in nudge
    assert "actual Δz = z(w + h) − z(w) = 7.02 − 7.0 = 0.02 — as predicted" in nudge
    assert "re-run in this page: 2 ops re-run" in nudge
    page.fill(".av-card .av-h", "oops")
    page.keyboard.press("Enter")
    assert '"oops" is not a number' in page.locator(".av-nudge").inner_text()


def test_a_nonlinear_nudge_differs_from_the_prediction_by_a_little(page, tmp_path, pure_engine):
    tl = rebinding_loop(2)
    open_player(page, tl.save_html(tmp_path / "loop.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    w = next(n for n in tl.nodes if n.name == "w")
    # Backward done acts on every op, too far apart to read together: the overview, where a
    # click on w unfolds the picture there; a click on w in the picture opens its card.
    assert page.locator("svg.av-overview:visible").count() == 1
    page.locator(f"svg.av-overview:visible g#{w.id}").click()
    shown(page, w.id).click()
    page.fill(".av-card .av-h", "0.1")
    page.click(".av-card [data-nudge]")
    text = page.locator(".av-nudge").inner_text()
    assert "from the prediction: try a smaller h" in text
    result = nudge(tl, 0, w.id, 0.1)
    assert f"= {number(result['change'])} — " in text  # as the kernel re-runs it


def test_a_page_reruns_an_mlps_loss_through_addmm_and_mse(page, tmp_path, pure_engine):
    """Issue 28.5: the page re-runs what real losses use (here AddmmBackward0 and
    MseLossBackward0), not only elementwise ops; tests/test_nudge_browser.py has every op."""
    tl = mlp_training(1)
    open_player(page, tl.save_html(tmp_path / "mlp.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    bias = next(n for n in tl.nodes if n.name == "net.2.bias")
    shown(page, bias.id).click()
    page.click(".av-card [data-nudge]")
    text = page.locator(".av-nudge").inner_text()
    assert "re-run in this page: 2 ops re-run" in text
    assert f"= {number(nudge(tl, 0, bias.id, 0.01, (0,))['change'])} — " in text


def test_a_comparison_steps_both_sides(page, tmp_path, pure_engine):
    a, b = lesson_timeline(), rebinding_loop(2)
    path = autoviz.compare(a, b, labels=("lesson", "loop")).save_html(tmp_path / "c.html")
    page.goto(path.as_uri())
    page.wait_for_function("document.querySelectorAll('.av-player[data-ready]').length === 2")
    assert page.locator(".av-compare-label").all_inner_texts() == ["lesson", "loop"]
    page.keyboard.press("ArrowRight")  # the first side has the keys
    steps = page.evaluate("window.autoviz.steps()")
    assert steps[0] == 1 and steps[1] >= 1
    page.keyboard.press("PageDown")  # backward on one side: backward on the other
    phases = page.evaluate(
        "[...document.querySelectorAll('.av-compare-player')].map(p => p.dataset.phase)"
    )
    assert phases == ["backward", "backward"]
    page.locator(".av-compare-player").nth(1).locator("[data-action=first]").click()
    assert page.evaluate("window.autoviz.steps()") == [0, 0]


def neuron(activation):
    """One neuron, activation(w * x), traced with its backward: tanh and relu side by side."""
    with autoviz.trace() as tl:
        x = autoviz.tensor(0.5, requires_grad=True)
        w = autoviz.tensor(-2.0, requires_grad=True)
        activation(w * x).backward()
    return tl


@pytest.mark.parametrize("pair", ["tanh-relu", "mlp-loop"])
def test_quick_keys_leave_each_sides_step_on_its_stage(browser, tmp_path, pure_engine, pair):
    """Keys pressed faster than the camera glides: each side ends framing its own step (a side
    whose step was in view mid-glide once ended where that glide was going, off stage)."""
    if pair == "tanh-relu":
        comparison = autoviz.compare(neuron(autoviz.tanh), neuron(autoviz.relu))
    else:
        comparison = autoviz.compare(mlp_training(1), rebinding_loop(3))  # of unequal lengths
    path = comparison.save_html(tmp_path / "c.html")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(FRAME_CLOCK)
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.wait_for_function(
            "() => document.querySelectorAll('.av-player[data-ready]').length === 2"
        )
        for _ in range(7):  # as the learner pressed them: all before the camera's next frame
            page.keyboard.press("ArrowRight")
        page.evaluate("window.__frames(Infinity)")
        assert page.evaluate("window.autoviz.steps()")[0] == 7
        assert page.evaluate(OFF_STAGE) == []
        for gap in (0, 5):  # in one frame; a quarter of a glide apart
            assert page.evaluate(QUICK_KEYS, [[3, 6], gap]) == []
    finally:
        context.close()


@pytest.fixture(scope="session")
def axe_source(tmp_path_factory):
    """axe-core's script, installed from npm into a temporary folder for this run only."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the accessibility check needs axe-core from npm")
    folder = tmp_path_factory.mktemp("axe")
    done = subprocess.run(
        [npm, "install", "--no-save", "--no-audit", "--no-fund", f"axe-core@{AXE_VERSION}"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if done.returncode or not script.exists():
        message = f"npm could not install axe-core: {done.stderr[-400:]}"
        pytest.fail(message) if IN_CI else pytest.skip(message)
    return script.read_text("utf-8")


@pytest.mark.parametrize("theme", ["default", "dark", "colorblind"])
def test_axe_finds_no_critical_accessibility_violations(
    browser, tmp_path, axe_source, theme, pure_engine
):
    tl = mlp_training(1)
    path = tl.save_html(tmp_path / "mlp.html", theme=theme, values="heatmap")
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = context.new_page()
    open_player(page, path)
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    page.keyboard.press("0")  # the overview (checked too), then everything unfolded
    page.keyboard.press("0")
    shown(page, weight.id).click()  # the card, its heatmaps and nudge controls are checked too
    page.add_script_tag(content=axe_source)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    context.close()
    found = [(v["id"], v["impact"], len(v["nodes"])) for v in result["violations"]]
    print(f"\naxe violations ({theme}): {json.dumps(found)}")
    assert [v for v in found if v[1] == "critical"] == []
    assert [v for v in found if v[1] == "serious"] == []


def test_hostile_names_stay_text_in_cards_and_tooltips(page, tmp_path, pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True, name=HOSTILE)
    img = "<img src=x onerror='window.__pwned=2'>"
    with autoviz.trace() as tl:
        y = x * autoviz.tensor(3.0, requires_grad=True, name=img)
        y.backward()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_player(page, tl.save_html(tmp_path / "hostile.html"))
    page.evaluate(f"window.autoviz.goto({len(tl) - 1})")
    for node in tl.nodes:
        if node.kind == "op":
            continue
        target = shown(page, node.id)
        target.hover()
        assert node.name in page.locator(".av-tip").text_content()
        target.click()
        assert page.locator(".av-card h2").text_content() == node.name
    shown(page, next(n.id for n in tl.nodes if n.kind == "op")).click()
    text = page.locator(".av-card").text_content()
    assert HOSTILE in text and img in text  # ∂y/∂(the other input), in words
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('img, .av-card script').length") == 0
    assert errors == []


def test_a_long_run_is_plotted_and_any_iteration_is_one_click_away(page, tmp_path, pure_engine):
    from test_details import fitting_loop

    tl = fitting_loop(10)
    open_player(page, tl.save_html(tmp_path / "fit.html", full_iterations=3))
    run = page.locator(".av-run")
    assert run.locator("h2").inner_text().lower() == "10 iterations"
    assert run.locator("polyline.av-plot-loss").count() == 1
    assert run.locator(".av-plot-condensed").count() == 1  # iterations 4-9, condensed
    run.locator(".av-go").fill("2")
    run.locator("[data-go]").click()  # a full iteration: its first step
    assert page.evaluate("window.autoviz.step()") == tl.iterations[1].steps[0]
    assert page.locator(".av-where").inner_text() == "iteration 2 · forward · "
    run.locator(".av-go").fill("7")
    page.keyboard.press("Enter")  # condensed in this file: its entry, and how to expand it
    assert page.locator(".av-where").inner_text() == "iterations 4–9 · condensed · "
    assert "full_iterations=[6]" in run.locator(".av-run-note").inner_text()
    bands = page.locator(".av-bands .av-band-condensed")
    assert bands.count() == 1
