"""Real lesson programs traced truthfully in both engines (issue 16 items 1-7): an MLP trained
with SGD and Adam, a loop rebinding a variable, logistic regression with cross_entropy, a
residual block, programs that raise."""

import re

import numpy as np
import pytest

import autoviz
from autoviz.tracing.explain import banner, code_lines, explain

ENGINES = ["autoviz", "torch"]


def engine(name):
    """The library and its tracer: autoviz's engine, or real torch through the bridge."""
    if name == "autoviz":
        return autoviz, autoviz.trace
    return pytest.importorskip("torch"), autoviz.trace_torch


def mlp_training(lib, tracer, optimizer="SGD", iterations=3):
    """The issue's program: nn.Sequential trained for a few iterations, fixed numbers."""
    net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh(), lib.nn.Linear(2, 1))
    with lib.no_grad():
        for i, p in enumerate(net.parameters()):
            values = np.linspace(-0.5, 0.5, int(np.prod(p.shape))).reshape(tuple(p.shape))
            p.copy_(lib.tensor(values * (1 + i / 10) + 0.013, dtype=lib.float32))
    X = lib.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 0.5, -0.5], [1.0, 1.0, 1.0]])
    Y = lib.tensor([[1.0], [0.0], [2.0], [0.5]])
    opt = getattr(lib.optim, optimizer)(net.parameters(), lr=0.1)
    with tracer() as tl:
        for _ in range(iterations):
            opt.zero_grad()
            out = net(X)
            loss = ((out - Y) ** 2).mean()
            loss.backward()
            opt.step()
    return tl, net


NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w.])")


def numbers(text: str) -> list:
    return [float(m.group(0)) for m in NUMBER.finditer(text)]


def by_name(graph):
    return {n.name: n for n in graph.nodes}


def phases(tl):
    return [(s.phase, s.kind) for s in tl.steps]


# -- 1. optimizer steps and zero_grad -------------------------------------------------------------
@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_each_parameter_update_is_an_update_step(name, optimizer):
    lib, tracer = engine(name)
    tl, net = mlp_training(lib, tracer, optimizer)
    updates = [s for s in tl.steps if s.kind == "update"]
    assert len(updates) == 3 * 4 and all(s.phase == "update" for s in updates)
    first = updates[0]
    if optimizer == "SGD":
        assert first.caption.startswith("SGD: net.0.weight ← net.0.weight − 0.1 × grad: ")
    else:
        assert first.caption.startswith("Adam: net.0.weight ← net.0.weight − 0.1 × m̂ / (√v̂ + ")
    assert first.source.text == "opt.step()" and banner(first) == "Update — changing the parameters"
    assert banner(first, tl) == "Update — changing the parameters · iteration 1 of 3"
    # zero_grad() is one step for all four parameters, from the second iteration on (the first
    # had no grads to reset).
    zeros = [s for s in tl.steps if s.kind == "zero_grad"]
    assert len(zeros) == 2 and all(len(s.nodes) == 4 and s.phase == "update" for s in zeros)
    assert zeros[0].caption.startswith("zero_grad(): net.0.weight.grad, net.0.bias.grad, ")
    # Iterations 2 and 3 show every parameter's current value, and no stale grad.
    second_forward = next(s for s in tl.steps if s.kind == "op" and s.details["graph"] == 1)
    weight = by_name(tl[second_forward.index])["net.0.weight"]
    after_first = next(s for s in updates if s.nodes == first.nodes)
    assert weight.value == after_first.changes[0][2] and weight.grad is None
    np.testing.assert_allclose(
        by_name(tl[-1])["net.0.weight"].value, net[0].weight.detach().numpy(), rtol=1e-6
    )
    # The code panel lists the optimizer's lines, the loop around them first.
    lines, index = code_lines(tl)
    texts = [line.text.strip() for line in lines]  # as written, indented; compared stripped
    loop = texts.index("for _ in range(iterations):")
    assert texts[loop + 1 : loop + 3] == ["opt.zero_grad()", "out = net(X)"]
    assert lines[loop].role == "context" and texts[-1] == "opt.step()"
    assert lines[index[first.index]].text.strip() == "opt.step()"


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_both_engines_give_the_same_steps_for_a_training_loop(optimizer):
    torch = pytest.importorskip("torch")
    ours, _ = mlp_training(autoviz, autoviz.trace, optimizer)
    theirs, _ = mlp_training(torch, autoviz.trace_torch, optimizer)
    assert phases(theirs) == phases(ours)
    # The same captions, update steps included; their numbers (4 digits) within float32's
    # differences between numpy's and torch's kernels, which grow over the iterations.
    for a, b in zip(theirs.steps, ours.steps, strict=True):
        assert NUMBER.sub("#", a.caption) == NUMBER.sub("#", b.caption)
        np.testing.assert_allclose(numbers(a.caption), numbers(b.caption), rtol=2e-3, atol=1e-6)


@pytest.mark.parametrize("name", ENGINES)
def test_a_manual_update_under_no_grad_is_an_update_step(name):
    lib, tracer = engine(name)
    w = lib.tensor([1.0, -2.0], requires_grad=True)
    with tracer() as tl:
        loss = (w * w).sum()
        loss.backward()
        with lib.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
    update = next(s for s in tl.steps if s.kind == "update")
    assert update.phase == "update" and update.changes[0][1] == "value"
    np.testing.assert_allclose(update.changes[0][2], [0.8, -1.6], rtol=1e-6)
    assert update.caption.startswith("w is changed in place under no_grad (w -= 0.1 * w.grad)")
    assert phases(tl)[-1] == ("update", "zero_grad")


@pytest.mark.parametrize("name", ENGINES)
def test_an_update_through_data_is_an_update_step(name):
    """`w.data -= lr * w.grad`, as older tutorials write it: `w.data` is a tensor of its own
    sharing w's data; changing it changes w."""
    lib, tracer = engine(name)
    w = lib.tensor([1.0, -2.0], requires_grad=True)
    with tracer() as tl:
        (w * w).sum().backward()
        w.data -= 0.1 * w.grad
    update = tl.steps[-1]
    assert (update.phase, update.kind) == ("update", "update")
    assert update.nodes == [by_name(tl[-1])["w"].id]
    np.testing.assert_allclose(by_name(tl[-1])["w"].value, [0.8, -1.6], rtol=1e-6)


# -- 2. every input drawn -------------------------------------------------------------------------
def test_draw_shows_plain_inputs_numbers_and_labels():
    w = autoviz.tensor([1.0, 2.0], requires_grad=True)
    x = autoviz.tensor([3.0, 4.0])
    y = w * x
    graph = autoviz.tracing.graph_of(y + 1, {"w": w, "x": x, "y": y})
    constants = {n.name: n for n in graph.nodes if n.kind == "constant"}
    assert set(constants) == {"x", "1"}
    nodes = {n.id: n for n in graph.nodes}
    into_add = sorted(
        (e.index, nodes[e.source].name) for e in graph.edges if nodes[e.target].op == "AddBackward0"
    )
    assert into_add == [(0, "y"), (1, "1")]


@pytest.mark.parametrize("name", ENGINES)
def test_cross_entropy_labels_are_drawn_into_the_loss(name):
    lib, tracer = engine(name)
    F = lib.nn.functional
    X = lib.tensor([[1.0, 2.0], [0.5, -1.0], [0.0, 1.0], [2.0, 0.0]])
    labels = lib.tensor([0, 1, 1, 0])
    w = lib.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
    b = lib.zeros(2, requires_grad=True)
    with tracer() as tl:
        logits = X @ w + b
        loss = F.cross_entropy(logits, labels)
        drawn_before = autoviz.draw(loss).graph  # draw() too (torch frees what it saved)
        loss.backward()
    assert {"labels", "X"} <= {n.name for n in drawn_before.nodes if n.kind == "constant"}
    nll = next(s for s in tl.steps if s.kind == "op" and "NllLoss" in s.caption)
    assert nll.caption.startswith("loss = nll_loss(t2, labels) = ")
    drawn = by_name(tl[-1])
    assert drawn["labels"].kind == "constant" and drawn["labels"].value == [0, 1, 1, 0]
    assert drawn["X"].kind == "constant"


@pytest.mark.parametrize("name", ENGINES)
def test_a_detached_tensor_is_dashed_and_linked_to_its_source(name):
    lib, tracer = engine(name)
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    x = lib.tensor([3.0, 4.0])
    with tracer() as tl:
        h = w * x
        target = h.detach() + 1
        loss = ((h - target) ** 2).sum()
    nodes = {n.id: n for n in tl.nodes}
    links = [(nodes[e.source].name, nodes[e.target].name, e.kind) for e in tl.edges]
    assert ("h", "h.detach()", "detach") in links
    assert ("h.detach()", "target", "untracked") in links
    steps = {s.kind: s for s in tl.steps}
    assert steps["detach"].caption.startswith("h.detach() shares h's data")
    # Outside no_grad: a constant computed from constants, not "computed under no_grad".
    assert "no_grad" not in steps["constant"].caption
    assert by_name(tl[-1])["target"].made_in_no_grad is False
    assert by_name(tl[-1])["h.detach()"].detached is True
    source = tl.draw().source
    assert re.search(r'class="detach" style=dashed', source)
    graph = autoviz.draw(h * h.detach()).graph  # draw(): linked by the data they share
    detached = next(n for n in graph.nodes if n.detached)
    assert any(e.kind == "detach" and e.target == detached.id for e in graph.edges)
    del loss


# -- 3. names -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ENGINES)
def test_a_loop_rebinding_a_variable_gives_distinct_labels(name):
    lib, tracer = engine(name)
    x = lib.tensor(0.5, requires_grad=True)
    with tracer() as tl:
        y = x
        for _ in range(3):
            y = lib.tanh(y * x)
        y.backward()
    labels = [n.name for n in tl.nodes if n.kind != "op"]
    assert labels == ["x", "t1", "y", "t2", "y₁", "t3", "y₂"]
    for k in range(len(tl)):
        for a, b in re.findall(r"∂(\S+?)/∂(\S+?)\b", explain(tl, k)):
            assert a != b or tl.steps[k].kind == "seed", explain(tl, k)


@pytest.mark.parametrize("name", ENGINES)
def test_a_parameter_is_named_by_its_module_path_not_a_leftover_variable(name):
    lib, tracer = engine(name)
    tl, net = mlp_training(lib, tracer, iterations=1)
    for _, p in net.named_parameters():  # noqa: B007 (leaves `p` behind, as a cell would)
        pass
    names = {n.name for n in tl.nodes}
    assert {"net.0.weight", "net.0.bias", "net.2.weight", "net.2.bias"} <= names
    again = autoviz.draw(net(lib.ones(1, 3)).sum()).graph
    assert "p" not in {n.name for n in again.nodes}
    assert "net.2.bias" in {n.name for n in again.nodes}


@pytest.mark.parametrize("name", ENGINES)
def test_tensors_made_inside_modules_are_named_after_them_in_each_iteration(name):
    lib, tracer = engine(name)
    tl, _ = mlp_training(lib, tracer)
    for graph in range(3):
        labels = [n.name for n in tl.nodes if n.graph == graph and n.kind not in ("op", "constant")]
        assert labels[:3] == ["net.0.weightᵀ", "net.0.out", "net.1.out"]
        assert [x for x in labels if x.startswith("t")] == ["t1", "t2"]  # afresh each time


# -- 4. chain-rule text ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ENGINES)
def test_chain_rule_text_names_the_local_rule_upstream_and_reduction(name):
    lib, tracer = engine(name)
    X = lib.tensor([[1.0, 2.0], [0.5, -1.0], [0.0, 1.0], [2.0, 0.0]])
    W = lib.tensor([[0.1, -0.2], [0.3, 0.4]], requires_grad=True)
    bias = lib.tensor([0.5, -1.0], requires_grad=True)
    with tracer() as tl:
        H = X @ W + bias
        loss = H.mean()
        loss.backward()
    text = {s.kind + (s.caption.split()[0] if s.kind == "backward" else ""): explain(tl, s.index)
            for s in tl.steps}  # fmt: skip
    mean = text["backwardMeanBackward0"]
    assert "∂loss/∂H = upstream / 8 copied to each of H's 8 elements" in mean
    mm = text["backwardMmBackward0"]
    assert "MmBackward0: upstream ∂loss/∂t1 = (4, 2) all 0.125" in mm  # every element 1/8
    assert "∂loss/∂W = Xᵀ @ upstream = shape (2, 2)" in mm and "→ W.grad" in mm
    add = text["backwardAddBackward0"]
    assert "∂loss/∂bias before the sum = upstream = (4, 2) all 0.125" in add
    reduce_step = next(s for s in tl.steps if s.kind == "reduce")
    assert tl.steps[reduce_step.index - 1].caption.startswith("AddBackward0")
    assert explain(tl, reduce_step.index) == (
        "bias was broadcast: its gradient (4, 2) summed over dim 0 → (2,): "
        "shape (2,) [0.5, 0.5] → bias.grad"
    )


@pytest.mark.parametrize("name", ENGINES)
def test_a_residual_block_shows_each_contribution_and_their_sum(name):
    lib, tracer = engine(name)
    lin = lib.nn.Linear(2, 2)
    with lib.no_grad():
        lin.weight.copy_(lib.tensor([[0.5, -1.0], [1.0, 0.5]]))
        lin.bias.copy_(lib.tensor([0.1, 0.2]))
    u = lib.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]], requires_grad=True)
    with tracer() as tl:
        out = (lin(u) + u).sum()
        out.backward()
    fan = next(k for k, s in enumerate(tl.steps) if any(f.total is not None for f in s.flows))
    text = explain(tl, fan)
    assert "(u fans out: ones (3, 2) + shape (3, 2) [1.5, -0.5, 1.5, …] min -0.5," in text
    np.testing.assert_allclose(by_name(tl[-1])["u"].grad, u.grad.numpy())
    assert autoviz.draw(out).source.count("<b>u</b>") == 1  # issue 15.1, both engines


# -- 5. captions that are right -------------------------------------------------------------------
@pytest.mark.parametrize("name", ENGINES)
def test_captions_say_what_the_engine_did(name):
    lib, tracer = engine(name)
    tl, _ = mlp_training(lib, tracer, iterations=1)
    ops = [s.caption for s in tl.steps if s.kind == "op"]
    assert ops[1].startswith("net.0.out = X @ net.0.weightᵀ + net.0.bias = shape (4, 2)")
    assert "in net.0 (Linear)" in ops[1]
    assert any(c.startswith("t2 = t1 ** 2 = ") for c in ops)  # the exponent is shown
    leaf = next(s for s in tl.steps if s.kind == "leaf")
    assert leaf.caption.startswith("net.0.weight is a leaf: a parameter of net.0 (Linear)")


# -- 7. when the program raises -------------------------------------------------------------------
def shape_mismatch(lib):
    w = lib.ones(3, 2, requires_grad=True)
    h = lib.ones(4, 3) @ w
    return h @ w


def backward_twice(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    loss.backward()
    loss.backward()


def in_place_on_a_leaf(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    w -= 0.1 * w.grad


def wrong_layer(lib):
    net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh())
    return net(lib.ones(4, 2))


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize(
    ("program", "failed", "message"),
    [
        (shape_mismatch, "h @ w raised RuntimeError", "mat1 and mat2 shapes cannot be multiplied"),
        (backward_twice, "MulBackward0 could not run its backward", "backward through the graph"),
        (in_place_on_a_leaf, "w -= t1 raised RuntimeError", "a leaf Variable that requires grad"),
        (wrong_layer, "linear(", "(4x2 and 3x2)"),
    ],
)
def test_a_program_that_raises_ends_with_an_error_step(name, program, failed, message):
    lib, tracer = engine(name)
    with pytest.raises(RuntimeError, match=re.escape(message)), tracer() as tl:
        program(lib)
    step = tl.steps[-1]
    assert (step.phase, step.kind) == ("error", "error")
    assert step.caption.startswith(failed) and message in step.details["message"]
    assert step.source.text.startswith(("return h @ w", "loss.backward()", "w -=", "return net"))
    op = by_name(tl[-1])[tl.nodes[int(step.nodes[0][1:]) - 1].name]
    assert op.kind == "op" and op.error
    svg = tl.draw().svg()
    assert re.search(rf'<g id="{op.id}" class="node op [^"]*error', svg)
    assert banner(step) == "Error — the program raised"
    if program is wrong_layer:  # inside the modules that were running (no variable names them)
        assert [kind for _, kind in op.module] == ["Sequential", "Linear"]


def test_an_error_in_the_users_own_code_is_a_step_without_an_op():
    x = autoviz.tensor(1.0, requires_grad=True)
    with pytest.raises(ZeroDivisionError), autoviz.trace() as tl:
        y = x * 2
        y / 0 if False else 1 / 0
    assert tl.steps[-1].caption.startswith("The program raised ZeroDivisionError at line ")
    assert tl.steps[-1].nodes == []


def test_timelines_with_every_new_field_survive_json():
    tl, _ = mlp_training(autoviz, autoviz.trace, iterations=2)
    with pytest.raises(RuntimeError), autoviz.trace() as bad:
        shape_mismatch(autoviz)
    for timeline in (tl, bad):
        again = autoviz.Timeline.from_json(timeline.to_json())
        assert again.to_json() == timeline.to_json()
        assert [s.phase for s in again.steps] == [s.phase for s in timeline.steps]
    assert any(n.error for n in autoviz.Timeline.from_json(bad.to_json()).nodes)
