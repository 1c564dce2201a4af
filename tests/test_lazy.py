"""A timeline's steps are built when a view needs them: len(tl) counts them from the recorded
log (tracing/count.py) without building, and counts exactly what the build makes."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz

# One line of a random program each: over a few leaves, a running value h, and a training loop's
# moves (backward, retain_grad, detach, no_grad, in-place updates, zero_grad, rebinding).
MOVES = [
    "h = h * w",
    "h = h + b",
    "h = (h * 0.5).tanh()",
    "h = h.sum() * w if h.dim() else h * v",
    "h = h + v",  # a broadcast input: its gradient is summed back (a reduce step)
    "h = h.relu() - 1.0",
    "h.retain_grad() if h.requires_grad and h.grad_fn is not None else None",
    "c = h.detach() + 1",
    "with lib.no_grad():\n    c = h * 2",
    "h.sum().backward() if h.requires_grad else None\nh = w * 1.0",
    "h.sum().backward(retain_graph=True) if h.requires_grad else None",
    "with lib.no_grad():\n    w -= 0.1 * (w.grad if w.grad is not None else w)",
    "w.grad = None",
    "w.grad.zero_() if w.grad is not None else None",
    "y = h * 3.0\ny.mul_(2.0) if not y.is_leaf else None",
]


def program(moves: list) -> str:
    lines = [
        "w = lib.tensor(0.5, requires_grad=True)",
        "b = lib.tensor(-1.0, requires_grad=True)",
        "v = lib.ones(3, requires_grad=True)",
        "h = w * 2.0",
    ]
    return "\n".join(lines + [MOVES[i] for i in moves])


def traced(source: str, lib, tracer):
    """The timeline of `source`, also when it raised (torch refuses some programs: its error
    step is then the last)."""
    namespace = {"lib": lib}
    tl = None
    try:
        with tracer() as tl:
            exec(compile(source, "<program>", "exec"), namespace)
    except RuntimeError:
        assert tl is not None
    return tl


def engines():
    out = [(autoviz, autoviz.trace)]
    try:
        import torch
    except ImportError:
        return out
    return [*out, (torch, autoviz.trace_torch)]


@given(moves=st.lists(st.integers(0, len(MOVES) - 1), max_size=25))
@settings(max_examples=60, deadline=None)
def test_len_counts_the_steps_the_build_makes_without_building(moves):
    source = program(moves)
    for lib, tracer in engines():
        tl = traced(source, lib, tracer)
        counted = len(tl)
        assert tl._pending is not None, "len() built the timeline"
        assert counted == len(tl.steps), source  # the build checks it too (AUTOVIZ_CHECK_COUNT)
        assert tl._pending is None


def test_the_json_of_a_timeline_counted_first_is_the_same_bytes():
    source = program([0, 1, 4, 6, 9, 11, 0, 2, 9])
    for lib, tracer in engines():
        counted = traced(source, lib, tracer)
        assert len(counted) > 10
        built = traced(source, lib, tracer)
        assert counted.to_json() == built.to_json()


def test_a_count_that_went_wrong_is_an_error_in_tests_and_a_warning_otherwise(monkeypatch):
    from autoviz.tracing import count

    tl = traced(program([0, 9]), autoviz, autoviz.trace)
    len(tl)
    tl._pending.counted += 1  # as a counter that drifted from the builder would
    with pytest.raises(AssertionError, match=r"counted \d+ steps in this timeline but built \d+"):
        assert tl.steps
    monkeypatch.delenv(count.CHECK)
    tl = traced(program([0, 9]), autoviz, autoviz.trace)
    len(tl)
    tl._pending.counted += 1
    with pytest.warns(RuntimeWarning, match="please report it"):
        assert tl.steps
