"""nn.Module clusters, collapsed modules, roll-ups, saved tensors and the hard node limit."""

import re

import pytest

import autoviz
import autoviz.render.frames as frames_module
from autoviz import nn
from autoviz.engine.function import module_stack
from autoviz.errors import GraphTooLarge
from autoviz.tracing import graph_of


def mlp():
    """Linear-ReLU-Linear and an MSE loss, backward run; returns the namespace."""
    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    loss_fn = nn.MSELoss()
    x, y = autoviz.randn(2, 3), autoviz.randn(2, 1)
    loss = loss_fn(net(x), y)
    loss.backward()
    return dict(net=net, loss_fn=loss_fn, x=x, y=y, loss=loss)


def deep():
    """A Sequential holding four identical Linear-Tanh blocks between two Linears."""
    autoviz.manual_seed(0)
    blocks = [nn.Sequential(nn.Linear(8, 8), nn.Tanh()) for _ in range(4)]
    net = nn.Sequential(nn.Linear(3, 8), *blocks, nn.Linear(8, 1))
    out = net(autoviz.randn(2, 3)).sum()
    return dict(net=net, out=out)


def draw(ns: dict, root: str, **options) -> str:
    return autoviz.draw(graph_of(ns[root], ns), **options).source


def legend(source: str) -> list:
    return re.findall(r'id="legend-([\w-]+)"', source)


def boxes(source: str) -> dict:
    """Collapsed module id -> its first label row."""
    found = re.findall(r'(m\d+) \[id="m\d+" class="module".*?label=<<b>(.*?)</b>', source)
    return dict(found)


def clusters(source: str) -> list:
    return re.findall(r'class="module-cluster" label=<(\S+) \((\w+)\)>', source)


# -- the engine and the model --------------------------------------------------------------------
def test_ops_remember_the_modules_running_and_parameters_their_owner():
    ns = mlp()
    graph = graph_of(ns["loss"], ns)
    by_name = {n.name: n for n in graph.nodes}
    assert by_name["net.0.weight"].module == [["net", "Sequential"], ["net.0", "Linear"]]
    relu = next(n for n in graph.nodes if n.op == "ReluBackward0")
    assert relu.module == [["net", "Sequential"], ["net.1", "ReLU"]]
    mse = next(n for n in graph.nodes if n.op == "MseLossBackward0")
    assert mse.module == [["loss_fn", "MSELoss"]]
    assert by_name["loss"].module == [["loss_fn", "MSELoss"]]
    assert module_stack == []  # popped after every forward


def test_the_module_stack_is_popped_when_forward_raises():
    layer = nn.Linear(3, 2)
    with pytest.raises(RuntimeError):
        layer(autoviz.randn(2, 5))
    assert module_stack == []


def test_ops_outside_modules_carry_no_module():
    a = autoviz.tensor(2.0, requires_grad=True)
    b = a * a
    assert all(n.module == [] for n in graph_of(b, {"a": a, "b": b}).nodes)


def test_a_module_no_variable_holds_is_named_by_its_type():
    x = autoviz.randn(2, 3)
    out = nn.Sequential(nn.Linear(3, 2))(x)
    op = next(n for n in graph_of(out, {"out": out}).nodes if n.kind == "op")
    assert op.module == [["Sequential", "Sequential"], ["Sequential.0", "Linear"]]


def test_traced_timelines_carry_modules_and_saved_tensors_through_json():
    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    x = autoviz.randn(2, 3)
    with autoviz.trace() as tl:
        out = net(x).sum()
        out.backward()
    by_name = {n.name: n for n in tl.nodes}
    assert by_name["net.0.weight"].module == [["net", "Sequential"], ["net.0", "Linear"]]
    assert by_name["x"].module == []  # made outside the model
    addmm = next(n for n in tl.nodes if n.op == "AddmmBackward0")
    assert [s["name"] for s in addmm.saved] == ["_saved_mat1", "_saved_mat2"]
    assert [s["shape"] for s in addmm.saved] == [[2, 3], [3, 4]]
    again = autoviz.Timeline.from_json(tl.to_json())
    assert [n.module for n in again.nodes] == [n.module for n in tl.nodes]
    assert [n.saved for n in again.nodes] == [n.saved for n in tl.nodes]


def test_saved_tensors_are_named_as_in_pytorch():
    a = autoviz.tensor(2.0, requires_grad=True)
    b = autoviz.tensor(5.0, requires_grad=True)
    c = (a * b).relu()
    graph = graph_of(c, {"a": a, "b": b, "c": c})
    mul, relu = (n for n in graph.nodes if n.kind == "op")
    assert mul.saved == [
        {"name": "_saved_self", "shape": [], "value": 2.0},
        {"name": "_saved_other", "shape": [], "value": 5.0},
    ]
    assert relu.saved == [{"name": "_saved_result", "shape": [], "value": 10.0}]


# -- clusters ------------------------------------------------------------------------------------
def test_modules_draw_as_nested_clusters_labelled_path_and_type():
    source = draw(mlp(), "loss")
    assert clusters(source) == [
        ("net", "Sequential"),
        ("net.0", "Linear"),
        ("net.1", "ReLU"),
        ("net.2", "Linear"),
        ("loss_fn", "MSELoss"),
    ]
    net_block = source[source.index("label=<net (") : source.index("label=<loss_fn (")]
    assert "net.0.weight" in net_block and "net.2.bias" in net_block
    assert "MseLossBackward0" not in net_block
    assert not boxes(source)  # small graphs draw every op


def test_a_graph_without_modules_has_no_clusters():
    assert "subgraph cluster_1" not in draw(deep_free(), "c")


def deep_free():
    a = autoviz.tensor(1.0, requires_grad=True)
    b = a + a
    c = b * b
    return dict(a=a, b=b, c=c)


# -- collapse, expand, depth, roll-up ------------------------------------------------------------
def test_above_collapse_above_modules_become_boxes_and_repeats_roll_up():
    source = draw(deep(), "out", collapse_above=10)
    assert list(boxes(source).values()) == ["net.0", "net.1 … net.4 ×4", "net.5"]
    assert "(2, 8) → (2, 8)" in source  # the rolled-up blocks' shapes in and out
    assert re.search(r"m1 -> m2 .*\n\tm2 -> m3 ", source)
    assert legend(source) == ["op", "output", "constant", "module"]  # x is drawn, grey


def test_repeats_stay_rolled_up_while_the_rest_opens_as_far_as_it_fits():
    source = draw(deep(), "out", collapse_above=20)
    assert list(boxes(source).values()) == ["net.1 … net.4 ×4"]
    assert clusters(source) == [("net", "Sequential"), ("net.0", "Linear"), ("net.5", "Linear")]


def test_the_default_threshold_leaves_small_graphs_open():
    assert not boxes(draw(deep(), "out"))
    assert len(clusters(draw(deep(), "out"))) == 1 + 6 + 8  # net, its 6 children, 4 × 2 inside


def test_depth_opens_that_many_module_levels():
    ns = deep()
    assert list(boxes(draw(ns, "out", depth=0)).values()) == ["net"]
    opened_once = draw(ns, "out", depth=1)
    assert clusters(opened_once) == [("net", "Sequential")]
    assert list(boxes(opened_once).values()) == ["net.0", "net.1 … net.4 ×4", "net.5"]
    assert clusters(draw(ns, "out", depth=2))[:3] == [
        ("net", "Sequential"),
        ("net.0", "Linear"),
        ("net.1", "Sequential"),
    ]


def test_expand_opens_one_module_and_the_modules_around_it():
    source = draw(deep(), "out", depth=0, expand=["net.2"])
    assert clusters(source) == [("net", "Sequential"), ("net.2", "Sequential")]
    assert sorted(boxes(source).values()) == [
        "net.0",
        "net.1",
        "net.2.0",
        "net.2.1",
        "net.3 … net.4 ×2",
        "net.5",
    ]


def test_the_output_stays_visible_when_its_module_collapses():
    source = draw(mlp(), "loss", depth=0)
    assert list(boxes(source).values()) == ["net", "loss_fn"]
    assert '<b>loss</b><br/><font point-size="11.0">value:' in source


# -- show_saved ----------------------------------------------------------------------------------
def test_show_saved_draws_saved_tensors_tied_to_their_op():
    ns = deep_free()
    plain = draw(ns, "c")
    assert 'class="saved"' not in plain and "saved" not in legend(plain)
    source = draw(ns, "c", show_saved=True)
    mul = re.search(r'(n\d+) \[id="n\d+" class="op".*MulBackward0', source).group(1)
    saved = re.findall(rf'{mul}_s\d+ \[id="{mul}-saved\d+" class="saved".*?<b>(\w+)</b>', source)
    assert saved == ["_saved_self", "_saved_other"]
    edge = f'{mul}_s1 -> {mul} [id="{mul}-saved1-edge" class="saved" style=dashed dir=none'
    assert edge in source
    assert legend(source)[-1] == "saved"


# -- the hard limit ------------------------------------------------------------------------------
def test_too_many_nodes_stop_before_the_layout_engine(monkeypatch):
    calls = []
    monkeypatch.setattr("autoviz.render.layout.run_layout", lambda *a: calls.append(a))
    x = autoviz.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(30):
        y = y * 1.5
    with pytest.raises(GraphTooLarge) as info:
        autoviz.draw(y, max_nodes=50)
    message = str(info.value)
    assert "would draw 91 nodes, more than max_nodes=50" in message  # 1.5 is drawn each time
    assert "was not started" in message and "nn.Module" in message and "max_nodes=" in message
    assert calls == []


def test_the_hard_limit_counts_nodes_after_collapsing():
    ns = deep()
    with pytest.raises(GraphTooLarge, match="depth=1"):
        draw(ns, "out", max_nodes=10)
    assert boxes(draw(ns, "out", max_nodes=10, depth=1))


# -- option validation ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("expand", "net.1", r"expand must be a list of module paths such as \['net.1'\]"),
        ("expand", [1], r"expand must be a list of module paths"),
        ("depth", -1, r"depth must be an integer >= 0 or None to open every module, got -1"),
        ("depth", 1.5, r"depth must be an integer >= 0"),
        ("collapse_above", 0, r"collapse_above must be an integer >= 1, got 0"),
        ("max_nodes", "many", r"max_nodes must be an integer >= 1, got 'many'"),
        ("show_saved", "yes", r"show_saved must be True or False, got 'yes'"),
    ],
)
def test_bad_grouping_options_say_what_is_allowed(option, value, message):
    with pytest.raises(ValueError, match=message):
        draw(deep_free(), "c", **{option: value})


def test_an_unknown_module_in_expand_lists_the_modules():
    with pytest.raises(ValueError, match=r"unknown module 'net.9' in expand \(must be one of \["):
        draw(mlp(), "loss", expand=["net.9"])


# -- frames of a grouped timeline ----------------------------------------------------------------
def test_frames_of_a_collapsed_timeline_show_a_box_once_its_module_ran(pure_engine, monkeypatch):
    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    x = autoviz.randn(2, 3)
    with autoviz.trace() as tl:
        out = net(x).sum()
        out.backward()
    calls = []
    real = frames_module.svg_layout
    monkeypatch.setattr(frames_module, "svg_layout", lambda *a: calls.append(1) or real(*a))
    first = tl.draw(step=0, depth=1, show_saved=True).svg()
    last = tl.draw(step=len(tl) - 1, depth=1, show_saved=True).svg()
    assert '<g id="m3" class="node module hidden">' in first  # net.2 has not run yet
    # shown, and the step's own: the last step frees every op, those inside it too
    assert '<g id="m3" class="node module current">' in last
    positions = re.compile(r'<g id="(m\d+)" class="node[^"]*">.*?points="([^"]+)"', re.S)
    assert dict(positions.findall(first)) == dict(positions.findall(last))
    assert calls == [1]


def test_module_names_are_escaped_in_clusters_and_boxes():
    evil = type('Evil</text><script>"&', (nn.Linear,), {})
    autoviz.manual_seed(0)
    net = nn.Sequential(evil(2, 2))
    out = net(autoviz.randn(1, 2)).sum()
    ns = {"net": net, "out": out}
    for source in (draw(ns, "out"), draw(ns, "out", depth=1)):
        assert "<script>" not in source and "</text>" not in source
        assert "Evil&lt;/text&gt;&lt;script&gt;&quot;&amp;" in source


@pytest.mark.parametrize("ghost", [False, True])
def test_grouped_frames_derived_step_by_step_equal_frames_computed_whole(pure_engine, ghost):
    from autoviz.render import get_theme, make_options
    from autoviz.render.frames import Frames

    autoviz.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    x = autoviz.randn(2, 3)
    with autoviz.trace() as tl:
        out = net(x).sum()
        out.backward()
    options = make_options(depth=1, expand=["net.2"], show_saved=True)
    frames = Frames(tl, get_theme("dark"), options)
    for k in [*range(len(tl)), 2]:
        template, state = frames.state(k, ghost)
        whole = template.fill(state)
        assert frames.svg(k, ghost=ghost) == whole, f"step {k}"
