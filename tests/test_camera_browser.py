"""The player's camera and layout in real Chromium, at a projector's 1366×768 and at 1920×1080:
every step's nodes on screen at a legible size, the controls on screen, nothing scrolling."""

import pytest
from browser import FRAME_CLOCK, QUICK_KEYS
from browser import open_player as open_viewport

from conftest import lesson_timeline
from programs import logistic_regression, mlp_training, rebinding_loop, tree

PROGRAMS = {
    "lesson": lesson_timeline,
    "mlp": mlp_training,
    "loop": rebinding_loop,
    "logistic": logistic_regression,
}
SCREENS = {"1366x768": (1366, 768), "1920x1080": (1920, 1080)}

# Every entry in turn: the step's nodes (when it acts on three or fewer) must be inside the
# stage, not under its buttons or minimap, with every label text at least `minPx` CSS px.
CHECK_EVERY_STEP = """
(minPx) => {
  const player = window.autoviz.player;
  const stage = player.stage.getBoundingClientRect();
  const bad = [];
  let checked = 0;
  for (let i = 0; i < player.data.steps.length; i++) {
    player.goto(i);
    const svg = player.picture.shown.svg;
    const nodes = [...svg.querySelectorAll('g.node.current')]
      .filter(g => !g.classList.contains('hidden'));
    if (!nodes.length || nodes.length > 3) continue;
    for (const g of nodes) {
      checked++;
      const r = g.getBoundingClientRect();
      const inside = r.left >= stage.left - 1 && r.right <= stage.right + 1 &&
        r.top >= stage.top - 1 && r.bottom <= stage.bottom + 1;
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      const covered = !hit || !svg.contains(hit);
      const px = Math.min(...[...g.querySelectorAll('text')].map(
        t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a));
      if (!inside || covered || px < minPx - 0.01) {
        bad.push({entry: i, node: g.id, inside, covered, px: Math.round(px * 10) / 10});
      }
    }
  }
  return {checked, bad};
}
"""

# Every control is on screen, the page does not scroll, the controls are one row.
CHECK_CONTROLS = """
() => {
  const root = document.querySelector('.av-player');
  const off = [];
  for (const el of root.querySelectorAll('button, select, input[type=range]')) {
    // A folded panel's controls are not shown (Chromium still lays them out).
    if (el.hidden || el.closest('[hidden]') || el.closest('details:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth ||
        r.bottom > innerHeight) off.push(el.dataset.action || el.className);
  }
  const mids = [...root.querySelectorAll('.av-controls > *')]
    .map(el => el.getBoundingClientRect()).map(r => r.top + r.height / 2);
  const oneRow = mids.every(m => Math.abs(m - mids[0]) < 6);
  const scrolls = document.scrollingElement.scrollHeight > innerHeight ||
    document.scrollingElement.scrollWidth > innerWidth;
  return {off, scrolls, oneRow};
}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each program's player, written once for the module."""
    folder = tmp_path_factory.mktemp("players")
    return {name: make().save_html(folder / f"{name}.html") for name, make in PROGRAMS.items()}


def open_player(browser, path, screen):
    return open_viewport(browser, path, *SCREENS[screen])


@pytest.mark.parametrize("projector", [False, True], ids=["normal", "projector"])
@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_every_step_is_on_screen_and_legible(browser, pages, program, screen, projector):
    context, page = open_player(browser, pages[program], screen)
    try:
        if projector:
            page.keyboard.press("f")
            assert page.evaluate("document.querySelector('.av-player.av-projector') !== null")
        found = page.evaluate(CHECK_EVERY_STEP, 18 if projector else 12)
        assert found["checked"] > 3, found
        assert found["bad"] == [], found["bad"][:5]
        controls = page.evaluate(CHECK_CONTROLS)
        assert controls == {"off": [], "scrolls": False, "oneRow": True}
        assert page.errors == []
    finally:
        context.close()


def settle(page) -> None:
    """Wait until no glide is under way (polled: the page's CSP forbids wait_for_function's
    eval, and a fixed wait is outlasted on a loaded machine)."""
    for _ in range(500):
        if page.evaluate("window.autoviz.player.camera.glide === null"):
            return
        page.wait_for_timeout(20)
    raise AssertionError("the camera was still gliding after 10 s")


def view_of(page) -> dict:
    return page.evaluate("({...window.autoviz.player.camera.view})")


def test_zoom_pan_fit_follow_and_the_minimap(browser, pages):
    context, page = open_player(browser, pages["mlp"], "1366x768")
    try:
        page.evaluate("window.autoviz.goto(30)")
        followed = view_of(page)
        minimap = page.locator(".av-minimap")
        assert minimap.is_visible()  # the MLP does not fit legibly: zoomed in
        page.keyboard.press("0")  # the folded overview, whole and legible
        assert page.locator(".av-overview-note").is_visible() and minimap.is_hidden()
        page.keyboard.press("0")  # again: everything unfolded
        assert page.locator(".av-overview-note").is_hidden()
        whole = view_of(page)
        assert whole["s"] < followed["s"] and minimap.is_hidden()
        page.keyboard.press("+")
        assert view_of(page)["s"] == pytest.approx(whole["s"] * 1.25)
        page.keyboard.press("-")
        assert view_of(page)["s"] == pytest.approx(whole["s"])
        page.keyboard.press("ArrowRight")  # following: the camera goes back to the step
        assert view_of(page)["s"] > whole["s"]
        page.keyboard.press("c")  # following off: stepping leaves the view alone
        assert page.locator("[data-action=follow]").get_attribute("aria-pressed") == "false"
        before = view_of(page)
        page.keyboard.press("ArrowRight")
        assert view_of(page) == before
        stage = page.locator(".av-stage").bounding_box()
        page.mouse.move(stage["x"] + 300, stage["y"] + 300)
        page.mouse.down()
        page.mouse.move(stage["x"] + 200, stage["y"] + 250)
        page.mouse.up()
        dragged = view_of(page)
        assert dragged["x"] == pytest.approx(before["x"] + 100 / before["s"])
        assert dragged["y"] == pytest.approx(before["y"] + 50 / before["s"])
        page.mouse.wheel(0, -200)  # zoom in about the pointer
        assert view_of(page)["s"] > dragged["s"]
        page.keyboard.press("c")
        assert view_of(page)["s"] == pytest.approx(followed["s"], rel=0.5)  # back on the step
        box = minimap.bounding_box()
        page.mouse.click(box["x"] + 2, box["y"] + 2)  # the minimap's corner: the drawing's
        corner = view_of(page)
        assert corner["x"] < followed["x"] or corner["y"] < followed["y"]
    finally:
        context.close()


def test_the_direction_fits_the_screen_and_r_switches_it(browser, tmp_path, pure_engine):
    """Without a rankdir the player shows the direction whose picture is largest on its
    screen (a long chain is not shown as a 17:1 strip); R turns it; an explicit one wins."""
    tl = rebinding_loop(8)
    auto, explicit = tmp_path / "auto.html", tmp_path / "lr.html"
    tl.save_html(auto)
    tl.save_html(explicit, rankdir="LR")
    shown = "window.autoviz.player.picture.shown.direction"
    for width, height in ((1920, 1080), (1366, 768), (720, 1280)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(auto.as_uri())
        page.wait_for_selector(".av-player[data-ready]")
        chosen = page.evaluate(shown)
        fits = page.evaluate(
            """() => { const p = window.autoviz.player;
            return Object.fromEntries(p.picture.directions.map(d =>
                [d, p.camera.fitScale(p.picture.sizes(d)[0])])); }"""
        )
        assert fits[chosen] == max(fits.values()) and chosen == "TB", (width, fits)
        page.keyboard.press("r")
        turned = page.evaluate(shown)
        assert turned == "LR"
        assert page.locator("[data-action=direction]").text_content() == "⇄ LR"
        page.goto(explicit.as_uri())
        page.wait_for_selector(".av-player[data-ready]")
        assert page.evaluate(shown) == "LR"  # an explicit rankdir wins
        context.close()


def test_the_camera_glides_and_ends_where_reduced_motion_jumps(browser, pages):
    views = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(
            viewport={"width": 1366, "height": 768}, reduced_motion=motion
        )
        page = context.new_page()
        page.goto(pages["mlp"].as_uri())
        page.wait_for_selector(".av-player[data-ready]")
        page.evaluate("window.autoviz.goto(2)")  # a leaf of the first layer
        settle(page)
        start = view_of(page)
        far = page.evaluate(
            "window.autoviz.player.data.steps.findIndex(s => s.phase === 'backward')"
        )
        page.evaluate(f"window.autoviz.goto({far})")  # the loss, far away: the camera glides
        first = view_of(page)
        settle(page)
        views[motion] = view_of(page)
        assert start != views[motion]  # the camera moved between the two steps
        if motion == "reduce":
            assert first == views[motion]  # there at once
        else:
            assert first != views[motion]  # on its way: a glide takes a while
        context.close()
    glide, jump = views["no-preference"], views["reduce"]
    assert glide == pytest.approx(jump)


@pytest.mark.parametrize("program", ["logistic", "loop", "mlp"])
def test_quick_keys_end_with_the_step_on_stage(browser, pages, program):
    """Keys pressed faster than the camera glides: it ends framing the step it is on, not
    where a glide that step interrupted was going."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(FRAME_CLOCK)
    try:
        page = context.new_page()
        page.goto(pages[program].as_uri())
        page.wait_for_selector(".av-player[data-ready]")
        for gap in (0, 5):  # in one frame; a quarter of a glide apart
            assert page.evaluate(QUICK_KEYS, [[3, 6], gap]) == []
    finally:
        context.close()


PINCH_JS = """() => {
  const stage = document.querySelector('.av-stage');
  const r = stage.getBoundingClientRect();
  const at = (id, x, y, type) => stage.dispatchEvent(new PointerEvent(type, {
    pointerId: id, clientX: r.left + x, clientY: r.top + y, bubbles: true, isPrimary: id === 1,
    pointerType: 'touch'}));
  at(1, 200, 200, 'pointerdown');
  at(2, 300, 200, 'pointerdown');
  at(2, 400, 200, 'pointermove');  // the fingers twice as far apart
  at(1, 200, 200, 'pointerup');
  at(2, 400, 200, 'pointerup');
}"""


def test_a_pinch_zooms_about_the_fingers(browser, pages):
    context, page = open_player(browser, pages["mlp"], "1366x768")
    try:
        page.keyboard.press("c")  # following off: the view is the learner's
        before = view_of(page)
        page.evaluate(PINCH_JS)
        after = view_of(page)
        assert after["s"] == pytest.approx(2 * before["s"])
        # The point between the fingers at the end (300, 200 on the stage) stays put.
        w, h = page.evaluate("[window.autoviz.player.camera.W, window.autoviz.player.camera.H]")
        point = lambda v, px, py: (v["x"] + (px - w / 2) / v["s"], v["y"] + (py - h / 2) / v["s"])  # noqa: E731
        assert point(after, 300, 200) == pytest.approx(point(before, 300, 200), abs=1)
    finally:
        context.close()


# Every entry in turn, counting the times the SVG is drawn at a new scale (each lays out every
# label again: tens of ms at 500 nodes); the current step's nodes stay legible throughout.
COUNT_RESCALES = """
(minPx) => {
  const player = window.autoviz.player;
  let rescales = 0;
  let last = player.picture.shown.raster;
  let small = 0;
  for (let i = 1; i < player.data.steps.length; i++) {
    player.goto(i);
    const variant = player.picture.shown;
    if (variant.raster !== last) rescales++;
    last = variant.raster;
    const nodes = [...variant.svg.querySelectorAll('g.node.current')];
    if (nodes.length === 1 && player.camera.view.s * player.data.fontSize < minPx - 0.01) small++;
  }
  return {rescales, small};
}
"""


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_stepping_a_large_graph_keeps_one_scale(browser, tmp_path, pure_engine, screen):
    tl = tree(502)  # 502 nodes, 672 steps, as benchmarks/player.py
    context, page = open_player(browser, tl.save_html(tmp_path / "tree.html"), screen)
    found = page.evaluate(COUNT_RESCALES, 12)
    context.close()
    assert found["small"] == 0
    assert found["rescales"] <= 6, found  # 109 at 1366×768, 24 at 1920×1080, when each took its own
