"""Every screen (issue 28): at 400, 934, 1366 and 1920 px wide, in a page, in a widget's box and
in a real JupyterLab, normal and in projector mode, no text panel cuts its text at any step of
the 3-iteration MLP, the residual net, a character model (Embedding, cross_entropy: tensors of
hundreds of elements) and a comparison: each panel's text fits its box
(scrollWidth and scrollHeight against the client box), nothing clips a panel, the code panel
keeps the current line in view, and projector type is 18 px at least. Projector mode at
1366×768 has the banner, the whole explanation and the current code line on screen at every
step. Pages are checked at every step; a widget's box at every step where it is narrow (400 and
934 px, JupyterLab's column) and every other one where it is wide; the real JupyterLab at every
fourth (and the last), which keeps the module within two minutes of a quiet CI machine. Set
AUTOVIZ_SCREENSHOTS to a folder to keep a screenshot of each case at its middle step."""

import os
from pathlib import Path

import pytest
from browser import open_player, widget_page
from test_stepper_browser import lab, open_notebook  # noqa: F401 (a fixture)

import autoviz
from programs import activation_pair, char_model, mlp_training, rebinding_loop, residual_net

SIZES = {"400": (400, 800), "934": (934, 614), "1366": (1366, 768), "1920": (1920, 1080)}
MODES = ("normal", "projector")
PROGRAMS = {
    "mlp": lambda: mlp_training(3),
    "residual": residual_net,
    "char": char_model,
    "compare": lambda: autoviz.compare(*activation_pair(), labels=("tanh", "relu")),
}

# Every text the players in the document show, checked: [] when none is cut, else what is.
# `onScreen`: the banner, the explanation and the current code line inside the viewport too;
# `minPx`: no text of the player (its SVG aside) smaller.
CHECK_TEXT = """
([scope, opts]) => {
  const bad = [];
  const inside = (r, box, pad = 1) => r.left >= box.left - pad && r.right <= box.right + pad &&
    r.top >= box.top - pad && r.bottom <= box.bottom + pad;
  const client = (el) => {
    const r = el.getBoundingClientRect();
    const left = r.left + el.clientLeft, top = r.top + el.clientTop;
    return {left, top, right: left + el.clientWidth, bottom: top + el.clientHeight};
  };
  const name = (el) => el.dataset.action || String(el.className).split(' ')[0] || el.tagName;
  const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  const unseen = '[hidden], details:not([open]) > :not(summary)';
  (scope || document).querySelectorAll('.av-player').forEach((root, side) => {
    const at = `player ${side} step ${root.dataset.step}`;
    // The player's whole box: a page scrolls a player taller than it, a full-screen one scrolls.
    const own = root.getBoundingClientRect();
    const top = own.top - root.scrollTop;
    const bottom = top + Math.max(root.scrollHeight, own.height);
    const box = {left: own.left, right: own.right, top, bottom};
    const texts = '.av-banner, .av-place, .av-explain-panel, .av-code-panel, .av-key, ' +
      '.av-run > summary, .av-quiz, .av-card, .av-overview-note, button, select';
    for (const el of root.querySelectorAll(texts)) {
      if (!el.getClientRects().length || el.closest(unseen)) continue;
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1) {
        bad.push(`${at}: ${name(el)} is ${el.scrollWidth} px wide in ${el.clientWidth}`);
      }
      const scrolls = el.matches('.av-code-panel, .av-card');
      if (!scrolls && el.scrollHeight > el.clientHeight + 1) {
        bad.push(`${at}: ${name(el)} is ${el.scrollHeight} px tall in ${el.clientHeight}`);
      }
      if (!inside(r, box)) bad.push(`${at}: ${name(el)} is outside its player`);
      for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
        const o = getComputedStyle(a);
        if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
        if (!inside(r, client(a))) bad.push(`${at}: ${name(el)} is cut by ${name(a)}`);
        break;
      }
    }
    const panel = root.querySelector('.av-code-panel');
    const line = panel && !panel.hidden ? panel.querySelector('li.current') : null;
    if (line && !inside(line.getBoundingClientRect(), client(panel))) {
      bad.push(`${at}: the current code line is scrolled out of the code panel`);
    }
    if (opts.onScreen) {
      const shown = ['.av-banner', '.av-explain-panel', '.av-quiz:not([hidden])'].map(
        (sel) => root.querySelector(sel));
      for (const el of [...shown, line].filter(Boolean)) {
        if (!inside(el.getBoundingClientRect(), screen)) bad.push(`${at}: ${name(el)} off screen`);
      }
    }
    if (opts.minPx) {
      const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        const el = t.parentElement;
        const skip = `svg, .av-probe, .av-sr, option, ${unseen}`;
        if (!t.textContent.trim() || el.closest(skip)) continue;
        if (!el.getClientRects().length) continue;
        const px = parseFloat(getComputedStyle(el).fontSize);
        const text = t.textContent.trim().slice(0, 30);
        if (px < opts.minPx - 0.01) bad.push(`${at}: "${text}" at ${px} px`);
      }
    }
  });
  return bad;
}
"""

# Every step of the first player in turn (a comparison's other side follows it), by the keys a
# learner presses, then CHECK_TEXT (reading the boxes lays the step out; a step resizes nothing
# the player's observers would rearrange: they run once, after Home). Returns the distinct
# faults found, with the steps the two sides showed.
SWEEP = (
    """
async ([scope, opts]) => {
  const check = """
    + CHECK_TEXT
    + """;
  const roots = [...(scope || document).querySelectorAll('.av-player')];
  const root = roots[0];
  const press = (key) => root.dispatchEvent(
    new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const last = Number(root.querySelector('.av-slider').max);
  press('Home');
  await frame();
  const faults = new Map();
  const steps = [];
  const tops = [];
  for (let i = 0; i <= last; i++) {
    if (i) press('ArrowRight');
    steps.push(roots.map((r) => Number(r.dataset.step)));
    tops.push(roots.map((r) => r.querySelector('.av-stage').getBoundingClientRect().top));
    if (i % opts.every && i !== last) continue;
    for (const fault of check([scope, opts])) {
      const key = fault.replace(/step \\d+/, 'step k');
      if (!faults.has(key)) faults.set(key, fault);
    }
  }
  const stacked = Boolean((scope || document).querySelector('.av-compare[data-stacked]'));
  return {faults: [...faults.values()], steps, tops, stacked, last};
}
"""
)


def make_all(programs: dict, folder: Path) -> dict:
    """Each program's page and its widget (a Stepper, or the Comparison itself), with folder."""
    out = {}
    for name, make in programs.items():
        made_ = make()
        widget = made_ if name == "compare" else autoviz.Stepper(made_)
        out[name] = (made_.save_html(folder / f"{name}.html"), widget, folder)
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return make_all(PROGRAMS, tmp_path_factory.mktemp("screens"))


def shoot(page, name: str) -> None:
    folder = os.environ.get("AUTOVIZ_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(800)  # the camera's pan to the step's node is animated
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def sweep(page, mode: str, size: str, shot: str, scope=None, every: int = 1) -> dict:
    """SWEEP in `mode` (projector: F pressed on the first player, as a learner would). A single
    player in projector mode at 1366×768 has its banner, explanation and code line on screen;
    a comparison's two halves at that size put their panels under the stages (the page grows)."""
    player = (scope or page).locator(".av-player").first
    if mode == "projector":
        player.locator(".av-banner").click()  # a widget takes keys once it has focus
        page.keyboard.press("f")
        player.and_(page.locator(".av-projector")).wait_for()
    pair = (scope or page).locator(".av-compare").count() > 0
    on_screen = mode == "projector" and size == "1366" and not pair
    opts = {"minPx": 18 if mode == "projector" else 12, "onScreen": on_screen, "every": every}
    found = page.evaluate(SWEEP, [scope.element_handle() if scope else None, opts])
    page.evaluate(
        "([root, k]) => { for (let i = 0; i < k; i++) root.dispatchEvent(new KeyboardEvent("
        "'keydown', {key: i ? 'ArrowRight' : 'Home', bubbles: true})); }",
        [player.element_handle(), found["last"] // 2 + 1],
    )
    shoot(page, shot)
    if mode == "projector":
        page.keyboard.press("f")
    return found


def level(tops: list) -> bool:
    """Whether a comparison's two stages started at one height (within 1 px) at every step."""
    return all(max(pair) - min(pair) <= 1 for pair in tops)


def in_step(steps: list) -> bool:
    """Whether a comparison's sides showed matching steps throughout (same length: equal)."""
    return all(len(set(pair)) == 1 for pair in steps)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", sorted(SIZES, key=int))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_text_is_cut_in_a_page(browser, made, name, size, mode, pure_engine):
    context, page = open_player(browser, made[name][0], *SIZES[size])
    try:
        found = sweep(page, mode, size, f"page-{name}-{size}-{mode}")
        assert found["faults"] == [], found["faults"][:12]
        if name == "compare":
            assert in_step(found["steps"]), found["steps"]
            stacked = page.evaluate(
                "document.querySelector('.av-compare').hasAttribute('data-stacked')"
            )
            assert stacked == (size == "400")  # a side of 463 px still shows a node whole
            assert found["stacked"] or level(found["tops"]), found["tops"]
        assert page.errors == []
    finally:
        context.close()


BOXES = {"400": (400, 800), "934": (934, 768), "1366": (1366, 900), "1920": (1920, 1080)}


def open_widget(browser, widget, size: str, folder: Path, name: str):
    """A page holding `widget` in a box of BOXES[size] (80% of the viewport tall, as a notebook
    gives it), its players ready; `page.errors` collects uncaught errors. Returns (context,
    page)."""
    width, height = BOXES[size]
    path = folder / f"{name}-widget-{size}.html"
    path.write_text(widget_page(widget, f"{width}px"), encoding="utf-8")
    context = browser.new_context(
        viewport={"width": width + 24, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_function("window.startup !== undefined")
    players = page.locator(".av-player")
    players.first.wait_for()
    for i in range(players.count()):
        players.nth(i).and_(page.locator("[data-ready]")).wait_for()
    return context, page


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", sorted(BOXES, key=int))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_no_text_is_cut_in_a_widgets_box(browser, made, name, size, mode, pure_engine):
    """The widget in a box `size` px wide, 80% of the viewport tall as in a notebook (934 wide
    and 614 tall: JupyterLab's output column at 1366×768)."""
    _, widget, folder = made[name]
    context, page = open_widget(browser, widget, size, folder, name)
    try:
        every = 1 if BOXES[size][0] < 1000 else 2
        found = sweep(page, mode, size, f"widget-{name}-{size}-{mode}", every=every)
        assert found["faults"] == [], found["faults"][:12]
        if name == "compare":
            assert in_step(found["steps"]), found["steps"]
            banners = page.locator(".av-banner")
            assert banners.count() == 2
            if mode == "normal":  # in projector type, a side of 467 px is too narrow
                assert found["stacked"] == (size == "400")
            assert found["stacked"] or level(found["tops"]), found["tops"]
        assert page.errors == []
    finally:
        context.close()


LAB_CELLS = [
    "import autoviz\nfrom programs import activation_pair, mlp_training, residual_net",
    "autoviz.Stepper(mlp_training(3))",
    "autoviz.Stepper(residual_net())",
    "autoviz.compare(*activation_pair(), labels=('tanh', 'relu'))",
]


def test_no_text_is_cut_in_jupyterlab(lab, page):  # noqa: F811 (the fixture)
    """The three widgets in a real JupyterLab at 1366×768 (a 934 px output column) and
    1920×1080, each swept step by step, normal and in projector mode (full screen)."""
    tests = str(Path(__file__).parent)
    cells = [f"import sys; sys.path.insert(0, {tests!r})", *LAB_CELLS]
    page.set_viewport_size({"width": 1366, "height": 768})
    open_notebook(page, lab, "screens.ipynb", cells)
    outputs = page.locator(".jp-OutputArea-output").filter(has=page.locator(".av-player"))
    page.locator(".av-compare").wait_for(timeout=240000)
    faults = []
    for width, height in ((1366, 768), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        for i, name in enumerate(("mlp", "residual", "compare")):
            holder = outputs.nth(i)
            holder.scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            for mode in MODES:
                found = sweep(page, mode, "lab", f"lab-{name}-{width}-{mode}", holder, every=4)
                faults += [f"{width}x{height} {name} {mode}: {f}" for f in found["faults"]]
                if name == "compare":
                    assert in_step(found["steps"]), found["steps"]
                    assert found["stacked"] or level(found["tops"]), found["tops"]
    assert faults == [], faults[:10]


# Every question of the player asked in turn (→ stops in front of it), checked while it asks,
# then answered with "Show me" (the box grows by the answer's sentence) and checked again.
# `together`: the quiz box, the explanation and the current code line fit in one viewport's
# height (a player taller than the screen: one scroll of the page shows them all).
QUIZ_SWEEP = (
    """
async ([scope, opts]) => {
  const check = """
    + CHECK_TEXT
    + """;
  const root = (scope || document).querySelector('.av-player');
  const press = (key) => root.dispatchEvent(
    new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const faults = new Map();
  const note = (found, when) => {
    for (const fault of found) {
      const key = `${when}: ${fault.replace(/step \\d+/, 'step k')}`;
      if (!faults.has(key)) faults.set(key, `${when}: ${fault}`);
    }
  };
  const together = (at) => {
    const quiz = root.querySelector('.av-quiz:not([hidden])');
    const line = root.querySelector('.av-code-panel:not([hidden]) li.current');
    const els = [quiz, root.querySelector('.av-explain-panel'), line].filter(Boolean);
    const rects = els.map((el) => el.getBoundingClientRect());
    const span = Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
    const said = `${at}: quiz, explanation and code line span ${span} px`;
    return span <= innerHeight + 1 ? [] : [said];
  };
  // The stage that gave way still frames the step: a node it acts on wholly in view.
  const framed = (at) => {
    const stage = root.querySelector('.av-stage').getBoundingClientRect();
    const nodes = [...root.querySelectorAll('.av-stage svg g.node.current')];
    const whole = (r) => r.top >= stage.top - 1 && r.bottom <= stage.bottom + 1 &&
      r.left >= stage.left - 1 && r.right <= stage.right + 1;
    if (!nodes.length || nodes.some((g) => whole(g.getBoundingClientRect()))) return [];
    return [`${at}: no node of the step wholly on the stage`];
  };
  const last = Number(root.querySelector('.av-slider').max);
  press('Home');
  await frame();
  let asked = 0;
  const atEnd = () => Number(root.querySelector('.av-slider').value) >= last;
  for (let guard = 0; guard < 4 * last && !atEnd(); guard++) {
    press('ArrowRight');
    await frame();
    const reveal = root.querySelector('.av-quiz:not([hidden]) [data-action=reveal]');
    if (!reveal || reveal.disabled) continue;
    asked += 1;
    const at = `step ${root.dataset.step}`;
    note(check([scope, opts]), 'asked');
    if (opts.together) note(together(at), 'asked');
    reveal.click();
    await frame();
    note(check([scope, opts]), 'revealed');
    if (opts.together) note(together(at), 'revealed');
    note(framed(at), 'revealed');
  }
  return {faults: [...faults.values()], asked};
}
"""
)


@pytest.fixture(scope="module")
def quizzed(tmp_path_factory):
    """The 3-iteration MLP's page asking every question, and its widget (quiz on)."""
    tl = mlp_training(3)
    folder = tmp_path_factory.mktemp("quiz")
    return tl.save_html(folder / "mlp-quiz.html", quiz=True), autoviz.Stepper(tl, quiz=True), folder


QUIZ_CASES = [("page", "1366", "normal"), ("page", "1366", "projector")]
QUIZ_CASES += [("page", "1920", "normal"), ("widget", "934", "normal")]


@pytest.mark.parametrize(("host", "size", "mode"), QUIZ_CASES)
def test_a_question_leaves_the_explanation_and_the_code_line_in_view(
    browser, quizzed, host, size, mode, pure_engine
):
    """Every question of the MLP asked and its answer revealed (the quiz box at its tallest): the
    banner, the whole explanation, the current code line and the quiz box stay in view and
    unclipped; in JupyterLab's 934 px column (the panels under the stage, the cell taller than
    the screen) the quiz box, the explanation and the code line fit one screen's height."""
    path, widget, folder = quizzed
    if host == "page":
        context, page = open_player(browser, path, *SIZES[size])
    else:
        context, page = open_widget(browser, widget, size, folder, "mlp-quiz")
    try:
        player = page.locator(".av-player").first
        if mode == "projector":
            player.locator(".av-banner").click()
            page.keyboard.press("f")
            player.and_(page.locator(".av-projector")).wait_for()
        opts = {"minPx": 18 if mode == "projector" else 12, "onScreen": host == "page"}
        opts["together"] = host == "widget"
        found = page.evaluate(QUIZ_SWEEP, [None, opts])
        shoot(page, f"quiz-{host}-{size}-{mode}")
        assert found["asked"] >= 20  # the MLP's questions (shape, sign, which-grad, update…)
        assert found["faults"] == [], found["faults"][:12]
        assert page.errors == []
    finally:
        context.close()


LEVEL_CASES = [("widget", "934", "normal"), ("page", "934", "normal")]
LEVEL_CASES += [("page", "1366", "normal"), ("page", "1366", "projector")]


@pytest.mark.parametrize(("host", "size", "mode"), LEVEL_CASES)
def test_a_comparisons_two_stages_start_at_one_height(
    browser, tmp_path, host, size, mode, pure_engine
):
    """Two unlike sides (a loop whose banner says "iteration 1 of 2", a single pass that does
    not, a label that wraps): side by side, both stages' top edges are level within 1 px at every
    step, and neither side cuts its banner or any text."""
    pair = autoviz.compare(
        mlp_training(2), residual_net(), labels=("an MLP trained two iterations with SGD", "res")
    )
    if host == "page":
        context, page = open_player(browser, pair.save_html(tmp_path / "pair.html"), *SIZES[size])
    else:
        context, page = open_widget(browser, pair, size, tmp_path, "pair")
    try:
        found = sweep(page, mode, size, f"level-{host}-{size}-{mode}")
        assert found["faults"] == [], found["faults"][:12]
        assert not found["stacked"] and level(found["tops"]), found["tops"]
        assert page.errors == []
    finally:
        context.close()


# Every step in turn (→, a frame between: the camera rests), the graph text of every player on
# screen: the smallest text of the nodes on the stage, in CSS px. Returns the steps under
# `minPx`, except where the step's one node is wider (or taller) than the stage at that size:
# it is shown whole, fitted to the stage.
LEGIBLE_SWEEP = """
async ([minPx]) => {
  const roots = [...document.querySelectorAll('.av-player')];
  const press = (key) => roots[0].dispatchEvent(
    new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const last = Number(roots[0].querySelector('.av-slider').max);
  const bad = [];
  let least = Infinity;
  press('Home');
  for (let i = 0; i <= last; i++) {
    if (i) press('ArrowRight');
    await frame();
    roots.forEach((root, side) => {
      const stage = root.querySelector('.av-stage').getBoundingClientRect();
      const svg = [...root.querySelectorAll('svg.av-svg')].find((s) => s.style.display !== 'none');
      const onStage = (r) => r.right > stage.left && r.left < stage.right &&
        r.bottom > stage.top && r.top < stage.bottom;
      const nodes = [...svg.querySelectorAll('g.node:not(.hidden)')]
        .filter((g) => onStage(g.getBoundingClientRect()));
      const sizes = nodes.flatMap((g) => [...g.querySelectorAll('text')])
        .filter((t) => t.textContent.trim())
        .map((t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
      const px = Math.min(...sizes);
      least = Math.min(least, px);
      if (px >= minPx - 0.05) return;
      const current = nodes.filter((g) => g.classList.contains('current'));
      const r = current.length === 1 && current[0].getBoundingClientRect();
      const fitted = r && (r.width >= stage.width - 60 || r.height >= stage.height - 60);
      if (!fitted) bad.push(`side ${side} step ${root.dataset.step}: ${px.toFixed(1)} px`);
    });
  }
  return {bad, least};
};
"""


def scalar_loop():
    """for i in range(3): x = x * w, then backward: a small loop rebinding one name."""
    w = autoviz.tensor(1.5, requires_grad=True)
    x = autoviz.tensor(0.5, requires_grad=True)
    with autoviz.trace() as tl:
        for _ in range(3):
            x = x * w
        x.backward()
    return tl


LEGIBLE_PROGRAMS = {**PROGRAMS, "rebinding": rebinding_loop, "scalar-loop": scalar_loop}
del LEGIBLE_PROGRAMS["char"]
LEGIBLE_CASES = [("page", s, m) for s in ("1366", "1920") for m in MODES]
LEGIBLE_CASES += [("widget", "934", "normal")]


@pytest.fixture(scope="module")
def legible_made(tmp_path_factory):
    return make_all(LEGIBLE_PROGRAMS, tmp_path_factory.mktemp("legible"))


@pytest.mark.parametrize(("host", "size", "mode"), LEGIBLE_CASES)
@pytest.mark.parametrize("name", sorted(LEGIBLE_PROGRAMS))
def test_the_graph_is_legible_at_every_step(browser, legible_made, name, host, size, mode):
    """At every step the graph's text on the stage is at least 12 px (18 in projector mode):
    a step about nodes far apart (backward done, zero_grad, an optimiser's step) is shown in
    the folded overview, or zoomed legibly on the most of its nodes, never the whole unrolled
    graph at 6 px; only a single node wider than the stage is shown smaller, whole."""
    path, widget, folder = legible_made[name]
    if host == "page":
        context, page = open_player(browser, path, *SIZES[size])
    else:
        context, page = open_widget(browser, widget, size, folder, name)
    try:
        if mode == "projector":
            page.locator(".av-player").first.locator(".av-banner").click()
            page.keyboard.press("f")
            page.locator(".av-player.av-projector").first.wait_for()
        minimum = 18 if mode == "projector" else 12
        found = page.evaluate(LEGIBLE_SWEEP, [minimum])
        assert found["bad"] == [], found["bad"][:10]
        assert page.errors == []
    finally:
        context.close()
