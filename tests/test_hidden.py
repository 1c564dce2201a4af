"""hide_inner_tensors: intermediate tensors left out, edges from op to op, as torchviz draws."""

import random
import re

import pytest

import autoviz
from autoviz.errors import GraphTooLarge
from autoviz.render import Options
from autoviz.render.frames import Frames
from conftest import lesson_timeline


def edges(source: str) -> list:
    """(source, target, id) of every data edge in DOT text."""
    return re.findall(r'^\t(\w+) -> (\w+) \[id="([\w-]+)" class="data"', source, re.M)


def kinds(source: str) -> list:
    return re.findall(r'^\tn\d+ \[id="n\d+" class="(\w+)"', source, re.M)


def chain(n_ops: int):
    """sin and tanh in no order that repeats (a repeating one would be folded instead)."""
    x = autoviz.tensor([0.5, -0.25], requires_grad=True)
    h, coin = x, random.Random(0)
    for _ in range(n_ops):
        h = h.sin() if coin.random() < 0.5 else h.tanh()
    return h.sum()


def test_the_lesson_without_y_runs_mul_straight_into_add(pure_engine):
    tl = lesson_timeline()
    source = tl.draw(step=len(tl) - 1, hide_inner_tensors=True).source
    assert kinds(source) == ["leaf", "leaf", "op", "leaf", "op", "output"]
    by_id = {n.id: n for n in tl.nodes}
    y = next(n for n in tl.nodes if n.name == "y")
    into_add = next(e for e in tl.edges if e.source == y.id)  # y -> AddBackward0
    mul = next(e.source for e in tl.edges if e.target == y.id)
    drawn = edges(source)
    assert (mul, into_add.target, into_add.id) in drawn  # y's edge now leaves the op
    assert not any(y.id in (s, t) for s, t, _ in drawn)
    assert len(drawn) == len(tl.edges) - 1  # only the op -> y edge is gone
    assert by_id[mul].op == "MulBackward0" and "legend-hidden" in source


def test_big_graphs_hide_inner_tensors_unless_told_not_to(pure_engine):
    small, big = chain(100), chain(200)  # 203 and 403 nodes
    assert "intermediate" in kinds(autoviz.draw(small).source)
    auto = autoviz.draw(big).source
    assert "intermediate" not in kinds(auto) and kinds(auto).count("op") == 201
    assert kinds(autoviz.draw(big, hide_inner_tensors=False).source).count("intermediate") == 200
    assert "intermediate" not in kinds(autoviz.draw(small, hide_inner_tensors=True).source)
    assert "legend-hidden" not in autoviz.draw(small).source


def test_hiding_lets_a_graph_past_the_node_limit(pure_engine):
    out = chain(300)  # 603 nodes: 302 drawn when inner tensors are hidden
    with pytest.raises(GraphTooLarge):
        autoviz.draw(out, max_nodes=400, hide_inner_tensors=False)
    assert kinds(autoviz.draw(out, max_nodes=400).source).count("op") == 301


def test_retained_intermediates_and_outputs_stay(pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x * 3.0
        y.retain_grad()
        z = y.sin()
        out = z * 2.0
        out.backward()
    source = tl.draw(step=len(tl) - 1, hide_inner_tensors=True).source
    names = re.findall(r"<b>(\w+)</b>", source)
    assert "y" in names and "out" in names and "z" not in names


def test_a_result_no_op_uses_stays_so_its_op_does_not_dangle(pure_engine):
    x = autoviz.tensor(2.0, requires_grad=True)
    with autoviz.trace() as tl:
        h = x * 3.0
        aux = h.exp()  # noqa: F841 (computed to be printed, say; the loss does not use it)
        loss = h.sin()
        loss.backward()
    source = tl.draw(step=len(tl) - 1, hide_inner_tensors=True).source
    assert re.findall(r"<b>(\w+)</b>", source)[-3:] == ["aux", "SinBackward0", "loss"]
    assert "<b>h</b>" not in source


def test_without_inner_tensors_each_op_is_one_line_unless_op_label_says(pure_engine):
    """Drawn as torchviz draws, ops read as grad_fns: PyTorch's name alone."""
    tl = lesson_timeline()
    ops = lambda source: re.findall(r'class="op" .*label=<(.*)>\]', source)  # noqa: E731
    hidden = tl.draw(step=len(tl) - 1, hide_inner_tensors=True).source
    assert ops(hidden) == ["<b>MulBackward0</b>", "<b>AddBackward0</b>"]
    both = tl.draw(step=len(tl) - 1, hide_inner_tensors=True, op_label="both").source
    assert ops(both)[0] == '<b>*</b><br/><font point-size="11.0">MulBackward0</font>'
    drawn_whole = ops(tl.draw(step=len(tl) - 1).source)
    assert drawn_whole[1] == '<b>+</b><br/><font point-size="11.0">AddBackward0</font>'
    symbols = tl.draw(step=len(tl) - 1, hide_inner_tensors=True, op_label="symbol").source
    assert ops(symbols) == ["<b>*</b>", "<b>+</b>"]


def test_the_node_limit_message_mentions_hiding_when_it_was_turned_off(pure_engine):
    with pytest.raises(GraphTooLarge, match="hide_inner_tensors=None"):
        autoviz.draw(chain(300), max_nodes=400, hide_inner_tensors=False)


def test_backward_frames_label_the_op_to_op_edge(pure_engine):
    tl = lesson_timeline()
    frames = Frames(tl, autoviz.render.get_theme("default"), Options(hide_inner_tensors=True))
    y = next(n for n in tl.nodes if n.name == "y")
    into_add = next(e for e in tl.edges if e.source == y.id)
    add_step = next(
        k for k, s in enumerate(tl.steps) if into_add.id in {tl.edges[f.edge].id for f in s.flows}
    )
    svg = frames.svg(add_step)
    group = re.search(rf'<g id="{into_add.id}" class="([^"]*)">(.*?)</g>', svg, re.S)
    assert "grad" in group.group(1).split() and "1.0 × 1.0 = 1.0" in group.group(2)
    assert f'id="{y.id}"' not in svg


def test_hide_inner_tensors_is_checked():
    with pytest.raises(ValueError, match="hide_inner_tensors must be True, False or None"):
        Options(hide_inner_tensors="yes")
