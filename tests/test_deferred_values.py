"""Deferred previews tell the value at the step: a large tensor's Summary is computed when a view
reads it, from the tensor kept while it cannot have changed, else from a copy taken before the
program changed it (in place, through `.data`, a view, numpy, an optimizer), in or after the
traced block, in both engines."""

import numpy as np
import pytest

import autoviz
from autoviz.tracing.preview import Summary

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

N = 100  # past PREVIEW_LIMIT: summarised, so deferred


def _stats(arr) -> tuple:
    arr = np.asarray(arr, dtype=np.float64).reshape(-1)
    return float(arr.min()), float(arr.max()), float(arr.sum() / arr.size)


def _check(tl, expected: dict) -> None:
    """Each named node's Summary is the value the program had when the node was made."""
    by_name = {n.name: n for n in tl.nodes}
    for name, value in expected.items():
        summary = by_name[name].value
        assert type(summary) is Summary, name
        low, high, mean = _stats(value)
        assert summary.min == pytest.approx(low), name
        assert summary.max == pytest.approx(high), name
        assert summary.mean == pytest.approx(mean), name


CHANGES = {
    "in place": lambda t: t.mul_(0) if not t.requires_grad else t.detach().mul_(0),
    "data": lambda t: t.data.zero_(),
    "view": lambda t: t.detach()[: N // 2].fill_(7.0),
    "setitem": lambda t: t.data.__setitem__(slice(0, 10), 3.0),
}


@pytest.mark.parametrize("lib", ["torch", "autoviz"])
@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("when", ["inside", "after"])
def test_a_result_changed_later_shows_its_value_at_the_step(lib, change, when):
    mod = torch if lib == "torch" else autoviz
    x = mod.linspace(-1.0, 1.0, N, requires_grad=True)
    with autoviz.trace() if lib == "autoviz" else autoviz.trace_torch() as tl:
        h = x * 3.0
        g = h + 1.0
        before = {"h": np.array(h.tolist()), "g": np.array(g.tolist())}
        if when == "inside":
            with mod.no_grad():
                CHANGES[change](h)
                CHANGES[change](g)
    if when == "after":
        with mod.no_grad():
            CHANGES[change](h)
            CHANGES[change](g)
    assert not np.allclose(np.array(h.tolist()), before["h"])  # the program did change it
    _check(tl, before)


@pytest.mark.parametrize("lib", ["torch", "autoviz"])
def test_numpy_writes_to_a_result_after_the_step(lib):
    mod = torch if lib == "torch" else autoviz
    x = mod.linspace(-1.0, 1.0, N, requires_grad=True)
    with autoviz.trace() if lib == "autoviz" else autoviz.trace_torch() as tl:
        h = x * 2.0
        before = np.array(h.tolist())
        view = h.detach().numpy()  # the memory handed to numpy, to write into
        view[:] = 5.0
    _check(tl, {"h": before})


@pytest.mark.parametrize("lib", ["torch", "autoviz"])
def test_parameters_updated_by_an_optimizer_show_each_steps_value(lib):
    mod = torch if lib == "torch" else autoviz
    mod.manual_seed(0)
    w = mod.randn(N, requires_grad=True)
    opt = mod.optim.SGD([w], lr=0.5)
    seen = []
    with autoviz.trace() if lib == "autoviz" else autoviz.trace_torch() as tl:
        for _ in range(3):
            loss = (w * w).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen.append(np.array(w.tolist()))
    updates = [s for s in tl.steps if s.kind == "update"]
    assert len(updates) == 3
    values = [change[2] for s in updates for change in s.changes if change[1] == "value"]
    for summary, value in zip(values, seen, strict=True):
        assert (summary.min, summary.max) == pytest.approx(_stats(value)[:2])


def test_results_no_code_can_change_are_kept_not_copied():
    """A chain's intermediates (no variable holds them, no view shares them) are summarised
    from the tensors themselves; the ones the program holds are copied when the block ends."""
    from autoviz.bridge import values

    made = []
    original = values.Watch.capture

    def capture(self, t, held=False):
        found = original(self, t, held)
        if all(found is not other for other in made):
            made.append(found)
        return found

    x = torch.linspace(-1.0, 1.0, N, requires_grad=True)
    values.Watch.capture = capture
    try:
        with autoviz.trace_torch() as tl:
            h = x
            for _ in range(5):
                h = h + 1.0
            h.sum().backward()
    finally:
        values.Watch.capture = original
    assert len(made) == 5
    kept = [c for c in made if c.tensor is not None]
    copied = [c for c in made if c.array is not None]
    assert made[-1] in copied and len(kept) >= 3  # the program's `h` copied, the chain's kept
    held = h.detach().numpy().copy()
    h.data.zero_()  # after the block: the copy was taken when it ended
    last = [n for n in tl.nodes if n.op is None and n.shape == (N,)][-1]  # the last result
    assert last.value.max == pytest.approx(float(held.max()))


def test_engine_results_no_code_can_change_are_kept_not_copied():
    from autoviz.tracing import recorder

    made = []
    original = recorder.Recorder._keep

    def keep(self, t, data):
        made.append(self._kept)
        return original(self, t, data)

    x = autoviz.linspace(-1.0, 1.0, N, requires_grad=True)
    recorder.Recorder._keep = keep
    try:
        with autoviz.trace() as tl:
            h = x
            for _ in range(5):
                h = h + 1.0
            kept = [found for group in made[-1].values() for found in group]
            h.sum().backward()
    finally:
        recorder.Recorder._keep = original
    assert len(kept) == 5
    # The program's `h` is copied; the chain's results are kept as they are (but one a frame's
    # locals snapshot may still hold, when naming read it: then copied too, never wrong).
    assert kept[-1].saved is not None and kept[-1].saved is not h._data
    assert sum(found.array is not None for found in kept) >= 3
    held = np.array(h.tolist())
    h.data.zero_()
    last = [n for n in tl.nodes if n.op is None and n.shape == (N,)][-1]
    assert last.value.max == pytest.approx(float(held.max()))


def test_an_aten_in_place_call_is_seen_before_it_writes():
    x = torch.linspace(-1.0, 1.0, N, requires_grad=True)
    with autoviz.trace_torch() as tl:
        h = x * 3.0
        before = np.array(h.tolist())
        with torch.no_grad():
            torch.ops.aten.mul_.Scalar(h, 0.0)
    _check(tl, {"h": before})


def test_a_lost_value_says_not_recorded_never_a_made_up_statistic():
    from autoviz.tracing.text import value_text

    lost = Summary.later(lambda: None, (N,), "float32")
    assert value_text(lost, (N,)) == f"shape ({N},), not recorded"
    assert lost.min is None and lost.grid == []
