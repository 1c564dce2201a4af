"""Big graphs degrade, never fail: repeated structure folds into one box, many alike inputs of
one op fold, dot is asked for less past each size, and an export is always written."""

import gc
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.errors import GraphTooLarge, LayoutTimeout
from autoviz.render import frames_for, get_theme
from autoviz.render.dot import LAYOUT_TIERS, Options, drawing_plan, layout_tier, to_dot
from autoviz.render.frames import Frames
from autoviz.render.groups import MIN_BLOCKS, find_folds
from autoviz.tracing import graph_of, walk
from autoviz.tracing.rules import gradient
from programs import BIG_SHAPES, big_graph


def plan_of(tl, **options):
    """The plan of the timeline's first graph as its frames lay it out."""
    return frames_for(tl, **options).template(0)[2]


def folded(plan) -> set:
    return {i for box in plan.boxes if box.fold is not None for i in box.members}


@pytest.mark.parametrize("nodes", [1000, 3000, 5000])
@pytest.mark.parametrize("shape", BIG_SHAPES)
def test_big_graphs_of_every_shape_are_planned_under_the_limits(shape, nodes, monkeypatch):
    """Plans only (the layout is the benchmark's): what repeats folds, the rest is hidden, and
    every graph under max_nodes gets a drawing plan."""
    monkeypatch.setattr("autoviz.render.frames.svg_layout", lambda source, timeout: _EMPTY)
    tl = big_graph(shape, nodes)
    assert abs(len(tl.nodes) - nodes) < nodes * 0.05 + 20
    plan = plan_of(tl)
    assert plan is not None and plan.drawn <= Options().max_nodes
    if shape in ("loop", "fan_in"):  # repeated structure: folded to a handful of nodes
        assert plan.folds and plan.drawn <= Options().collapse_above
    else:  # irregular: nothing folds, inner tensors are left out
        assert not plan.folds and plan.hidden


_EMPTY = '<svg xmlns="http://www.w3.org/2000/svg"></svg>'


def test_the_issues_deep_program_folds_its_iterations(tmp_path):
    """Issue 30's program: 160 steps of h @ W[i % 8], tanh, a mean taken off (1,300 nodes
    drawn before): the first and last iterations drawn, the 158 between in one box."""
    tl = big_graph("loop", 160 * 17)
    plan = plan_of(tl)
    (fold,) = plan.folds
    assert (fold.name, len(fold.blocks), len(fold.inner), fold.chained) == ("fold1", 160, 158, True)
    assert fold.ops == [
        "MmBackward0",
        "TanhBackward0",
        "MulBackward0",
        "AddBackward0",
        "MeanBackward1",
        "SubBackward0",
        "SumBackward0",
        "AddBackward0",
    ]
    assert fold.title() == "fold1: 158 iterations folded"
    nodes = {n.id: n for n in tl.nodes}
    # The drawn nodes are the program's own, their values the tensors' (the first iteration's
    # h is drawn with its value, which the box does not stand for).
    drawn = [i for i in nodes if plan.draws(i)]
    assert set(fold.blocks[0]) <= set(drawn) and set(fold.blocks[-1]) <= set(drawn)
    assert not set(drawn) & folded(plan)
    assert sum(nodes[i].kind == "leaf" for i in drawn) == 8  # every weight stays drawn
    # The picture says what it folded and how to open it.
    source = frames_for(tl).template(0)[0]
    assert "fold1: 158 iterations folded" in source
    assert "8 ops each: MmBackward0 → TanhBackward0 → MulBackward0 → AddBackward0" in source
    assert "expand=[&#x27;fold1&#x27;] opens it" in source
    path = tl.save_html(tmp_path / "deep.html")
    assert "fold1: 158 iterations folded" in path.read_text()


def test_expand_opens_a_fold():
    tl = big_graph("loop", 20 * 17)
    closed = plan_of(tl, collapse_above=100)
    opened = plan_of(tl, collapse_above=100, expand=["fold1"])
    assert closed.folds[0].folded and not opened.folds[0].folded
    assert not folded(opened) and opened.drawn > closed.drawn
    with pytest.raises(ValueError, match="or a fold the drawing names: fold1"):
        plan_of(tl, expand=["fold one"])


def test_a_fan_in_of_many_alike_inputs_folds_them():
    """torch.stack of 2,000 leaves: the inputs between the first and the last fold."""
    xs = [autoviz.tensor(float(i), requires_grad=True) for i in range(2000)]
    graph = graph_of(autoviz.stack(xs).sum(), {"xs": xs})
    plan = drawing_plan(graph, Options())
    (fold,) = plan.folds
    assert fold.title() == "fold1: 1,998 inputs of StackBackward0 folded"
    assert fold.into == "StackBackward0" and plan.drawn < 20
    assert "1,998 inputs of StackBackward0 folded" in to_dot(graph, layout=plan)


def test_a_fan_in_past_max_nodes_is_refused_before_any_work():
    """Issue 26.5: 100,000 leaves into one op are refused by the walk, not drawn."""
    xs = [autoviz.tensor(1.0, requires_grad=True) for _ in range(10_000)]
    out = autoviz.stack(xs).sum()
    with pytest.raises(GraphTooLarge, match=r"operations and leaves outside any nn\.Module"):
        autoviz.draw(out)
    graph = graph_of(out, {})
    with pytest.raises(GraphTooLarge, match="more than max_nodes=5,000"):
        drawing_plan(graph, Options())


class _NamesReadOnce(tuple):
    """An op's input names that fail if something walks them all (once per input is n²)."""

    def __iter__(self):
        raise AssertionError("every input's name was read for one input's gradient")


def test_one_inputs_gradient_reads_no_other_inputs_names():
    """Issue 26.5: a stack of n inputs sends n gradients; each reads its own words only."""
    names = _NamesReadOnce(f"x{i}" for i in range(2000))
    assert gradient("StackBackward0", 1500, names, "out", "g", 2000, {"dim": 0}) == (
        "g's slice 1500 along dim 0"
    )
    assert gradient("CatBackward0", 7, names, "out", "g", None, {"dim": 1}).startswith("the slice")


def test_the_walk_holds_the_collector_back(monkeypatch):
    """torch builds a node object per input of next_functions: a fan-in of 100,000 leaves set
    off full collections over the heap (most of a refusal's time); the walk pauses them."""
    seen = []
    real = walk.ops_in_order
    monkeypatch.setattr(walk, "ops_in_order", lambda *a: seen.append(gc.isenabled()) or real(*a))
    xs = [autoviz.tensor(1.0, requires_grad=True) for _ in range(3)]
    graph_of(autoviz.stack(xs).sum(), {})
    assert seen == [False] and gc.isenabled()


@given(
    period=st.integers(1, 6),
    repeats=st.integers(MIN_BLOCKS, 40),
    head=st.integers(0, 5),
    tail=st.integers(1, 5),  # the output after the loop: every block alike
)
@settings(max_examples=40, deadline=None)
def test_folds_are_runs_of_alike_blocks_each_feeding_the_next(period, repeats, head, tail):
    """Random loops: a fold's blocks do the same ops in order, the first and last stay drawn."""
    ops = ["sin", "tanh", "exp", "cos", "sigmoid", "neg"]
    body = [ops[(i * 5 + period) % len(ops)] for i in range(period)]
    x = autoviz.tensor(0.1, requires_grad=True)
    h = x
    for name in ["relu"] * head + body * repeats + ["abs"] * tail:
        h = getattr(h, name)() * 0.5
    graph = graph_of(h, {})
    folds = find_folds(graph, set(), goal=1, drawn=len(graph.nodes))
    by_id = {n.id: n for n in graph.nodes}
    saved = (repeats - 2) * 4 * period - 1  # an op and a tensor for each of (op, * 0.5)
    if saved < 16:
        return
    fold = folds[0]
    assert fold.chained and len(fold.blocks) == repeats
    looks = [[(by_id[i].kind, by_id[i].op, by_id[i].shape) for i in block] for block in fold.blocks]
    assert all(look == looks[0] for look in looks)
    assert sum(by_id[i].kind == "op" for i in fold.blocks[0]) == len(fold.ops)


def test_big_drawings_ask_dot_for_less():
    """Past each tier dot minimises crossings for less long and places labels after layout."""
    assert layout_tier(100) == ("", False)
    attributes, xlabels = layout_tier(LAYOUT_TIERS[-1][0] + 1)
    assert "remincross=false" in attributes and xlabels
    assert "nslimit" in layout_tier(LAYOUT_TIERS[0][0] + 1)[0]
    tl = big_graph("chain", 2000)
    source = frames_for(tl).template(0)[0]
    assert "remincross=false" in source.splitlines()[1]
    assert " xlabel=<" in source and not re.search(r"class=\"data\"[^\n]* label=<", source)


def test_an_export_is_written_when_dot_runs_out_of_time(monkeypatch, tmp_path):
    """A layout that times out becomes the graph's summary, saying so: the page is written."""

    def slow(source, timeout):
        raise LayoutTimeout("dot did not finish laying out the graph within 30 s")

    monkeypatch.setattr("autoviz.render.frames.svg_layout", slow)
    tl = big_graph("chain", 500)
    frames = Frames(tl, get_theme("default"), Options())
    assert frames.is_summary(0)
    assert "within 30 s" in " ".join(frames.template(0)[1].fill({}).split())
    assert tl.save_html(tmp_path / "p.html").stat().st_size > 0


def test_a_step_inside_a_fold_marks_the_fold_as_the_steps_own():
    """The camera follows the current node: inside a fold, the box is current."""
    tl = big_graph("loop", 20 * 17)
    frames = frames_for(tl, collapse_above=100)
    fold_box = next(b for b in frames.template(0)[2].boxes if b.fold is not None)
    inner = set(fold_box.members)
    inside = next(s.index for s in tl.steps if s.kind == "op" and s.nodes[0] in inner)
    outside = next(s.index for s in tl.steps if s.kind == "op" and s.nodes[0] not in inner)
    mark = f'<g id="{fold_box.id}" class="node module current">'
    assert mark in frames.svg(inside) and mark not in frames.svg(outside)
    assert mark in frames.svg(inside + 1)  # stepping on in order, as the player does
    assert frames.svg(inside) == Frames(tl, get_theme("default"), Options(collapse_above=100)).svg(
        inside
    )
