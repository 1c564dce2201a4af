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


def test_numpy_writes_to_a_torch_result_after_the_step():
    x = torch.linspace(-1.0, 1.0, N, requires_grad=True)
    with autoviz.trace_torch() as tl:
        h = x * 2.0
        before = h.detach().clone().numpy()
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

    def capture(self, t):
        found = original(self, t)
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
    assert len(kept) == 4 and len(copied) == 1  # the last one is the program's `h`
    held = h.detach().numpy().copy()
    h.data.zero_()  # after the block: the copy was taken when it ended
    last = [n for n in tl.nodes if n.op is None and n.shape == (N,)][-1]  # the last result
    assert last.value.max == pytest.approx(float(held.max()))
