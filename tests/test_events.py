"""The engine tells observers what happens, in order, with the values a trace needs."""

import numpy as np
import pytest

import autoviz
from autoviz.engine import events


class Recorder:
    """Keeps every event as a (name, details) pair."""

    def __init__(self):
        self.log = []

    def on_leaf(self, tensor):
        self.log.append(("leaf", tensor.name))

    def on_op(self, node, out, inputs):
        self.log.append(("op", node.name(), len(inputs)))

    def on_node(self, node, grad, grads):
        self.log.append(("node", node.name(), float(grad), [float(g) for g in grads]))

    def on_accumulate(self, tensor, grad):
        self.log.append(("accumulate", tensor.name, float(grad)))

    def on_backward_end(self, retain_graph):
        self.log.append(("end", retain_graph))


@pytest.fixture
def recorder():
    rec = Recorder()
    events.add_observer(rec)
    yield rec
    events.remove_observer(rec)


def test_lesson_example_event_sequence(recorder):
    x = autoviz.tensor(2.0, requires_grad=True, name="x")
    w = autoviz.tensor(3.0, requires_grad=True, name="w")
    b = autoviz.tensor(1.0, requires_grad=True, name="b")
    z = w * x + b
    z.backward()
    assert recorder.log == [
        ("leaf", "x"),
        ("leaf", "w"),
        ("leaf", "b"),
        ("op", "MulBackward0", 2),
        ("op", "AddBackward0", 2),
        ("node", "AddBackward0", 1.0, [1.0, 1.0]),
        ("accumulate", "b", 1.0),
        ("node", "torch::autograd::AccumulateGrad", 1.0, []),
        ("node", "MulBackward0", 1.0, [2.0, 3.0]),  # dz/dw = x = 2, dz/dx = w = 3
        ("accumulate", "w", 2.0),
        ("node", "torch::autograd::AccumulateGrad", 2.0, []),
        ("accumulate", "x", 3.0),
        ("node", "torch::autograd::AccumulateGrad", 3.0, []),
        ("end", False),
    ]


def test_op_event_carries_saved_tensors():
    seen = []

    class SavedTensors:
        def on_op(self, node, out, inputs):
            seen.append(node.saved_tensors)

    observer = SavedTensors()
    events.add_observer(observer)
    try:
        a = autoviz.tensor([1.0, 2.0], requires_grad=True)
        (a * 3.0).sum()
    finally:
        events.remove_observer(observer)
    np.testing.assert_array_equal(seen[0][0], [1.0, 2.0])


def test_nothing_is_emitted_for_untracked_work(recorder):
    a = autoviz.tensor(1.0)
    _ = a * 2 + 1
    with autoviz.no_grad():
        _ = autoviz.tensor(1.0, requires_grad=True) * 2
    assert [e[0] for e in recorder.log] == ["leaf"]


def test_remove_observer_stops_events():
    rec = Recorder()
    events.add_observer(rec)
    events.remove_observer(rec)
    autoviz.tensor(1.0, requires_grad=True)
    assert rec.log == []
    events.remove_observer(rec)  # removing twice is harmless


def test_two_observers_both_hear_every_event_in_order():
    first, second = Recorder(), Recorder()
    events.add_observer(first)
    events.add_observer(second)
    try:
        x = autoviz.tensor(2.0, requires_grad=True, name="x")
        (x * 3.0).backward()
    finally:
        events.remove_observer(first)
    y = autoviz.tensor(1.0, requires_grad=True, name="y")
    events.remove_observer(second)
    assert first.log == second.log[:-1] and first.log[0] == ("leaf", "x")
    assert second.log[-1] == ("leaf", "y")  # the one left still hears events
    assert events.on_leaf is events._nobody  # none left: the engine's calls do nothing
    assert y.requires_grad
