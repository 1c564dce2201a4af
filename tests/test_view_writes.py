"""An in-place change through a view of a tensor in the graph (`h.view(-1)[0] = 10`,
`h.t().mul_(2)`) reaches its base, in values and gradients, as in PyTorch; `copy_` and
`h[:] = v` record the nodes torch records; pieces of split, chunk and unbind refuse a write
with torch's message, and so does a 0-dim tensor indexed with a number. Random chains of views
and writes are run beside real torch."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz

torch = pytest.importorskip("torch")

VIEWS = {
    "view(-1)": lambda t: t.view(-1),
    "t()": lambda t: t.t(),
    "transpose(0, -1)": lambda t: t.transpose(0, -1),
    "unsqueeze(0)": lambda t: t.unsqueeze(0),
    "flatten()": lambda t: t.flatten(),
    "narrow(0, 0, 1)": lambda t: t.narrow(0, 0, 1),
    "diagonal()": lambda t: t.diagonal(),
    "[0]": lambda t: t[0],
    "[..., 1:]": lambda t: t[..., 1:],
    "reshape(-1)": lambda t: t.reshape(-1),
    "squeeze()": lambda t: t.squeeze(),
}
WRITES = {
    "mul_(2)": lambda v: v.mul_(2),
    "add_(1)": lambda v: v.add_(1),
    "relu_()": lambda v: v.relu_(),
    "zero_()": lambda v: v.zero_(),
    "fill_(3)": lambda v: v.fill_(3),
    "[0] = 5": lambda v: v.__setitem__(0, 5.0),
    "clamp_(max=2)": lambda v: v.clamp_(max=2),
    "neg_()": lambda v: v.neg_(),
    "copy_(2s)": lambda v: v.copy_(v.detach() * 0 + 2),
    "[...] = 7": lambda v: v.__setitem__(Ellipsis, 7.0),
    "[:] = 4": lambda v: v.__setitem__(slice(None), 4.0),
}


def program(lib, shape, views, write):
    """What a learner sees: the tensor after the write, and the gradients at its leaf."""
    base = lib.arange(1.0, 1.0 + shape[0] * shape[1]).reshape(shape).requires_grad_()
    h = base * 1.5 - 4
    v = h
    try:
        for name in views:
            v = VIEWS[name](v)
        WRITES[write](v)
    except (RuntimeError, IndexError) as error:
        return type(error).__name__, str(error)
    weights = lib.arange(h.numel(), dtype=lib.float32).reshape(h.shape) - 2
    (h * weights).sum().backward()
    return h.tolist(), v.tolist(), base.grad.tolist()


@settings(max_examples=60, deadline=None)
@given(
    shape=st.sampled_from([(2, 3), (3, 3), (1, 4)]),
    views=st.lists(st.sampled_from(sorted(VIEWS)), min_size=1, max_size=2),
    write=st.sampled_from(sorted(WRITES)),
)
def test_a_write_through_views_reaches_the_base_as_in_torch(shape, views, write):
    want = program(torch, shape, views, write)
    got = program(autoviz, shape, views, write)
    assert got == want


def test_the_lesson_case_prints_torchs_values_and_gradients():
    for lib in (torch, autoviz):
        base = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        h = base * 1.0
        h.view(-1)[0] = 10.0
        h.t().mul_(2)
        assert h.tolist() == [[20.0, 4.0], [6.0, 8.0]]
        assert type(h.grad_fn).__name__ == "CopySlices"
        h.sum().backward()
        assert base.grad.tolist() == [[0.0, 2.0], [2.0, 2.0]]


@pytest.mark.parametrize(
    "pieces, message",
    [
        (lambda w: w.split(2), "Output 1 of Split is a view"),
        (lambda w: w.split([1, 3]), "Output 1 of SplitWithSizes is a view"),
        (lambda w: w.chunk(2), "Output 1 of Split is a view"),
        (lambda w: w.unbind(), "Output 1 of Unbind is a view"),
    ],
)
def test_pieces_of_split_chunk_and_unbind_refuse_a_write_as_torch(pieces, message):
    for lib in (torch, autoviz):
        w = lib.ones(4, 2, requires_grad=True) * 1
        with pytest.raises(RuntimeError, match=message):
            pieces(w)[1].mul_(2)


def copies(lib):
    x = lib.ones(2, requires_grad=True)
    s = lib.full((2,), 3.0, requires_grad=True)
    y = x * 2
    y.copy_(s * 2)  # nothing flows back to x: its values were replaced
    z = x * 1
    z[:] = 3
    w = (x * 1).sum()
    w[...] = 5
    (y.sum() + z.sum() + w).backward()
    names = [type(t.grad_fn).__name__ for t in (y, z, w)]
    return names, x.grad.tolist(), s.grad.tolist()


def test_copy_and_whole_writes_record_torchs_nodes_and_gradients():
    assert copies(autoviz) == copies(torch)
    assert copies(autoviz)[1:] == ([0.0, 0.0], [2.0, 2.0])


@pytest.mark.parametrize("key", [0, -1, 3, slice(None), (0,), (None, 0)])
def test_a_0_dim_tensor_refuses_an_index_with_torchs_message(key):
    messages = []
    for lib in (torch, autoviz):
        with pytest.raises(IndexError) as read:
            lib.tensor(3.0)[key]
        with pytest.raises(IndexError) as write:
            lib.tensor(3.0)[key] = 1.0
        messages.append((str(read.value), str(write.value)))
    assert messages[0] == messages[1]


def stale_views(lib, views, writer, write, reader):
    """Views taken of h, then one of them (or h itself) changed in place, then another: what
    h and every view read after, their nodes, and the leaf's gradient through each view."""
    base = lib.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
    h = base * 1.5 - 4
    taken = [VIEWS[name](h) for name in views]
    target = h if writer is None else taken[writer % len(taken)]
    try:
        WRITES[write](target)
        WRITES["mul_(2)"](h if reader is None else taken[reader % len(taken)])
        loss = sum((v * (i + 2)).sum() for i, v in enumerate(taken)) + h.sum()
        loss.backward()
    except (RuntimeError, IndexError) as error:
        return type(error).__name__, str(error)
    names = [type(v.grad_fn).__name__ for v in taken]
    return h.tolist(), [v.tolist() for v in taken], names, base.grad.tolist()


@settings(max_examples=60, deadline=None)
@given(
    views=st.lists(st.sampled_from(sorted(VIEWS)), min_size=1, max_size=3),
    writer=st.none() | st.integers(0, 2),
    write=st.sampled_from(sorted(WRITES)),
    reader=st.none() | st.integers(0, 2),
)
def test_views_taken_before_an_in_place_change_stay_in_step_as_in_torch(
    views, writer, write, reader
):
    """torch's views share their base's memory, and a view whose base changed since gets the
    node AsStridedBackward0: autoviz's read the new values and send the same gradients."""
    want = stale_views(torch, views, writer, write, reader)
    got = stale_views(autoviz, views, writer, write, reader)
    assert got == want


def test_pieces_of_split_read_their_base_after_it_changed_and_refuse_backward():
    for lib in (torch, autoviz):
        w = lib.ones(4, requires_grad=True)
        h = w * 2
        p, _ = h.split(2)
        h.mul_(3)
        assert p.tolist() == [6.0, 6.0]
        with pytest.raises(RuntimeError, match="Output 0 of Split is a view and its base"):
            p.sum().backward()
