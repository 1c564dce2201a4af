"""The animated SVG in a real Chromium: CSS keyframes alone make it step (no script runs)."""

import pytest

from conftest import lesson_timeline

# Pause every animation at t seconds, then report which copy of each node and caption shows.
AT = """t => {
  for (const a of document.getAnimations()) { a.pause(); a.currentTime = t * 1000; }
  const out = {};
  for (const g of document.querySelectorAll('g[id^="n"], g[id^="caption-"]')) {
    const shown = [...g.children].filter(c => getComputedStyle(c).visibility === 'visible');
    if (g.id.startsWith('caption-')) {
      if (getComputedStyle(g).visibility === 'visible') out.caption = g.textContent;
    } else if (shown.length) {
      out[g.id] = shown.map(c => c.getAttribute('class') + ' | ' + c.textContent.trim());
    }
  }
  return out;
}"""


@pytest.fixture
def animation(pure_engine, tmp_path):
    return lesson_timeline().save_animation(tmp_path / "lesson.svg")


def test_chromium_steps_through_both_passes(page, animation, tmp_path):
    page.goto(animation.as_uri())
    assert page.evaluate("document.getAnimations().length") > 20
    assert (
        page.evaluate("document.scripts.length + document.querySelectorAll('script').length") == 0
    )
    early = page.evaluate(AT, 0.5)
    page.screenshot(path=tmp_path / "early.png")
    late = page.evaluate(AT, 11.5)
    page.screenshot(path=tmp_path / "late.png")
    assert sorted(k for k in early if k != "caption") == ["n1"]  # only w exists yet
    assert "current" in early["n1"][0] and early["caption"].startswith("Step 1 of 12")
    assert set(late) >= {"n1", "n2", "n3", "n4", "n5", "n6", "n7"}
    assert all(len(copies) == 1 for copies in late.values() if isinstance(copies, list))
    assert "grad: 3.0" in late["n2"][0] and "grad: 2.0" in late["n1"][0]
    assert late["caption"].startswith("Step 12 of 12 · Backward")
    assert (tmp_path / "early.png").read_bytes() != (tmp_path / "late.png").read_bytes()
    assert [url for url in page.requests if not url.startswith("file:")] == []


def test_chromium_shows_the_gradient_labels_in_backward(page, animation):
    page.goto(animation.as_uri())
    forward, backward = page.evaluate(AT, 4.5), page.evaluate(AT, 8.5)
    assert "1.0 × 2.0" not in str(forward)
    highlighted = page.evaluate(
        """() => [...document.querySelectorAll('#e1 > g')]
              .filter(g => getComputedStyle(g).visibility === 'visible')
              .map(g => getComputedStyle(g.querySelector('path')).stroke)"""
    )
    assert highlighted == ["rgb(217, 72, 15)"]  # the theme's gradient colour, #d9480f
    assert "current" in backward["n3"][0]  # MulBackward0 is the node acting
