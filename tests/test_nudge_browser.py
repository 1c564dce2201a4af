"""The page's nudge (export/player/js/nudge.js) re-runs the ops lessons use exactly as the
kernel does (tracing/replay.py): the same numbers for every loss of test_replay.LOSSES, and the
same refusal, in the same words, for what neither can re-run."""

import math

import numpy as np
import pytest
from test_replay import LOSSES, leaf_id, traced

import autoviz
from autoviz.export.details import ELEMENT_DIGITS
from autoviz.tracing.replay import ReplayError, nudge

# Nudge node `index` (its element `at`) by h at the last step, as the card's Nudge button does.
NUDGE = """([index, at, h]) => {
  const player = window.autoviz.player;
  player.goto(player.data.steps.length - 1);
  player.inspector.select(player.inspector.facts.slot(index));
  player.nudger.h = String(h);
  player.nudger.element.set(index, at);
  player.nudger.run();
  return [...player.nudger.results.values()].pop();
}"""


def page_nudge(page, tmp_path, tl, leaf: str, at, h=1e-3):
    path = tl.save_html(tmp_path / "nudge.html")
    page.goto(path.as_uri())
    page.wait_for_selector(".av-player[data-ready]")
    index = [n.id for n in tl.nodes].index(leaf_id(tl, leaf))
    return page.evaluate(NUDGE, [index, list(at), h])


def as_the_page_holds_them(tl):
    """The timeline's tensor values rounded as the page's data holds their elements
    (ELEMENT_DIGITS significant digits), so the kernel re-runs from the page's numbers."""
    for node in tl.nodes:
        if isinstance(node.value, list):
            node.value = np.vectorize(lambda v: float(f"{v:.{ELEMENT_DIGITS}g}"))(
                node.value
            ).tolist()
    return tl


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_the_page_reruns_each_loss_as_the_kernel_does(page, tmp_path, name, pure_engine):
    tl, leaves = traced(name)
    as_the_page_holds_them(tl)
    for leaf in ("x", "W"):
        if leaf not in {n.name for n in tl.nodes}:
            continue
        element = (1,) * leaves[leaf].dim()
        found = page_nudge(page, tmp_path, tl, leaf, element)
        kernel = nudge(tl, 0, leaf_id(tl, leaf), 1e-3, element)
        assert "error" not in found, found
        assert found["ops"] == kernel["ops"] and found["output"] == kernel["output"]
        for key in ("before", "after", "change"):
            assert math.isclose(found[key], kernel[key], rel_tol=1e-9, abs_tol=1e-12), key


def test_what_neither_can_rerun_is_refused_in_the_same_words(page, tmp_path, pure_engine):
    x = autoviz.tensor([1.0, 2.0, 3.0], requires_grad=True, name="x")
    with autoviz.trace() as tl:
        (x[0] * x).sum().backward()
    with pytest.raises(ReplayError) as refused:
        nudge(tl, 0, leaf_id(tl, "x"), 1e-3, (1,))
    found = page_nudge(page, tmp_path, tl, "x", (1,))
    assert found == {"error": str(refused.value)}
    assert "SelectBackward0 cannot be re-run from the timeline" in found["error"]


def test_a_summarised_tensor_is_rerun_in_the_page_as_in_the_kernel(page, tmp_path, pure_engine):
    """A 10 × 10 value (a Summary whose grid is every element) re-runs in both alike; a 40 × 40
    one (block means) is refused by both, in the same words."""
    autoviz.manual_seed(0)
    x = autoviz.randn(10, 10, requires_grad=True, name="x")
    big = autoviz.randn(40, 40, requires_grad=True, name="big")
    with autoviz.trace() as tl:
        ((x.tanh() * 2).sum() + (big * 3).mean()).backward()
    found = page_nudge(page, tmp_path, tl, "x", (3, 4))
    kernel = nudge(tl, 0, leaf_id(tl, "x"), 1e-3, (3, 4))
    assert math.isclose(found["change"], kernel["change"], rel_tol=1e-6), (found, kernel)
    with pytest.raises(ReplayError) as refused:
        nudge(tl, 0, leaf_id(tl, "big"), 1e-3, (0, 0))
    assert page_nudge(page, tmp_path, tl, "big", (0, 0)) == {"error": str(refused.value)}
