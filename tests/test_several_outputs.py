"""Nodes with several outputs (split's pieces, unbind's slices, a custom Function's pair): what
the timeline shows of their backward is each output's own gradient, in the engine and torch."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def program(lib, tracer, shape, dim, size, used, weights):
    """x split along `dim` into pieces of `size`; the pieces in `used` weighted and summed."""
    x = lib.arange(float(np.prod(shape))).reshape(shape).requires_grad_()
    with tracer() as tl:
        pieces = x.split(size, dim)
        kept = [p for i, p in enumerate(pieces) if i in used] or [pieces[0]]
        for p in kept:
            p.retain_grad()
        loss = sum((p * w).sum() for p, w in zip(kept, weights, strict=False))
        loss.backward()
    return tl, x, kept


@settings(max_examples=25, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    data=st.data(),
)
def test_a_split_backward_step_shows_each_pieces_own_gradient(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1))
    size = data.draw(st.integers(1, shape[dim]))
    count = -(-shape[dim] // size)
    used = set(data.draw(st.lists(st.integers(0, count - 1), max_size=count)))
    weights = data.draw(st.lists(st.sampled_from([1.0, -2.0, 0.5, 3.0]), min_size=count))
    ours, x, kept = program(autoviz, autoviz.trace, shape, dim, size, used, weights)
    theirs, tx, tkept = program(torch, autoviz.trace_torch, shape, dim, size, used, weights)
    assert [(s.kind, s.caption) for s in ours.steps] == [(s.kind, s.caption) for s in theirs.steps]
    assert np.array_equal(x.grad.numpy(), tx.grad.numpy())
    for tl, pieces in ((ours, kept), (theirs, tkept)):
        (split,) = [n for n in tl.nodes if n.op == "SplitBackward0"]
        step = next(s for s in tl.steps if s.kind == "backward" and s.nodes == [split.id])
        names = {n.id: n for n in tl.nodes}
        if count == 1:  # one piece: an ordinary node, its upstream the piece's gradient
            (out,) = [e.target for e in tl.edges if e.source == split.id]
            shown = {out: step.details["grad"]}
        else:
            shown = {node: grad for node, grad in step.details["grads"]}
        # every piece that got a gradient shows that piece's own .grad (retained), no other
        assert len(shown) == len(pieces)
        for p in pieces:
            node = next(
                i
                for i in shown
                if np.shape(names[i].value) == tuple(p.shape)
                and np.array_equal(names[i].value, p.detach().numpy())
            )
            assert np.array_equal(np.asarray(shown[node]), p.grad.numpy())
        assert np.array_equal(np.asarray(step.flows[0].contribution), x.grad.numpy())


def test_backward_from_a_later_output_starts_at_that_output():
    x = autoviz.arange(4.0, requires_grad=True)
    with autoviz.trace() as tl:
        _, b = x.split(2)
        b.backward(autoviz.ones(2))
    (seed,) = [s for s in tl.steps if s.kind == "seed"]
    assert tl.nodes[int(seed.nodes[0][1:]) - 1].name == "b"
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_the_quiz_asks_how_often_a_node_of_several_outputs_runs():
    """Predict before seeing: one call with all the outputs' gradients, not one per output
    (the answer is the program's own: its backward counts its calls)."""
    calls = []

    class Pair(autoviz.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            calls.append((g1, g2))
            return g1 * 2 + g2 * 3

    x = autoviz.ones(2, requires_grad=True)
    with autoviz.trace() as tl:
        a, b = Pair.apply(x)
        (a.sum() + b.sum()).backward()
    from autoviz.tracing.quiz import candidates

    step = next(s for s in tl.steps if s.kind == "backward" and s.details.get("grads"))
    (q,) = [q for q in candidates(tl, step.index) if q.kind == "outputs"]
    assert q.answer == len(calls) == 1
    assert "a and b are outputs of one PairBackward node" in q.prompt
    (wrong, name, hint) = q.mistakes[0]
    assert (wrong, name) == (2, "runs-per-output") and "once per backward pass" in hint
