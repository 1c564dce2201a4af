"""autoviz.Stepper driven from Python: the synced traits, what is sent, options, still picture."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import traitlets

import autoviz
import autoviz.render.frames as frames_module
from autoviz.export import frontend
from autoviz.export.html import player_page
from conftest import lesson_timeline

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def lesson(pure_engine):
    return lesson_timeline()


def classes(svg: str) -> dict:
    """Node/edge id -> its class attribute in a frame's SVG."""
    groups = ET.fromstring(svg).iter(f"{SVG}g")
    return {g.get("id"): g.get("class") for g in groups if g.get("id", "")[:1] in "ne"}


def visible(svg: str) -> set:
    found = classes(svg)
    return {i for i, c in found.items() if i.startswith("n") and "hidden" not in c}


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="av-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def test_importing_autoviz_does_not_import_ipywidgets():
    code = "import sys, autoviz; print('ipywidgets' in sys.modules, autoviz.Stepper.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "Stepper"]


def test_the_widget_loads_the_html_players_module_and_data(lesson):
    """One front-end: the widget's ES module and CSS are the page's, and so is its data."""
    stepper = autoviz.Stepper(lesson)
    assert stepper._esm == frontend.module() and "export default { render }" in stepper._esm
    assert stepper._css == frontend.stylesheet()
    page = player_page(lesson, quiz=True)
    assert stepper._data == page_data(page)  # the same steps, strings, slots and questions
    assert len(stepper._svgs) == 1 and len(stepper._svgs[0]) == 2  # one graph, two directions
    assert [svg[:4] for svg in stepper._svgs[0]] == ["<svg", "<svg"]
    assert stepper._data["layouts"][0]["directions"] == ["LR", "TB"]


def test_step_is_a_synced_trait_counting_from_the_end_and_checked(lesson):
    stepper = autoviz.Stepper(lesson)
    assert stepper.step == 0 and stepper.trait_metadata("step", "sync")
    assert stepper.counter == "step 1 of 12"
    assert visible(stepper.frame_svg) == {"n1"}  # only w: x appears at the next step
    assert stepper.banner_text == "Forward — building the graph"
    assert stepper.code_line.text == "y = w * x"
    stepper.step = -1
    assert stepper.step == 11 and stepper.counter == "step 12 of 12"
    assert "freed" in stepper.explanation
    with pytest.raises(IndexError):
        stepper.step = 12
    with pytest.raises(traitlets.TraitError, match="expected an int, not the str '3'"):
        stepper.step = "3"
    stepper.step = 8
    assert stepper.explanation.splitlines() == [
        "MulBackward0: ∂y/∂w = x = 2.0; upstream 1.0 × 2.0 = 2.0 → w.grad",
        "MulBackward0: ∂y/∂x = w = 3.0; upstream 1.0 × 3.0 = 3.0 → x.grad",
    ]
    frame = classes(stepper.frame_svg)
    assert frame["e1"] == frame["e2"] == "edge data grad current"
    assert autoviz.Stepper(lesson, step=-2).step == 10  # where a stepper starts


def test_options_are_synced_traits(lesson):
    stepper = autoviz.Stepper(lesson, quiz=True, follow=False)
    synced = {"step", "quiz", "follow", "projector", "rankdir", "theme", "ghost", "options"}
    assert synced <= set(stepper.keys)
    assert stepper.quiz and not stepper.follow and stepper.rankdir is None
    assert autoviz.Stepper(lesson, theme="projector").projector  # large type from the start


def test_every_frame_comes_from_one_layout_per_direction(lesson, monkeypatch):
    calls = []
    real = frames_module.svg_layout
    monkeypatch.setattr(frames_module, "svg_layout", lambda *a: calls.append(1) or real(*a))
    stepper = autoviz.Stepper(lesson)
    assert len(calls) == 2  # left to right and top to bottom, made once
    for k in range(len(lesson)):
        stepper.step = k
        stepper.frame_svg  # noqa: B018 (the still picture of each step)
    assert len(calls) == 2


def test_theme_ghost_and_drawing_options_reach_the_frames_and_redraw(lesson):
    dark = autoviz.Stepper(lesson, theme="dark", ghost=True, op_label="name")
    assert "#1e1e1e" in dark.frame_svg and dark._data["theme"] == "dark"
    assert "ghost" in classes(dark.frame_svg)["n2"]
    texts = "".join(t.text or "" for t in ET.fromstring(dark.frame_svg).iter(f"{SVG}text"))
    assert "MulBackward0" in texts and "*" not in texts.replace("×", "")
    sent = dark._data
    dark.theme = "default"  # a change from Python sends new frames
    assert dark._data is not sent and dark._data["theme"] == "default"
    assert "#1e1e1e" not in dark.frame_svg
    dark.options = {"precision": 2, "legend": False}
    assert 'id="legend"' not in dark._svgs[0][0]
    sent = dark._data
    dark.rankdir = "TB"  # already laid out that way: the browser switches, nothing is sent
    assert dark._data is sent
    dark.rankdir = "BT"
    assert dark._data["layouts"][0]["directions"] == ["BT", "LR"]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"theme": "neon"}, ValueError, "unknown theme 'neon'"),
        ({"rankdir": "XY"}, ValueError, "unknown rankdir 'XY'"),
        ({"colour": "red"}, ValueError, "unknown option 'colour'"),
        ({"precision": 0}, ValueError, "precision must be an integer from 1 to 17"),
        ({"quiz": "yes"}, TypeError, "quiz must be True or False"),
        ({"ghost": 1}, TypeError, "ghost must be True or False"),
        ({"follow": None}, TypeError, "follow must be True or False"),
        ({"step": 99}, IndexError, r"step 99 is not one of this timeline.s: it has 12 steps"),
    ],
)
def test_bad_arguments_fail_at_construction(lesson, kwargs, error, message):
    with pytest.raises(error, match=message):
        autoviz.Stepper(lesson, **kwargs)


def test_bad_options_set_later_fail_and_keep_what_was_shown(lesson):
    stepper = autoviz.Stepper(lesson)
    with pytest.raises(ValueError, match="unknown theme 'neon'"):
        stepper.theme = "neon"
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        stepper.options = {"colour": "red"}
    assert stepper.theme == "default" and stepper.options == {}


def test_not_a_timeline_is_a_clear_error():
    with pytest.raises(TypeError, match=r"Stepper\(\) expects a Timeline .* not Tensor"):
        autoviz.Stepper(autoviz.tensor(1.0))


def test_the_still_picture_for_viewers_without_widgets_is_the_frame_shown(lesson):
    stepper = autoviz.Stepper(lesson, step=8)
    data, _ = stepper._repr_mimebundle_()
    assert set(data) == {"text/plain", "image/svg+xml", "application/vnd.jupyter.widget-view+json"}
    assert data["image/svg+xml"] == stepper.frame_svg  # one picture, of step 8
    assert classes(data["image/svg+xml"])["e1"] == "edge data grad current"
    assert data["text/plain"] == ("autoviz.Stepper: step 9 of 12 — Backward — flowing gradients")


def test_user_text_stays_text(pure_engine):
    a = autoviz.tensor(2.0, requires_grad=True, name="<img src=x onerror=alert(1)>")
    with autoviz.trace() as tl:
        out = a * a  # <b>not bold</b>
        out.backward()
    stepper = autoviz.Stepper(tl)
    assert any("<b>not bold</b>" in line["text"] for line in stepper._data["code"])  # textContent
    for k in range(len(tl)):
        stepper.step = k
        assert "<img" not in stepper.frame_svg
        ET.fromstring(stepper.frame_svg)  # still well-formed
    assert all("<img" not in svg for variants in stepper._svgs for svg in variants)
