"""The bridge shows the .grad torch has, also where two leaves' grads are one memory (issue 26
item 10): torch hands a leaf the gradient buffer backward made without copying it, and after
`torch.stack([a, b]).sum()` both leaves' grads are views of one element, so a second backward
adds into both at once."""

import json

import pytest

import autoviz
from autoviz.tracing import columns

torch = pytest.importorskip("torch", reason='the bridge needs PyTorch: pip install "torch==2.13.0"')
pytestmark = pytest.mark.torch


def leaf_grads(graph) -> dict:
    return {n.name: n.grad for n in graph.nodes if n.kind == "leaf"}


def last_step_of_backward(tl, count: int) -> int:
    """The index of the step that ends the count-th backward (its `free` step)."""
    frees = [s.index for s in tl.steps if s.kind == "free"]
    return frees[count - 1]


def test_grads_that_are_one_memory_show_torchs_values_at_every_step():
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    seen = []
    with autoviz.trace_torch() as tl:
        for _ in range(3):
            y = torch.stack([a, b]).sum()
            y.backward()
            seen.append({"a": a.grad.item(), "b": b.grad.item()})
    assert a.grad.data_ptr() == b.grad.data_ptr()  # the case: torch shares the memory
    assert seen == [{"a": 1.0, "b": 1.0}, {"a": 3.0, "b": 3.0}, {"a": 5.0, "b": 5.0}]
    for count, values in enumerate(seen, 1):
        assert leaf_grads(tl[last_step_of_backward(tl, count)]) == values
    adds = [s for s in tl.steps if s.kind == "accumulate" and s.details.get("shared")]
    assert len(adds) == 4  # each += after the first backward changes the other leaf too
    second_a, second_b = adds[:2]
    assert second_a.changes == [["n1", "grad", 2.0], ["n2", "grad", 2.0]]
    assert "b.grad is the same memory as a.grad" in second_a.caption
    assert "b.grad accumulates: 2.0 + 1.0 = 3.0" in second_b.caption
    text = tl.to_json()
    assert autoviz.Timeline.from_json(text).to_json() == text
    doc = json.loads(text)
    assert columns.read(doc, columns.tables(doc)) is not None  # the fast path takes it


def test_grads_of_their_own_memory_say_nothing_of_each_other():
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    with autoviz.trace_torch() as tl:
        for _ in range(2):
            (a * b + a).backward()
    assert a.grad.data_ptr() != b.grad.data_ptr()
    assert leaf_grads(tl[-1]) == {"a": a.grad.item(), "b": b.grad.item()} == {"a": 6.0, "b": 2.0}
    assert not any(s.details.get("shared") for s in tl.steps)
    assert all(len(s.changes) == 1 for s in tl.steps if s.kind == "accumulate")
