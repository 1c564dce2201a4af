"""autoviz.Stepper driven from Python: buttons, slider, panels, quiz, options and shown errors."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import autoviz
import autoviz.render.frames as frames_module
import autoviz.widgets.stepper as stepper_module
from autoviz.widgets import layers
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


def test_importing_autoviz_does_not_import_ipywidgets():
    code = "import sys, autoviz; print('ipywidgets' in sys.modules, autoviz.Stepper.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "Stepper"]


def test_first_frame_panels_and_controls(lesson):
    stepper = autoviz.Stepper(lesson)
    assert stepper.step == 0 and stepper.slider.value == 0
    assert stepper.slider.max == stepper.play.max == len(lesson) - 1 == 11
    assert visible(stepper.frame_svg) == {"n1"}  # only w: x appears at the next step
    assert "current" in classes(stepper.frame_svg)["n1"]
    assert stepper.banner_text == "Forward — building the graph"
    assert "step 0 of 11" in stepper.banner.value
    assert stepper.explanation.startswith("w is a leaf")
    assert stepper.code_line.text == "y = w * x"  # w and x appear at their first use
    assert stepper.code._dom_classes == ("av-at-2",)  # after the def and with headers
    assert stepper.prev_button.disabled and not stepper.next_button.disabled


def test_buttons_and_slider_step_through_both_passes(lesson):
    stepper = autoviz.Stepper(lesson)
    code_html = stepper.code.value
    stepper.next_button.click()
    assert stepper.step == 1 and stepper.slider.value == 1
    assert visible(stepper.frame_svg) == {"n1", "n2"}
    stepper.next_button.click()
    assert visible(stepper.frame_svg) == {"n1", "n2", "n3", "n4"}  # *, y
    assert {"n3", "n4"} == {i for i, c in classes(stepper.frame_svg).items() if "current" in c}

    stepper.backward_button.click()
    assert stepper.step == 5 and stepper.banner_text == "Backward — flowing gradients"
    assert stepper.code_line.text == "z.backward()"
    assert stepper.code._dom_classes == ("av-at-4",)
    assert stepper.code.value is code_html  # the code panel is sent once; a class moves

    stepper.slider.value = 8
    assert stepper.step == 8
    assert stepper.explanation.splitlines() == [
        "MulBackward0: ∂y/∂w = x = 2.0; upstream 1.0 × 2.0 = 2.0 → w.grad",
        "MulBackward0: ∂y/∂x = w = 3.0; upstream 1.0 × 3.0 = 3.0 → x.grad",
    ]
    frame = classes(stepper.frame_svg)
    assert frame["e1"] == frame["e2"] == "edge data grad current"
    assert "upstream 1.0 × 2.0 = 2.0 → w.grad" in stepper.explanation_view.value

    stepper.prev_button.click()
    assert stepper.step == 7 and stepper.explanation == "b.grad is now 1.0."
    stepper.end_button.click()
    assert stepper.step == 11 and stepper.next_button.disabled and stepper.end_button.disabled
    assert "w.grad" not in stepper.explanation and "freed" in stepper.explanation
    assert stepper.output.outputs == ()


def test_step_property_counts_from_the_end_and_checks_its_argument(lesson):
    stepper = autoviz.Stepper(lesson)
    stepper.step = -1
    assert stepper.step == 11 and stepper.slider.value == 11
    with pytest.raises(IndexError):
        stepper.step = 12
    with pytest.raises(TypeError, match="step must be an int, not str"):
        stepper.step = "3"


def test_play_is_linked_to_the_slider_and_speed_to_its_interval_in_the_browser(lesson):
    stepper = autoviz.Stepper(lesson)
    pairs = {(link.source[1], link.target[1]): link for link in stepper._links}
    play_link, speed_link = pairs[("value", "value")], pairs[("value", "interval")]
    assert play_link.source[0] is stepper.play and play_link.target[0] is stepper.slider
    assert speed_link.source[0] is stepper.speed and speed_link.target[0] is stepper.play
    # Play moves the slider in the browser; the kernel then sees the slider change.
    for k in range(1, 6):
        stepper.slider.value = k
    assert stepper.step == 5 and stepper.banner_text.startswith("Backward")


def test_frames_come_from_one_layout(lesson, monkeypatch):
    calls = []
    real = frames_module.svg_layout
    monkeypatch.setattr(frames_module, "svg_layout", lambda *a: calls.append(1) or real(*a))
    stepper = autoviz.Stepper(lesson)
    for k in range(len(lesson)):
        stepper.slider.value = k
    assert len(calls) == 1


def test_quiz_asks_before_revealing_each_gradient(lesson):
    stepper = autoviz.Stepper(lesson, quiz=True)
    stepper.end_button.click()  # forward has no questions; the first is before step 6
    assert stepper.step == 5 and stepper.slider.value == 5
    prompt = "What gradient does AddBackward0 send to y? (upstream × local)"
    assert stepper.question.prompt == prompt
    assert stepper.quiz_box.layout.display == "flex"
    assert "send to y" in stepper.question_view.value

    stepper.answer.value = "one"
    assert stepper.step == 5 and stepper.question is not None  # a typo is asked again
    assert "is not a number" in stepper.feedback

    stepper.answer.value = "1"
    assert stepper.step == 6 and stepper.question is None
    assert stepper.feedback == "Right: the answer is 1.0. (1 of 1 right so far)"
    assert "av-right" in stepper.feedback_view.value
    assert stepper.quiz_box.layout.display == "none"

    stepper.next_button.click()
    assert stepper.step == 6 and stepper.question.prompt == "What is b.grad after this step?"
    stepper.answer.value = "2"
    stepper.check_button.click()  # Enter already submitted; the button does not count twice
    assert stepper.step == 7
    assert stepper.feedback == "Not quite: the answer is 1.0. (1 of 2 right so far)"
    assert "av-wrong" in stepper.feedback_view.value

    stepper.slider.value = 3  # going back and forward again does not ask again
    stepper.slider.value = 7
    assert stepper.step == 7 and stepper.question is None and stepper.feedback == ""


def test_quiz_check_with_nothing_typed_keeps_asking(lesson):
    stepper = autoviz.Stepper(lesson, quiz=True)
    stepper.slider.value = 8
    assert stepper.step == 5 and stepper.slider.value == 5  # held before the first question
    stepper.check_button.click()
    assert stepper.step == 5 and stepper.question is not None and stepper.feedback == ""


def test_theme_ghost_and_drawing_options_reach_the_renderer(lesson):
    dark = autoviz.Stepper(lesson, theme="dark", ghost=True, op_label="name")
    assert "#1e1e1e" in dark.frame_svg
    assert "ghost" in classes(dark.frame_svg)["n2"]
    assert "av-theme-dark" in dark._dom_classes
    # Banner text picked for contrast: dark on the dark theme's light blue, white on deep blue.
    assert ".av-banner.av-forward { background: #74c0fc; color: #111111; }" in dark.css.value
    light = autoviz.Stepper(lesson).css.value
    assert ".av-banner.av-forward { background: #1c4f9c; color: white; }" in light
    texts = "".join(t.text or "" for t in ET.fromstring(dark.frame_svg).iter(f"{SVG}text"))
    assert "MulBackward0" in texts and "*" not in texts.replace("×", "")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"theme": "neon"}, ValueError, "unknown theme 'neon'"),
        ({"rankdir": "XY"}, ValueError, "unknown rankdir 'XY'"),
        ({"colour": "red"}, ValueError, "unknown option 'colour'"),
        ({"quiz": "yes"}, TypeError, "quiz must be True or False"),
        ({"ghost": 1}, TypeError, "ghost must be True or False"),
    ],
)
def test_bad_arguments_fail_at_construction(lesson, kwargs, error, message):
    with pytest.raises(error, match=message):
        autoviz.Stepper(lesson, **kwargs)


def test_not_a_timeline_is_a_clear_error():
    with pytest.raises(TypeError, match=r"Stepper\(\) expects a Timeline .* not Tensor"):
        autoviz.Stepper(autoviz.tensor(1.0))


def test_an_error_while_stepping_is_shown_in_the_output(pure_engine, monkeypatch):
    w = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        for i in range(2):  # two graphs of different shapes, each laid out when first shown
            loss = w * 2.0 if i == 0 else (w * 2.0).tanh()
            loss.backward()
    stepper = autoviz.Stepper(tl)
    monkeypatch.setenv("AUTOVIZ_DOT", "no-such-layout-engine")
    stepper.end_button.click()  # the second graph needs its layout now, and that fails
    (error,) = stepper.output.outputs
    assert error["output_type"] == "error" and error["ename"] == "LayoutEngineNotFound"
    assert "no-such-layout-engine" in error["evalue"]
    assert any("_on_end" in line for line in error["traceback"])
    assert stepper.step == 0 and stepper.slider.value == 0  # still the frame that is shown


def test_user_text_is_escaped_in_every_panel(pure_engine):
    a = autoviz.tensor(2.0, requires_grad=True, name="<img src=x onerror=alert(1)>")
    with autoviz.trace() as tl:
        out = a * a  # <b>not bold</b>
        out.backward()
    stepper = autoviz.Stepper(tl)
    assert "&lt;b&gt;not bold&lt;/b&gt;" in stepper.code.value
    assert "<b>" not in stepper.code.value
    for k in range(len(tl)):
        stepper.step = k
        for html in (stepper.explanation_view.value, stepper.frame_svg, stepper.banner.value):
            assert "<img" not in html
    ET.fromstring(stepper.frame_svg)  # still well-formed


def groups_of(svg: str) -> list:
    return [(g.get("id"), g.get("class")) for g in ET.fromstring(svg).iter(f"{SVG}g")]


def test_a_step_resends_only_the_frame_layers_it_changed(lesson, monkeypatch):
    monkeypatch.setattr(stepper_module, "PER_LAYER", 3)
    stepper = autoviz.Stepper(lesson)
    assert len(stepper.layers) == len(layers.split(stepper.frame_svg, 3)) > 3
    stepper.step = 5
    before = [view.value for view in stepper.layers]
    stepper.next_button.click()  # AddBackward0: its node and its two input edges change
    changed = [i for i, view in enumerate(stepper.layers) if view.value != before[i]]
    assert 1 <= len(changed) < len(stepper.layers) - 1
    stacked = [group for view in stepper.layers for group in groups_of(view.value)[1:]]
    assert stacked == groups_of(stepper.frame_svg)[1:]  # the layers draw exactly the frame


def test_layers_keep_every_group_once_in_paint_order(lesson):
    svg = lesson.draw(step=8).svg()
    parts = layers.split(svg, 4)
    assert "<style>" in parts[0] and all("<style>" not in part for part in parts[1:])
    for part in parts:
        ET.fromstring(part)  # each layer is a whole SVG document
        assert part.count("<svg") == 1 and 'id="graph0"' in part
    ids = [i for part in parts for i, _ in groups_of(part) if i != "graph0"]
    assert ids == [i for i, _ in groups_of(svg) if i != "graph0"]
    assert layers.split("<svg></svg>", 4) == ["<svg></svg>"]


def test_each_frame_stylesheet_is_scoped_to_its_own_stepper(lesson):
    light, dark = autoviz.Stepper(lesson), autoviz.Stepper(lesson, theme="dark")
    for stepper in (light, dark):
        scope = next(c for c in stepper.frame._dom_classes if c.startswith("av-s"))
        css = stepper.layers[0].value.split("<style>")[1].split("</style>")[0]
        rules = [line for line in css.splitlines() if "{" in line]
        assert rules and all(rule.startswith(f".{scope} ") for rule in rules)
        assert f".{scope} .hidden {{ visibility: hidden; }}" in rules
    assert light.frame._dom_classes != dark.frame._dom_classes
    assert "#d9480f" in light.layers[0].value and "#d9480f" not in dark.layers[0].value


def test_the_stylesheet_highlights_each_code_line_in_the_stepper_theme(lesson):
    stepper = autoviz.Stepper(lesson, theme="projector")
    css = stepper.css.value
    assert css.count("pre.av-line-") == len(stepper._lines) == 5  # with two context lines
    assert ".av-theme-projector .av-at-2 pre.av-line-2 { border-left-color: #b5006b;" in css
    assert ".av-theme-projector .av-banner { font: bold 30px" in css  # type for the back row
