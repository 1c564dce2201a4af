"""Every op's caption states its rule and draws every input (issue 25 item 6): an audit over
every op class the engine registers (so an op added without a caption fails here), and
lessons' ops traced on both engines, whose captions name each input and each gradient's rule."""

import inspect

import pytest

import autoviz
import autoviz.distributions  # its special functions register ops when first imported
import autoviz.nn.functional
from autoviz.engine.function import Function
from autoviz.tracing.captions import Context, rule_for
from autoviz.tracing.rules import VARIADIC, has_rule


def registered_ops() -> list:
    """(backward name, number of inputs or None when it takes any number) of each op."""
    found, stack = {}, list(Function.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        # An op's class names its node; a base others derive from (Op itself) is no op.
        named = "_backward_name" in vars(cls) or not cls.__subclasses__()
        if not getattr(cls, "_builtin", False) or not named:
            continue
        params = list(inspect.signature(cls.forward).parameters.values())[1:]  # after ctx
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            count = None
        else:
            needed = [p for p in params if p.default is p.empty]
            count = sum(1 for p in needed if p.kind is p.POSITIONAL_OR_KEYWORD)
        found[cls._backward_cls.__name__] = count
    return sorted(found.items())


def test_every_registered_op_has_an_expression_and_a_rule_for_each_input():
    ops = registered_ops()
    assert len(ops) > 90  # every family: arithmetic, reductions, shapes, selection, losses, nn
    missing = [
        name
        for name, count in ops
        if not (has_rule(name, count) if count is not None else name in VARIADIC)
    ]
    assert missing == [], f"ops without a caption rule (tracing/rules.py): {missing}"


def lesson_ops(torch, F):
    """One line per op family a lesson meets; returns the loss."""
    w = torch.randn(6, 4, requires_grad=True)
    ix = torch.tensor([1, 2, 1, 5])
    rows = F.embedding(ix, w)  # row 1 picked twice
    picked = torch.gather(w, 1, torch.tensor([[0], [1], [2], [3], [0], [1]]))
    glued = torch.cat([rows, rows * 2], dim=0)
    stacked = torch.stack([picked, picked], dim=1)
    first, second = glued.split(4, dim=0)
    shaped = first.reshape(2, 8).permute(1, 0).reshape(16).view(4, 4)
    soft = torch.softmax(second, dim=1)
    logs = torch.log_softmax(second, dim=1)
    counts = soft.exp()
    norm = counts / counts.sum(1, keepdim=True)
    top = norm.max(dim=1).values
    loss = F.cross_entropy(second, torch.tensor([0, 1, 2, 3]))
    loss = (
        loss + F.mse_loss(logs, norm) + shaped.mean() + stacked.sum() + top.sum() + w[2, 1:].sum()
    )
    loss.backward()
    return loss


def traced(lib: str):
    if lib == "torch":
        torch = pytest.importorskip("torch")
        with autoviz.trace_torch() as tl:
            lesson_ops(torch, torch.nn.functional)
    else:
        autoviz.manual_seed(0)
        with autoviz.trace() as tl:
            lesson_ops(autoviz, autoviz.nn.functional)
    return tl


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_captions_draw_every_input_and_state_every_rule(lib):
    tl = traced(lib)
    c = Context(tl)
    ops = 0
    for step in tl.steps:
        if step.kind == "op":
            op = c.nodes[step.nodes[0]]
            inputs = c.input_nodes(op.id)
            for node in inputs:
                assert node.name in step.caption, f"{op.op}: {node.name} not in {step.caption!r}"
            said = step.caption.split(" = ")[1].split(" is computed")[0]
            assert op.op not in said, f"no expression: {step.caption!r}"
            assert "not recorded" not in step.caption, step.caption
            ops += 1
        if step.kind == "backward":
            op = c.nodes[step.nodes[0]]
            for flow in step.flows:
                if flow.shape:
                    index = tl.edges[flow.edge].index
                    rule = rule_for(op, index, c.input_nodes(op.id), c.output_of(op.id))
                    assert rule, f"{op.op} states no rule for input {index}: {step.caption!r}"
                    assert rule in step.caption
    assert ops >= 15
    by_op = {c.nodes[s.nodes[0]].op: s for s in tl.steps if s.kind == "op"}
    embedding = next(s for s in tl.steps if s.kind == "op" and "EmbeddingBackward0" in s.caption)
    index = c.input_nodes(embedding.nodes[0])[1]  # the index tensor is drawn, an input
    assert index.value == [1, 2, 1, 5] and f"= w[{index.name}]" in embedding.caption
    back = next(
        s
        for s in tl.steps
        if s.kind == "backward" and c.nodes[s.nodes[0]].op == "EmbeddingBackward0"
    )
    assert "row 1 was picked 2 times" in back.caption
    keep = next(s for s in tl.steps if s.kind == "op" and "SumBackward1" in s.caption)
    assert "counts.sum(dim=1, keepdim=True)" in keep.caption
    assert ", dim=1) = " in by_op["SoftmaxBackward0"].caption
    assert ", dim=1) = " in by_op["LogSoftmaxBackward0"].caption


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_embeddings_index_tensor_is_named_after_its_variable(lib):
    torch = autoviz if lib == "autoviz" else pytest.importorskip("torch")
    emb = torch.nn.Embedding(19, 10)
    ix = torch.tensor([3, 3, 7])
    with autoviz.trace() if lib == "autoviz" else autoviz.trace_torch() as tl:
        e = emb(ix)
        e.sum().backward()
    made = next(s for s in tl.steps if s.kind == "op")
    assert made.caption.startswith("e = emb.weight[ix] = shape (3, 10)")
    back = next(s for s in tl.steps if s.kind == "backward" and "Embedding" in s.caption)
    assert "at the rows ix picked" in back.caption and "row 3 was picked 2 times" in back.caption


def test_a_card_of_ones_reads_ones_not_a_comma_dump():
    """∂h/∂t of a sum is a tensor of ones: the card and the caption say `ones (16, 8)`."""
    from autoviz.tracing.text import value_text

    ones = [[1.0] * 8 for _ in range(16)]
    assert value_text(ones, (16, 8)) == "ones (16, 8)"
    assert value_text([[0.5] * 3] * 2, (2, 3)) == "(2, 3) all 0.5"
    t = autoviz.randn(16, 8, requires_grad=True)
    with autoviz.trace() as tl:
        h = t.sum()
        h.backward()
    sent = next(s for s in tl.steps if s.kind == "backward")
    assert "ones (16, 8)" in sent.caption and "1.0, 1.0" not in sent.caption


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_a_views_caption_gives_the_shape_it_made(lib):
    """`x.view(-1, 20)`'s caption says view(32, 20), the shape it made, on both engines."""
    torch = autoviz if lib == "autoviz" else pytest.importorskip("torch")
    tracer = autoviz.trace if lib == "autoviz" else autoviz.trace_torch
    x = torch.ones(32, 2, 10, requires_grad=True)
    with tracer() as tl:
        e = x.view(-1, 20)
        f = e.expand(3, 32, 20)
        f.sum().backward()
    captions = [s.caption for s in tl.steps if s.kind == "op"]
    assert any(c.startswith("e = x.view(32, 20) = ones (32, 20)") for c in captions), captions
    assert any(c.startswith("f = e.expand(3, 32, 20) = ") for c in captions), captions


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_var_std_and_norm_over_every_element_read_their_true_arguments(lib):
    """x.std() and x.norm() reduce every dim (torch's _saved_dim None); var's and std's
    correction is the one the call used, not the divisor the engine keeps."""
    if lib == "torch":
        torch = pytest.importorskip("torch")
        tracer = autoviz.trace_torch
    else:
        torch, tracer = autoviz, autoviz.trace
    with tracer() as tl:
        x = torch.tensor([[3.0, 4.0], [0.0, 1.0]], requires_grad=True)
        s = x.std()
        v = x.var(dim=1, correction=0, keepdim=True)
        n = x.norm()
        (s + v.sum() + n).backward()
    text = "\n".join(step.caption for step in tl.steps)
    assert "(N − 1) × s), N every element" in text
    assert "(N − 0) along dim 1" in text
    assert "None" not in text
