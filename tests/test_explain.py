"""The panels beside the picture: banners, code lines, chain-rule explanations, quiz answers."""

import autoviz
from autoviz.tracing.explain import banner, code_lines, explain, panels
from conftest import lesson_timeline


def test_lesson_example_explains_each_backward_edge_with_numbers():
    tl = lesson_timeline()
    mul = next(k for k, s in enumerate(tl.steps) if s.kind == "backward" and "Mul" in s.caption)
    assert explain(tl, mul).splitlines() == [
        "MulBackward0: ∂y/∂w = x = 2.0; upstream 1.0 × 2.0 = 2.0 → w.grad",
        "MulBackward0: ∂y/∂x = w = 3.0; upstream 1.0 × 3.0 = 3.0 → x.grad",
    ]
    add = next(k for k, s in enumerate(tl.steps) if s.kind == "backward" and "Add" in s.caption)
    first = explain(tl, add).splitlines()[0]
    assert first == "AddBackward0: ∂z/∂y = 1.0; upstream 1.0 × 1.0 = 1.0 → y"


def test_forward_steps_explain_with_their_caption_and_banner():
    tl = lesson_timeline()
    assert explain(tl, 0) == tl.steps[0].caption
    assert banner(tl.steps[0]) == "Forward — building the graph"
    assert banner(tl.steps[-1]) == "Backward — flowing gradients"


def test_fan_out_shows_the_running_sum():
    a = autoviz.tensor(0.5, requires_grad=True)
    with autoviz.trace() as tl:
        b = a + a
        c = b * b
        c.backward()
    add = next(k for k, s in enumerate(tl.steps) if s.kind == "backward" and "Add" in s.caption)
    lines = explain(tl, add).splitlines()
    assert lines[0].endswith("upstream 2.0 × 1.0 = 2.0 → a.grad")
    assert lines[1].endswith("→ a.grad (a fans out: 2.0 + 2.0 = 4.0 so far)")
    assert a.grad.item() == 4.0


def test_code_lines_are_distinct_and_every_step_points_into_them():
    tl = lesson_timeline()
    lines, index = code_lines(tl)
    # In source order: the traced block's every line, and the function it is in, the lines
    # between left out (a gap row).
    assert [(src.role, src.text.strip()) for src in lines] == [
        ("context", "def lesson_timeline():"),
        ("gap", "…"),
        ("context", "with autoviz.trace() as tl:"),
        ("code", "y = w * x"),
        ("code", "z = y + b"),
        ("code", "z.backward()"),
    ]
    numbered = [src.line for src in lines if src.line is not None]
    assert numbered == sorted(numbered)
    assert [lines[i].text.strip() for i in index[:3]] == ["y = w * x"] * 3
    assert lines[index[-1]].text.strip() == "z.backward()"
    assert all(lines[i].role == "code" for i in index)


def test_panels_are_plain_data_for_every_step():
    tl = lesson_timeline()
    data = panels(tl)
    assert len(data) == len(tl)
    assert data[0]["banner"].startswith("Forward") and data[0]["quiz"] is None
    assert all(panel["quiz"] is None for panel in data)  # asked for with quiz=True
    last_accumulate = max(k for k, s in enumerate(tl.steps) if s.kind == "accumulate")
    assert panels(tl, quiz=True)[last_accumulate]["quiz"]["answer"] == "3.0"
