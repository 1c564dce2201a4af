"""A lazy timeline: `len(tl)` counts and `tl[k]` builds only the graphs up to step k's, each
snapshot the same as the fully built timeline's, and the JSON byte-identical, in both engines."""

import pytest

import autoviz

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _loop(lib: str, iterations: int):
    mod = torch if lib == "torch" else autoviz
    mod.manual_seed(0)
    net = mod.nn.Sequential(mod.nn.Linear(3, 4), mod.nn.Tanh(), mod.nn.Linear(4, 1))
    opt = mod.optim.SGD(net.parameters(), lr=0.1)
    x, y = mod.randn(8, 3), mod.randn(8, 1)
    tracer = autoviz.trace_torch if lib == "torch" else autoviz.trace
    with tracer() as tl:
        for _ in range(iterations):
            loss = ((net(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return tl


def _same(a, b) -> None:
    assert [n.__dict__ for n in a.nodes] == [n.__dict__ for n in b.nodes]
    assert a.edges == b.edges
    assert (a.current, a.backward_ran) == (b.current, b.backward_ran)
    assert a.step.index == b.step.index and a.step.caption == b.step.caption


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_a_step_builds_only_the_graphs_before_it(lib):
    full = _loop(lib, 30)
    total = len(full.steps)
    tl = _loop(lib, 30)
    assert len(tl) == total and tl._pending is not None  # counted, not built
    per_graph = total // 30
    for k in (0, 1, per_graph - 1, per_graph, 3 * per_graph + 2):
        _same(tl[k], full[k])
        assert tl._pending is not None, "a step of an early graph built the whole timeline"
        assert len(tl._pending.part._steps) < total / 2
    for k in (total // 2, total - 1, -1):
        _same(tl[k], full[k])
    assert tl._pending is None  # the last graph's step built it all, once
    assert tl.to_json() == full.to_json()


@pytest.mark.parametrize("lib", ["autoviz", "torch"])
def test_json_is_the_same_whatever_was_read_first(lib):
    eager = _loop(lib, 6).to_json()
    tl = _loop(lib, 6)
    assert tl[3].step.index == 3 and tl[len(tl) // 2].step.index == len(tl) // 2
    assert tl.to_json() == eager
    stepped = _loop(lib, 6)
    graphs = list(stepped)  # walks every step: builds once
    assert len(graphs) == len(stepped) and stepped.to_json() == eager
