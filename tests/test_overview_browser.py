"""Fit's overview, the key, the card and the highlight in Chromium (issue 28 items 3 and 4): Fit
on a graph too big to read whole shows a folded overview at legible text and says how to
unfold it; the key is never clipped or covered; a card opens over the panels without moving the
graph; the current node's highlight leaves its heatmap's cells as they were. A step about many
nodes far apart (zero_grad) is shown in the overview too, not the whole graph at tiny type."""

import pytest
from browser import open_player

from programs import char_model, mlp_training, residual_net

# The CSS px of the smallest text in the SVG on screen.
SMALLEST_TEXT = """() => {
  const svg = [...document.querySelectorAll('svg.av-svg')].find(s => s.style.display !== 'none');
  const sizes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
  return {overview: svg.classList.contains('av-overview'), px: Math.min(...sizes)};
}"""


def open_at(browser, path, width=1366, height=768):
    return open_player(browser, path, width, height)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("overview")
    return {
        "residual": residual_net().save_html(folder / "residual.html"),
        "mlp": mlp_training(3).save_html(folder / "mlp.html"),
        "heat": mlp_training(1).save_html(folder / "heat.html", values="heatmap"),
        "char": char_model().save_html(folder / "char.html"),
    }


@pytest.mark.parametrize("width, height", [(1366, 768), (1920, 1080), (934, 614)])
def test_fit_shows_a_legible_overview_and_says_how_to_unfold(browser, pages, width, height):
    context, page = open_at(browser, pages["residual"], width, height)
    try:
        page.evaluate("window.autoviz.goto(20)")
        whole = page.evaluate(
            "() => { const p = window.autoviz.player; const c = p.camera;"
            " return c.fitScale(p.picture.shown.box) * p.data.fontSize; }"
        )
        assert whole < 12  # the whole residual net would be drawn at under 12 px
        page.keyboard.press("0")
        shown = page.evaluate(SMALLEST_TEXT)
        assert shown["overview"] and shown["px"] >= 12 - 0.01, shown
        note = page.locator(".av-overview-note")
        assert "folded" in note.inner_text() and "Click a part to unfold it" in note.inner_text()
        assert page.locator("svg.av-overview:visible g.node.current").count() >= 1
        page.keyboard.press("c")  # following off: the overview stays while stepping
        page.keyboard.press("ArrowRight")
        assert page.evaluate(SMALLEST_TEXT)["overview"]
        assert page.locator("svg.av-overview:visible g.node.current").count() >= 1
        box = page.locator("svg.av-overview:visible g.node[id^=m]").first  # a folded module
        box.click()
        assert not page.evaluate(SMALLEST_TEXT)["overview"] and note.is_hidden()
        unfolded = page.evaluate(SMALLEST_TEXT)["px"]
        assert unfolded >= 12 - 0.01  # the part clicked, at a legible scale
        page.keyboard.press("0")
        page.keyboard.press("0")  # Fit again: everything unfolded, however small
        assert not page.evaluate(SMALLEST_TEXT)["overview"]
        assert page.evaluate(SMALLEST_TEXT)["px"] == pytest.approx(whole, rel=0.05)
        assert page.errors == []
    finally:
        context.close()


KEY_CHECK = """() => {
  const key = document.querySelector('.av-key');
  const k = key.getBoundingClientRect();
  const items = [...key.querySelectorAll('.av-key-item')];
  const covered = items.filter(item => {
    const r = item.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return !hit || !key.contains(hit);
  }).map(item => item.textContent);
  const minimap = document.querySelector('.av-minimap');
  const m = minimap.hidden ? null : minimap.getBoundingClientRect();
  const overlap = m && !(m.right <= k.left || m.left >= k.right ||
    m.bottom <= k.top || m.top >= k.bottom);
  return {items: items.length, covered, overlap, clipped: key.scrollWidth > key.clientWidth + 1 ||
    key.scrollHeight > key.clientHeight + 1 || k.bottom > innerHeight || k.right > innerWidth};
}"""


@pytest.mark.parametrize("width, height", [(1366, 768), (400, 800)])
def test_the_key_is_whole_and_the_minimap_never_sits_on_it(browser, pages, width, height):
    context, page = open_at(browser, pages["mlp"], width, height)
    try:
        for k in (0, 20, 45, 77):
            page.evaluate(f"window.autoviz.goto({k})")
            found = page.evaluate(KEY_CHECK)
            assert found == {
                "items": found["items"],
                "covered": [],
                "overlap": None if found["overlap"] is None else False,
                "clipped": False,
            }
            assert found["items"] >= 5  # leaf, op, intermediate, output, constant, gradient
    finally:
        context.close()


def test_a_card_opens_over_the_panels_without_moving_the_graph(browser, pages):
    context, page = open_at(browser, pages["mlp"])
    try:
        page.evaluate("window.autoviz.goto(40)")
        state = (
            "() => { const p = window.autoviz.player; const s = p.stage.getBoundingClientRect();"
            " return {stage: [s.left, s.top, s.width, s.height], view: p.camera.view,"
            " code: p.codePanel.getBoundingClientRect().height}; }"
        )
        before = page.evaluate(state)
        node = page.locator("svg.av-svg:visible g.node.current").first
        node.click()
        card = page.locator(".av-card")
        card.wait_for()
        after = page.evaluate(state)
        assert after == before  # the stage, the camera and the code panel untouched
        side = page.locator(".av-side").bounding_box()
        box = card.bounding_box()
        assert (
            box["x"] >= side["x"] - 1 and box["x"] + box["width"] <= side["x"] + side["width"] + 1
        )
        assert box["y"] + box["height"] <= side["y"] + side["height"] + 1
    finally:
        context.close()


# Each heatmap polygon's stroke in a node: the node's own shape, the cells and their borders.
HEAT_STROKES = """(id) => {
  const g = [...document.querySelectorAll('svg.av-svg')].find(s => s.style.display !== 'none')
    .querySelector(`g#${id}`);
  const width = (el) => getComputedStyle(el).strokeWidth;
  const cells = [...g.querySelectorAll('polygon')].filter(p => p !== g.querySelector('title + *'));
  return {own: width(g.querySelector('title + *')), cells: [...new Set(cells.map(width))],
    current: g.classList.contains('current'), count: g.querySelectorAll('polygon.cell').length};
}"""


def test_the_current_highlight_leaves_a_heatmaps_cells_as_they_are(browser, pages):
    tl = mlp_training(1)
    weight = next(n for n in tl.nodes if n.name == "net.0.weight")
    k = next(s.index for s in tl.steps if weight.id in s.nodes)
    context, page = open_at(browser, pages["heat"])
    try:
        page.evaluate(f"window.autoviz.goto({k})")
        now = page.evaluate(HEAT_STROKES, weight.id)
        page.evaluate(f"window.autoviz.goto({k + 1})")
        later = page.evaluate(HEAT_STROKES, weight.id)
        assert (
            now["current"] and not later["current"] and now["count"] in (24, 48)
        )  # value (and grad)
        assert now["cells"] == later["cells"]  # the cells and their borders as they were
        assert float(now["own"].rstrip("px")) > float(later["own"].rstrip("px"))  # its outline
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(934, 614), (1366, 768)])
def test_a_step_about_nodes_far_apart_is_shown_in_the_overview(browser, pages, width, height):
    """zero_grad() in the character model's second iteration sets every parameter's grad to
    None: the whole graph would be drawn at under half the legible type, so the step is shown
    in the overview with the parameters' boxes marked, at legible type (framed on the most of
    them a legible view holds where even the overview is too big); the next step goes back to
    the picture."""
    context, page = open_at(browser, pages["char"], width, height)
    try:
        k = page.evaluate(
            "() => { const d = window.autoviz.player.data; return d.steps.findLastIndex("
            "(s) => d.strings[s.explain].startsWith('zero_grad()')); }"
        )
        assert k > 0
        page.evaluate(f"window.autoviz.goto({k})")
        shown = page.evaluate(SMALLEST_TEXT)
        assert shown["overview"], shown
        assert shown["px"] >= 12 - 0.01, shown  # legible, never the whole at 6 px
        assert page.locator("svg.av-overview:visible g.node.current").count() >= 2
        assert "folded" in page.locator(".av-overview-note").inner_text()
        page.keyboard.press("ArrowRight")
        after = page.evaluate(SMALLEST_TEXT)
        assert not after["overview"] and after["px"] >= 12 - 0.01, after
        assert page.errors == []
    finally:
        context.close()
