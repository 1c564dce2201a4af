"""The PyTorch bridge: torch's own graphs and backward runs give autoviz's Graph and Timeline."""

import json
import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import autoviz
import autoviz.tracing  # graph_of, whatever ran before

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def lesson(lib, tracer=None):
    """The lesson's z = w * x + b in `lib` (autoviz or torch), traced when `tracer` is given."""
    x = lib.tensor(2.0, requires_grad=True)
    w = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(1.0, requires_grad=True)
    if tracer is None:
        y = w * x
        z = y + b
        z.backward()
        return autoviz.tracing.graph_of(z, dict(x=x, w=w, b=b, y=y, z=z), _view(lib))
    with tracer() as tl:
        y = w * x
        z = y + b
        z.backward()
    return tl


def _view(lib):
    if lib is torch:
        from autoviz.bridge.view import TorchView

        return TorchView()
    return autoviz.tracing.view.EngineView()


def facts(graph):
    """What a learner reads off a graph: every node's kind, name, op, value and grad, and edges."""
    nodes = [(n.kind, n.name, n.op, n.shape, n.dtype, n.value, n.grad) for n in graph.nodes]
    edges = [(e.source, e.target, e.index) for e in graph.edges]
    return nodes, edges


def steps(tl):
    return [(s.phase, s.kind, s.caption, s.nodes, s.edges, s.source.text) for s in tl.steps]


def by_name(graph):
    return {n.name: n for n in graph.nodes}


def test_lesson_traced_in_torch_is_the_autoviz_timeline():
    ours, theirs = lesson(autoviz, autoviz.trace), lesson(torch, autoviz.trace_torch)
    assert steps(theirs) == steps(ours)
    assert len(theirs) == 12 and theirs.steps[8].caption.startswith("MulBackward0 applies")
    assert [[(f.upstream, f.local, f.contribution) for f in s.flows] for s in theirs.steps] == [
        [(f.upstream, f.local, f.contribution) for f in s.flows] for s in ours.steps
    ]
    for k in range(len(ours)):
        assert facts(theirs[k]) == facts(ours[k]), f"graph after step {k}"
    assert {n: by_name(theirs[-1])[n].grad for n in "xwb"} == {"x": 3.0, "w": 2.0, "b": 1.0}


def draw_lesson(lib):
    x = lib.tensor(2.0, requires_grad=True)
    w = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(1.0, requires_grad=True)
    y = w * x
    z = y + b
    z.backward()
    return autoviz.draw(z)


def test_draw_of_a_torch_tensor_is_the_autoviz_drawing():
    assert facts(lesson(torch)) == facts(lesson(autoviz))
    theirs = draw_lesson(torch).source
    assert theirs == draw_lesson(autoviz).source  # the same DOT, node for node
    assert "<b>w</b>" in theirs and "grad: 2.0" in theirs


def draw_saved(lib):
    x = lib.tensor(2.0, requires_grad=True)
    w = lib.tensor(3.0, requires_grad=True)
    b = lib.tensor(1.0, requires_grad=True)
    y = w * x
    s = y + b  # named: torch keeps no value of a tensor no variable holds (AddBackward0)
    z = s.exp()
    return autoviz.draw(z, show_saved=True).source


def test_show_saved_draws_torchs_saved_tensors_as_autoviz_draws_its_own():
    theirs = draw_saved(torch)
    assert theirs == draw_saved(autoviz)
    assert "_saved_self" in theirs and "_saved_result" in theirs


def test_saved_tensors_are_read_from_torchs_saved_attributes():
    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    y = w * x
    graph = autoviz.tracing.graph_of(y, {"x": x, "w": w, "y": y}, _view(torch))
    mul = next(n for n in graph.nodes if n.kind == "op")
    assert mul.saved == [
        {"name": "_saved_self", "shape": [], "value": 3.0},
        {"name": "_saved_other", "shape": [], "value": 2.0},  # x, which d/dw needs
    ]
    y.backward()  # frees them: torch raises on access, the graph simply has none
    graph = autoviz.tracing.graph_of(y, {}, _view(torch))
    assert next(n for n in graph.nodes if n.kind == "op").saved == []


def mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))


def test_mlp_trace_groups_ops_into_their_modules():
    net, x = mlp(), torch.randn(2, 3)
    with autoviz.trace_torch() as tl:
        out = net(x)
        loss = out.pow(2).mean()
        loss.backward()
    final = by_name(tl[-1])
    seq, first, relu, last = (
        ["net", "Sequential"],
        ["net.0", "Linear"],
        ["net.1", "ReLU"],
        [
            "net.2",
            "Linear",
        ],
    )
    ops = [(n.op, n.module) for n in tl.nodes if n.kind == "op"]
    assert ops == [
        ("TBackward0", [seq, first]),
        ("AddmmBackward0", [seq, first]),
        ("ReluBackward0", [seq, relu]),
        ("TBackward0", [seq, last]),
        ("AddmmBackward0", [seq, last]),
        ("PowBackward0", []),
        ("MeanBackward0", []),
    ]
    assert final["net.0.weight"].module == [seq, first] and final["out"].module == [seq, last]
    assert final["x"].kind == "constant" and final["loss"].kind == "output"
    for name, param in net.named_parameters(prefix="net"):
        np.testing.assert_allclose(final[name].grad, param.grad.numpy(), err_msg=name)
    addmm = next(n for n in tl.nodes if n.op == "AddmmBackward0")
    saved = {d["name"]: d for d in addmm.saved}
    assert saved["_saved_mat1"]["shape"] == [2, 3]  # x, which d/dweight needs
    np.testing.assert_allclose(saved["_saved_mat1"]["value"], x.numpy())
    linear = next(s for s in tl.steps if s.kind == "op" and s.nodes[0] == addmm.id)
    assert linear.source.text == "out = net(x)"  # torch's own frames are skipped
    assert "net.0.out = x @ net.0.weightᵀ + net.0.bias = " in linear.caption  # F.linear's order


def test_a_single_sample_through_linear_shows_its_input():
    """nn.Linear on a 1-D input runs addmm on x unsqueezed, then view: x is still drawn."""
    lin, x = torch.nn.Linear(3, 2), torch.ones(3)
    with autoviz.trace_torch() as tl:
        out = lin(x)
    ops = [n.op for n in tl.nodes if n.kind == "op"]
    assert ops == ["TBackward0", "AddmmBackward0", "ViewBackward0"]
    linear = next(s for s in tl.steps if s.kind == "op" and "AddmmBackward0" in s.caption)
    assert "= x @ lin.weightᵀ + lin.bias = " in linear.caption
    assert by_name(tl[-1])["x"].kind == "constant" and by_name(tl[-1])["out"].kind == "output"
    assert by_name(tl[-1])["out"].value == pytest.approx(out.tolist())


def test_mlp_draw_maps_parameters_to_modules():
    net, x = mlp(), torch.randn(2, 3)
    out = net(x)
    graph = autoviz.tracing.graph_of(out, {}, _view(torch))  # no names: no module paths
    assert all(n.module == [] for n in graph.nodes)
    diagram = autoviz.draw(out)
    assert "net.0.weight" in diagram.source and "net.2.bias" in diagram.source
    from autoviz.bridge import graph_of_torch

    graph = graph_of_torch(out, {"net": net, "x": x, "out": out})
    modules = {n.name: n.module for n in graph.nodes}
    assert modules["net.0.weight"] == [["net", "Sequential"], ["net.0", "Linear"]]
    assert modules["out"] == [["net", "Sequential"], ["net.2", "Linear"]]
    ops = [(n.op, n.module[-1][0] if n.module else None) for n in graph.nodes if n.kind == "op"]
    assert ops == [
        ("TBackward0", "net.0"),
        ("AddmmBackward0", "net.0"),
        ("ReluBackward0", "net"),  # between net.0 and net.2: no parameter says net.1
        ("TBackward0", "net.2"),
        ("AddmmBackward0", "net.2"),
    ]


def test_fan_out_is_recorded_in_the_order_torch_ran_it():
    a = torch.tensor(3.0, requires_grad=True)
    with autoviz.trace_torch() as tl:
        b = a + a
        c = b * b
        c.backward()
    backward = [s for s in tl.steps if s.phase == "backward"]
    assert [s.kind for s in backward] == ["seed", "backward", "backward", "accumulate", "free"]
    mul, add = backward[1], backward[2]
    assert [(f.contribution, f.total) for f in mul.flows] == [(6.0, None), (6.0, 12.0)]
    assert [(f.contribution, f.total) for f in add.flows] == [(12.0, None), (12.0, 24.0)]
    assert by_name(tl[-1])["a"].grad == a.grad.item() == 24.0
    assert len([e for e in tl.edges if e.source == by_name(tl[-1])["a"].id]) == 2


def test_execution_order_is_torchs_not_creation_order():
    """Two branches: torch runs the later-created one first (higher sequence number)."""
    a = torch.tensor(2.0, requires_grad=True)
    with autoviz.trace_torch() as tl:
        p = a * 3.0
        q = a + 1.0
        r = p * q
        r.backward()
    ran = [tl.nodes[int(s.nodes[0][1:]) - 1].op for s in tl.steps if s.kind == "backward"]
    assert ran == ["MulBackward0", "AddBackward0", "MulBackward0"]  # q's node before p's
    assert by_name(tl[-1])["a"].grad == a.grad.item() == pytest.approx(3 * 3.0 + 6.0)


def state_changes(lib, tracer):
    x = lib.tensor(2.0, requires_grad=True)
    with tracer() as tl:
        y = x * x
        y.retain_grad()
        with lib.no_grad():
            q = x * 10
        d = x.detach()
        y.backward()
    assert q.item() == 20.0 and d.item() == 2.0
    return tl


def test_retain_grad_no_grad_and_detach_match_autoviz():
    ours, theirs = state_changes(autoviz, autoviz.trace), state_changes(torch, autoviz.trace_torch)
    assert steps(theirs) == steps(ours)
    final = by_name(theirs[-1])
    assert final["y"].retains_grad and final["y"].grad == 1.0
    assert final["q"].made_in_no_grad and final["q"].kind == "constant"
    assert final["d"].detached and not final["d"].requires_grad
    assert facts(theirs[-1]) == facts(ours[-1])


def in_place(lib, tracer):
    """An in-place op on a tensor in the graph: the tensor goes on from the op's result."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with tracer() as tl:
        y = x * 2.0
        y.mul_(3.0)
        z = y.sum()
        z.backward()
    return tl


def into_sum(tl):
    """The ops in order, and the name and maker of the tensor SumBackward0 reads."""
    nodes = {n.id: n for n in tl.nodes}
    edge = next(e for e in tl.edges if nodes[e.target].op == "SumBackward0")
    maker = next(e.source for e in tl.edges if e.target == edge.source)
    ops = [n.id for n in tl.nodes if n.kind == "op"]
    return [nodes[i].op for i in ops], nodes[edge.source].name, ops.index(maker)


def test_in_place_ops_match_autoviz():
    ours, theirs = in_place(autoviz, autoviz.trace), in_place(torch, autoviz.trace_torch)
    assert into_sum(theirs) == into_sum(ours)
    # y after mul_ is a tensor of its own in the graph: labelled apart from the y before it.
    assert into_sum(ours) == (["MulBackward0", "MulBackward0", "SumBackward0"], "y₁", 1)


def training(lib, tracer):
    w = lib.tensor(0.0, requires_grad=True)
    with tracer() as tl:
        for _ in range(3):
            loss = (w * 2.0 - 4.0) ** 2
            loss.backward()
            with lib.no_grad():
                w -= 0.1 * w.grad
            w.grad.zero_()
    return tl


def test_training_loop_matches_autoviz():
    ours, theirs = training(autoviz, autoviz.trace), training(torch, autoviz.trace_torch)
    assert steps(theirs) == steps(ours)
    assert sorted({n.graph for n in theirs.nodes}) == [-1, 0, 1, 2]


def optimizer_steps(lib, tracer, make):
    w = lib.tensor([1.0, -1.0], requires_grad=True)
    opt = make(lib, w)
    with tracer() as tl:
        loss = (w * w).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    return tl, w


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, w: lib.optim.SGD([w], lr=0.5),
        lambda lib, w: lib.optim.SGD([w], lr=0.5, momentum=0.9),
        lambda lib, w: lib.optim.Adam([w], lr=0.1),
    ],
    ids=["sgd", "momentum", "adam"],
)
def test_optimizer_step_and_zero_grad_are_update_steps_as_in_autoviz(make):
    tl, w = optimizer_steps(torch, autoviz.trace_torch, make)
    ours, _ = optimizer_steps(autoviz, autoviz.trace, make)
    kinds = [(s.phase, s.kind) for s in tl.steps[-2:]]
    assert kinds == [("update", "update"), ("update", "zero_grad")]
    assert [s.source.text for s in tl.steps[-2:]] == ["opt.step()", "opt.zero_grad()"]
    final = by_name(tl[-1])["w"]
    np.testing.assert_allclose(final.value, w.detach().numpy())
    assert final.grad is None
    assert steps(tl) == steps(ours)  # the same steps and captions in both engines
    np.testing.assert_allclose(by_name(ours[-1])["w"].value, final.value, rtol=1e-6)


def test_hooks_are_removed_when_the_block_ends():
    x = torch.tensor(2.0, requires_grad=True)
    with autoviz.trace_torch() as tl:
        y = x * x
        y.backward(retain_graph=True)
    before = tl.to_json()
    y.backward()  # outside the block: nothing more is recorded
    assert tl.to_json() == before and x.grad.item() == 8.0


def test_torch_timeline_works_downstream(tmp_path, pure_engine):
    tl = lesson(torch, autoviz.trace_torch)
    again = autoviz.Timeline.from_json(tl.to_json())
    assert again.to_json() == tl.to_json()
    doc = json.loads(tl.to_json())
    assert [s["name"] for s in doc["nodes"]["saved"][2]] == ["_saved_self", "_saved_other"]
    svg = tl.draw(step=8).svg()
    assert '<g id="n3" class="node op current' in svg
    paths = tl.save_frames(tmp_path)
    assert len(paths) == 12 and all(p.exists() for p in paths)
    from autoviz.widgets.stepper import Stepper

    stepper = Stepper(tl)
    stepper.step = 8
    assert "∂y/∂w = x = 2.0" in stepper.explanation and stepper.code_line.text == "z.backward()"
    page = tl.save_html(tmp_path / "lesson.html").read_text()
    assert "Backward starts at z: ∂z/∂z = 1.0." in page and "b.grad is now 1.0." in page


def test_mlp_timeline_draws_module_boxes_in_every_frame(pure_engine):
    net, x = mlp(), torch.randn(2, 3)
    with autoviz.trace_torch() as tl:
        out = net(x)
        out.sum().backward()
    first_linear = next(k for k, s in enumerate(tl.steps) if "AddmmBackward0" in s.caption)
    for k in (first_linear, len(tl) - 1):
        svg = tl.draw(step=k, show_saved=True).svg()
        assert "net.0 (Linear)" in svg and "net (Sequential)" in svg
        assert "_saved_mat1" in svg


def torchviz_ops(dot) -> Counter:
    """The op names torchviz drew: grey function nodes, AccumulateGrad drawn as its leaf here."""
    labels = Counter()
    for line in dot.body:
        match = re.match(r"\s*\d+ \[label=(\w+)\]", line)
        if match and match.group(1) != "AccumulateGrad":
            labels[match.group(1)] += 1
    return labels


@pytest.mark.filterwarnings("ignore:distutils Version classes:DeprecationWarning")
@pytest.mark.parametrize("program", ["lesson", "mlp", "fan_out"])
def test_same_op_nodes_as_torchviz(program):
    torchviz = pytest.importorskip("torchviz")
    if program == "lesson":
        x, w, b = (torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 1.0))
        root = w * x + b
    elif program == "mlp":
        root = mlp()(torch.randn(2, 3)).pow(2).mean()
    else:
        a = torch.tensor(3.0, requires_grad=True)
        root = (a + a) * (a + a).exp()
    ours = Counter(n.op for n in autoviz.tracing.graph_of(root, {}, _view(torch)).nodes if n.op)
    assert ours == torchviz_ops(torchviz.make_dot(root))
    assert sum(ours.values()) >= 2


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("+*-r"), st.integers(0, 9), st.integers(0, 9)),
        min_size=1,
        max_size=10,
    ),
    st.lists(st.floats(-3, 3, width=32), min_size=3, max_size=3),
)
@example(program=[("+", 0, 0), ("r", 0, 0), ("*", 0, 4)], values=[0.0, 0.0, 0.0])  # zero grads
def test_random_programs_give_the_same_timeline_in_both(program, values):
    def run(lib, tracer):
        leaves = [lib.tensor(v, requires_grad=True) for v in values]
        with tracer() as tl:
            pool = list(leaves)
            for op, i, j in program:
                a, b = pool[i % len(pool)], pool[j % len(pool)]
                pool.append({"+": a + b, "*": a * b, "-": a - b, "r": lib.relu(a)}[op])
            pool[-1].sum().backward()
        return tl

    def captions(tl):  # the engines may differ in a zero's sign: sum([-0.0]) is -0.0 in numpy
        return [(s.kind, re.sub(r"-0\.0\b", "0.0", s.caption)) for s in tl.steps]

    ours, theirs = run(autoviz, autoviz.trace), run(torch, autoviz.trace_torch)
    assert captions(theirs) == captions(ours)
    assert facts(theirs[-1]) == facts(ours[-1])


BLOCK_TORCH = """
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NoTorch())
import autoviz
from autoviz.errors import TorchNotInstalled

x = autoviz.tensor(2.0, requires_grad=True)
print(autoviz.draw(x * x).source.count("MulBackward0"))  # autoviz itself needs no torch
try:
    autoviz.trace_torch()
except TorchNotInstalled as error:
    assert isinstance(error, ModuleNotFoundError) and error.name == "torch"
    print(error)
"""


def test_clear_error_when_torch_is_not_installed():
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK_TORCH], capture_output=True, text=True, check=True
    )
    count, message = proc.stdout.strip().splitlines()
    assert int(count) >= 1
    assert message == (
        "trace_torch() needs PyTorch, which is not installed. Install it with: pip install torch; "
        "autoviz needs only its CPU build, so on Linux, where pip's default is a CUDA build of "
        "several GB, take the CPU-only command from PyTorch's install page"
    )


def test_import_autoviz_and_the_bridge_package_do_not_import_torch():
    code = "import sys, autoviz, autoviz.bridge; autoviz.trace_torch; print('torch' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"


def test_drawing_a_module_says_to_draw_its_output():
    with pytest.raises(TypeError, match=r"draw what it returns: autoviz.draw\(net\(x\)\)"):
        autoviz.draw(mlp())


def test_readme_picture_is_what_draw_gives_for_torchs_graph(pure_engine):
    """assets/bridge-lesson.svg is autoviz.draw of the lesson in torch, with graphviz-pure."""
    from pathlib import Path

    assets = Path(__file__).parent.parent / "assets"
    svg = draw_lesson(torch).svg()
    assert svg == (assets / "bridge-lesson.svg").read_text()
    assert svg == (assets / "lesson-example.svg").read_text()  # the engine's own picture
    assert "MulBackward0" in (assets / "torchviz-lesson.svg").read_text()


def test_autograd_grad_flows_without_accumulating():
    x = torch.tensor(2.0, requires_grad=True)
    with autoviz.trace_torch() as tl:
        y = x * x
        (dx,) = torch.autograd.grad(y, [x])
    kinds = [s.kind for s in tl.steps]
    assert kinds == ["leaf", "op", "seed", "backward", "free"]  # .grad is not touched
    assert [f.contribution for f in tl.steps[3].flows] == [2.0, 2.0]
    assert dx.item() == 4.0 and x.grad is None and by_name(tl[-1])["x"].grad is None


MLP_SCRIPT = """
import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
x = torch.randn(2, 3)
out = net(x)
out.sum().backward()
"""


def test_a_script_run_with_torch_names_modules_from_its_own_variables(tmp_path):
    """The CLI's --torch runs a script inside trace_torch: its globals name modules too."""
    from autoviz.runscript import run_script

    script = tmp_path / "mlp.py"
    script.write_text(MLP_SCRIPT)
    tl = run_script(script, engine="torch").timeline
    final = by_name(tl[-1])
    assert final["net.0.weight"].module == [["net", "Sequential"], ["net.0", "Linear"]]
    assert final["out"].module[-1] == ["net.2", "Linear"] and final["x"].kind == "constant"
    assert next(s for s in tl.steps if s.kind == "op").source.text == "out = net(x)"


class Faulty(torch.optim.SGD):
    """An optimizer whose step fails halfway (its post-hook never runs)."""

    @torch.no_grad()
    def step(self, closure=None):
        self.param_groups[0]["params"][0].add_(1.0)
        raise RuntimeError("step failed")


def test_ops_after_an_optimizer_step_that_raised_are_recorded_again():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = Faulty([w], lr=0.1)
    with autoviz.trace_torch() as tl:
        (w * w).sum().backward()
        with pytest.raises(RuntimeError, match="step failed"):
            opt.step()
        y = w * 3  # noqa: F841 (its name is what is checked)
    assert "y" in by_name(tl[-1])
    assert tl.steps[-1].phase == "forward" and tl.steps[-1].source.text.startswith("y = w * 3")


def test_trace_torch_restores_the_collectors_settings_after_an_error():
    import contextlib
    import gc

    before = gc.get_threshold()
    with contextlib.suppress(RuntimeError), autoviz.trace_torch():
        inside = gc.get_threshold()
        w = torch.ones(2, requires_grad=True)
        (w * 2).sum().backward()
        (w @ torch.ones(3)).backward()  # a shape mismatch: the block raises
    assert inside[2] > 10**6 and gc.get_threshold() == before


def several_outputs(lib, tracer):
    """A custom Function returning two differentiable tensors, each used apart."""

    class Pair(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * x

        @staticmethod
        def backward(ctx, g1, g2):
            (x,) = ctx.saved_tensors
            return g1 * 2 + g2 * 2 * x

    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with tracer() as tl:
        a, b = Pair.apply(x)
        loss = (a * 3).sum() + b.sum()
        loss.backward()
    return tl


def test_a_function_of_several_outputs_is_one_node_with_an_edge_to_each():
    ours = several_outputs(autoviz, autoviz.trace)
    theirs = several_outputs(torch, autoviz.trace_torch)
    assert steps(theirs) == steps(ours)
    for k in range(len(ours)):
        assert facts(theirs[k]) == facts(ours[k]), f"graph after step {k}"
    final = by_name(ours[-1])
    pair = next(n for n in ours.nodes if n.op == "PairBackward")
    assert sum(n.op == "PairBackward" for n in ours.nodes) == 1
    made = {(e.target, e.index) for e in ours.edges if e.source == pair.id}
    assert made == {(final["a"].id, 0), (final["b"].id, 1)}
    # its ops inside forward and backward are the Function's own: no node of the graph
    assert not [n for n in ours.nodes if n.kind == "constant" and n.name != "3"]
    step = next(s for s in ours.steps if s.kind == "backward" and s.nodes == [pair.id])
    # each output's own gradient, as torch's node hooks see them: 3 for a (3a), 1 for b
    assert step.details["grads"] == [[final["a"].id, [3.0] * 3], [final["b"].id, [1.0] * 3]]
    assert step.flows[0].contribution == [8.0, 10.0, 12.0] and step.flows[0].upstream is None
    assert "gets the gradients of its outputs, a's" in step.caption
    assert steps(type(ours).from_json(ours.to_json())) == steps(ours)


def pieces(lib, tracer):
    x = lib.arange(6.0, requires_grad=True)
    with tracer() as tl:
        a, b, c = x.split(2)
        (a * b + c).sum().backward()
    return tl, x.grad


def test_the_pieces_of_split_are_outputs_of_its_one_node_in_both():
    tl, grad = pieces(torch, autoviz.trace_torch)
    ours, our_grad = pieces(autoviz, autoviz.trace)
    assert steps(ours) == steps(tl) and our_grad.tolist() == grad.tolist()
    for k in range(len(ours)):
        assert facts(ours[k]) == facts(tl[k]), f"graph after step {k}"
    split = [n for n in tl.nodes if n.op == "SplitBackward0"]
    final = by_name(tl[-1])
    assert len(split) == 1
    made = sorted((e.index, e.target) for e in tl.edges if e.source == split[0].id)
    assert made == [(0, final["a"].id), (1, final["b"].id), (2, final["c"].id)]
    assert [final[n].value for n in "abc"] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    step = next(s for s in tl.steps if s.kind == "backward" and s.nodes == [split[0].id])
    got = {node: grad for node, grad in step.details["grads"]}
    assert got == {final["a"].id: [2.0, 3.0], final["b"].id: [0.0, 1.0], final["c"].id: [1.0, 1.0]}
    assert step.flows[0].contribution == grad.tolist()


def test_draw_of_several_outputs_walks_each_output_once():
    def program(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        p, q, r = x.split(1)
        loss = (p * q * r).sum()
        names = dict(x=x, p=p, q=q, r=r, loss=loss)
        return autoviz.tracing.graph_of(loss, names, _view(lib))

    graph = program(torch)
    split = [n for n in graph.nodes if n.op == "SplitBackward0"]
    assert len(split) == 1
    made = sorted(
        (e.index, by_id.name)
        for e in graph.edges
        if e.source == split[0].id
        for by_id in [graph.node(e.target)]
    )
    assert made == [(0, "p"), (1, "q"), (2, "r")]


def test_draw_of_a_function_of_several_outputs_is_torchs_drawing():
    def program(lib):
        class Pair(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * x

            @staticmethod
            def backward(ctx, g1, g2):
                return g1

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, b = Pair.apply(x)
        loss = (a * b).sum()
        graph = autoviz.tracing.graph_of(loss, dict(x=x, a=a, b=b, loss=loss), _view(lib))
        return [(n.kind, n.name, n.op) for n in graph.nodes], facts(graph)[1]

    assert program(torch) == program(autoviz)
    nodes, edges = program(autoviz)
    assert [n for n in nodes if n[2]] == [("op", "PairBackward", "PairBackward")] + [
        ("op", op, op) for op in ("MulBackward0", "SumBackward0")
    ]
    assert ("n2", "n3", 0) in edges and ("n2", "n4", 1) in edges
