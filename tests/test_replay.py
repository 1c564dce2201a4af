"""The kernel's re-run of a recorded graph (tracing/replay.py) on the ops lessons use: reductions,
matmul and addmm, pow, exp and log, tanh, sigmoid and relu, softmax and log_softmax, mse,
cross_entropy and nll; arguments the timeline does not hold (a softmax's dim, a loss's
reduction, a transpose's axes) are the ones that reproduce every recorded value, or refused."""

import math

import numpy as np
import pytest

import autoviz
from autoviz.tracing.replay import ReplayError, nudge

F = autoviz.nn.functional

# name -> the loss of x (3, 4), W (4, 2), b (2,) and labels (3,): each op family lessons use.
LOSSES = {
    "sum": lambda x, W, b, t: x.sum(),
    "sum over a dim": lambda x, W, b, t: (x.sum(0) ** 2).sum(),
    "sum keepdim": lambda x, W, b, t: (x.sum(1, keepdim=True) * x).sum(),
    "mean": lambda x, W, b, t: (x * x).mean(),
    "mean over a dim": lambda x, W, b, t: (x.mean(1) ** 2).sum(),
    "mean keepdim": lambda x, W, b, t: ((x - x.mean(0, keepdim=True)) ** 2).sum(),
    "matmul": lambda x, W, b, t: ((x @ W) ** 2).sum(),
    "addmm": lambda x, W, b, t: F.linear(x, W.T, b).tanh().sum(),
    "pow": lambda x, W, b, t: (x**3).sum(),
    "exp and log": lambda x, W, b, t: (x.exp() + 1).log().sum(),
    "tanh, sigmoid, relu": lambda x, W, b, t: (x.tanh() + x.sigmoid() * x.relu()).sum(),
    "softmax": lambda x, W, b, t: (F.softmax(x @ W + b, dim=1) ** 2).sum(),
    "softmax over dim 0": lambda x, W, b, t: (F.softmax(x, dim=0) ** 2).sum(),
    "log_softmax": lambda x, W, b, t: (F.log_softmax(x @ W, dim=1) * (x @ W)).sum(),
    "mse": lambda x, W, b, t: F.mse_loss(x @ W + b, (x @ W).detach() * 0.5),
    "mse summed": lambda x, W, b, t: F.mse_loss(x @ W, (x @ W).detach() * 0.5, reduction="sum"),
    "cross_entropy": lambda x, W, b, t: F.cross_entropy(x @ W + b, t),
    "nll summed": lambda x, W, b, t: F.nll_loss(F.log_softmax(x @ W, 1), t, reduction="sum"),
}


def traced(name: str):
    """The loss `name` traced with its backward; its leaves by name."""
    autoviz.manual_seed(1)
    x = autoviz.randn(3, 4, requires_grad=True, name="x")
    W = autoviz.randn(4, 2, requires_grad=True, name="W")
    b = autoviz.randn(2, requires_grad=True, name="b")
    t = autoviz.tensor([0, 1, 1])
    with autoviz.trace() as tl:
        loss = LOSSES[name](x, W, b, t)
        loss.backward()
    return tl, {"x": x, "W": W, "b": b}


def leaf_id(tl, name: str) -> str:
    return next(n.id for n in tl.nodes if n.kind == "leaf" and n.name == name)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_a_central_difference_of_the_rerun_is_the_engines_grad(name):
    tl, leaves = traced(name)
    h = 1e-5
    for leaf, tensor in leaves.items():
        if tensor.grad is None or leaf not in {n.name for n in tl.nodes}:
            continue
        element = (1,) * tensor.dim()
        up = nudge(tl, 0, leaf_id(tl, leaf), h, element)
        down = nudge(tl, 0, leaf_id(tl, leaf), -h, element)
        assert up["output"] == "loss"
        slope = (up["change"] - down["change"]) / (2 * h)
        assert math.isclose(slope, float(tensor.grad[element]), rel_tol=1e-3, abs_tol=1e-6), leaf


def test_the_first_run_reproduces_the_recorded_loss():
    for name in LOSSES:
        tl, _ = traced(name)
        loss = next(n for n in reversed(tl.nodes) if n.name == "loss")
        result = nudge(tl, 0, leaf_id(tl, "x"), 0.0, (0, 0))
        assert result["change"] == 0.0 and math.isclose(
            result["before"], loss.value, rel_tol=1e-4
        )  # float32 recorded


def test_arguments_the_timeline_does_not_hold_are_the_ones_that_reproduce_it():
    """softmax over dim 0 and a summed mse re-run as the program ran them: their re-run's
    slope is their gradient (PyTorch's defaults, dim -1 and mean, would give other numbers)."""
    for name, element in (("softmax over dim 0", (2, 1)), ("mse summed", (0, 3))):
        tl, leaves = traced(name)
        up = nudge(tl, 0, leaf_id(tl, "x"), 1e-6, element)["change"] / 1e-6
        assert math.isclose(up, float(leaves["x"].grad[element]), rel_tol=1e-3, abs_tol=1e-6)


def test_a_value_no_argument_reproduces_is_refused():
    tl, _ = traced("softmax")
    softmax = next(n for n in tl.nodes if n.op == "SoftmaxBackward0")
    made = next(e.target for e in tl.edges if e.source == softmax.id)
    probs = next(n for n in tl.nodes if n.id == made)
    probs.value = (np.asarray(probs.value) * 1.5).tolist()  # tampered with
    with pytest.raises(ReplayError, match="SoftmaxBackward0 did not give its recorded value"):
        nudge(tl, 0, leaf_id(tl, "x"), 0.01, (0, 0))


def test_a_tensor_kept_as_a_summary_is_rerun_from_its_elements_or_refused():
    """Over 64 elements a value is kept as a Summary: its grid holds every element while the
    blocks are one element each (a 10 × 10 weight), and the re-run reads them; past that (40 ×
    40: block means) the re-run is refused, never made from means."""
    autoviz.manual_seed(0)
    x = autoviz.randn(10, 10, requires_grad=True, name="x")
    big = autoviz.randn(40, 40, requires_grad=True, name="big")
    with autoviz.trace() as tl:
        loss = (x.tanh() * 2).sum() + (big * 3).mean()
        loss.backward()
    up = nudge(tl, 0, leaf_id(tl, "x"), 1e-5, (3, 4))["change"]
    down = nudge(tl, 0, leaf_id(tl, "x"), -1e-5, (3, 4))["change"]
    assert math.isclose((up - down) / 2e-5, float(x.grad[3, 4]), rel_tol=1e-3)
    with pytest.raises(ReplayError, match="big's value was not recorded"):
        nudge(tl, 0, leaf_id(tl, "big"), 1e-3, (0, 0))
