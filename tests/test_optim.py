"""autoviz.optim against real PyTorch: the same updates, state, reprs and errors."""

import numpy as np
import pytest

import autoviz as av
from autoviz import nn
from autoviz.nn import functional as F


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def twins(torch, seed=0):
    """An MLP in autoviz and the same MLP (same weights) in torch."""
    av.manual_seed(seed)
    ours = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    with torch.no_grad():
        for p, tp in zip(ours.parameters(), theirs.parameters(), strict=True):
            tp.copy_(torch.from_numpy(np.array(p._data)))
    return ours, theirs


X = np.random.default_rng(5).standard_normal((8, 3)).astype(np.float32)
Y = np.random.default_rng(6).standard_normal((8, 2)).astype(np.float32)


def run_steps(torch, make_ours, make_theirs, steps=5, groups=None):
    """Take `steps` optimizer steps on both twins; return both models."""
    ours, theirs = twins(torch)
    opt = make_ours(groups(ours) if groups else ours.parameters())
    topt = make_theirs(groups(theirs) if groups else theirs.parameters())
    x, y = av.tensor(X), av.tensor(Y)
    tx, ty = torch.tensor(X), torch.tensor(Y)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(ours(x), y).backward()
        opt.step()
        topt.zero_grad()
        torch.nn.functional.mse_loss(theirs(tx), ty).backward()
        topt.step()
    return ours, theirs, opt, topt


def assert_same_parameters(ours, theirs):
    for (name, p), tp in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        np.testing.assert_allclose(p._data, tp.detach().numpy(), rtol=1e-5, atol=1e-6, err_msg=name)


SGD_CASES = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "dampening": 0.5, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1},
    {"lr": 0.05, "momentum": 0.5, "maximize": True, "weight_decay": 0.1},
]


@pytest.mark.parametrize("options", SGD_CASES, ids=lambda o: ",".join(o))
def test_sgd_five_steps_match_torch(torch, options):
    ours, theirs, opt, topt = run_steps(
        torch, lambda p: av.optim.SGD(p, **options), lambda p: torch.optim.SGD(p, **options)
    )
    assert_same_parameters(ours, theirs)
    assert repr(opt) == repr(topt)


ADAM_CASES = [
    (av.optim.Adam, "Adam", {}),
    (av.optim.Adam, "Adam", {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6}),
    (av.optim.Adam, "Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    (av.optim.Adam, "Adam", {"lr": 0.01, "maximize": True}),
    (av.optim.AdamW, "AdamW", {"lr": 0.01}),
    (av.optim.AdamW, "AdamW", {"lr": 0.01, "weight_decay": 0.5, "amsgrad": True}),
]


@pytest.mark.parametrize(("cls", "name", "options"), ADAM_CASES)
def test_adam_five_steps_match_torch(torch, cls, name, options):
    ours, theirs, opt, topt = run_steps(
        torch, lambda p: cls(p, **options), lambda p: getattr(torch.optim, name)(p, **options)
    )
    assert_same_parameters(ours, theirs)
    assert repr(opt) == repr(topt)
    p, tp = next(iter(ours.parameters())), next(iter(theirs.parameters()))
    assert list(opt.state[p]) == list(topt.state[tp])
    assert repr(opt.state[p]["step"]) == repr(topt.state[tp]["step"]) == "tensor(5.)"
    np.testing.assert_allclose(
        opt.state[p]["exp_avg_sq"]._data, topt.state[tp]["exp_avg_sq"].numpy(), rtol=1e-5
    )


def test_parameter_groups_with_their_own_options_match_torch(torch):
    def groups(model):
        return [
            {"params": model[0].parameters(), "lr": 0.2},
            {"params": model[2].parameters()},
        ]

    ours, theirs, opt, topt = run_steps(
        torch,
        lambda p: av.optim.SGD(p, lr=0.05, momentum=0.9),
        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
        groups=groups,
    )
    assert_same_parameters(ours, theirs)
    assert [g["lr"] for g in opt.param_groups] == [0.2, 0.05]
    assert repr(opt) == repr(topt)


def test_momentum_buffer_starts_at_the_gradient(torch):
    p = nn.Parameter(av.tensor([1.0, -2.0]))
    opt = av.optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = av.tensor([0.5, 1.0])
    opt.step()
    assert opt.state[p]["momentum_buffer"].tolist() == [0.5, 1.0]
    opt.step()  # buf = 0.9 * buf + grad
    np.testing.assert_allclose(opt.state[p]["momentum_buffer"]._data, [0.95, 1.9])
    tp = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    topt = torch.optim.SGD([tp], lr=0.1, momentum=0.9)
    tp.grad = torch.tensor([0.5, 1.0])
    topt.step()
    topt.step()
    assert repr(opt.state[p]) == repr(topt.state[tp])
    np.testing.assert_allclose(p._data, tp.detach().numpy(), rtol=1e-6)


def test_updates_are_in_place_and_skip_parameters_without_grad():
    av.manual_seed(1)
    model = nn.Linear(2, 2)
    weight, storage = model.weight, model.weight._data
    bias_before = model.bias._data.copy()
    opt = av.optim.SGD(model.parameters(), lr=0.5)
    model.weight.grad = av.ones(2, 2)  # the bias has no grad: it must not move
    opt.step()
    assert model.weight is weight and model.weight._data is storage
    assert model.weight.grad_fn is None and model.weight.is_leaf
    np.testing.assert_array_equal(model.bias._data, bias_before)
    assert model.bias not in opt.state


def test_zero_grad_to_none_or_to_zeros():
    p = nn.Parameter(av.tensor([1.0, 2.0]))
    opt = av.optim.Adam([p])
    (p * p).sum().backward()
    held = p.grad
    opt.zero_grad(set_to_none=False)
    assert p.grad is held and held.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_step_with_closure_returns_the_loss():
    p = nn.Parameter(av.tensor([3.0]))
    opt = av.optim.SGD([p], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 9.0
    assert p.tolist() == [1.5]  # 3 - 0.25 * 6


@pytest.mark.parametrize(
    "make",
    [
        lambda optim, p: optim.SGD([], lr=0.1),
        lambda optim, p: optim.SGD([p], lr=-1),
        lambda optim, p: optim.SGD([p * 2], lr=1),
        lambda optim, p: optim.SGD([p], lr=1, nesterov=True),
        lambda optim, p: optim.SGD(p, lr=1),
        lambda optim, p: optim.Adam([p], betas=(0.9, 1.0)),
        lambda optim, p: optim.Adam([p], eps=-1.0),
        lambda optim, p: optim.SGD([{"params": [p]}, {"params": [p]}], lr=1),
    ],
)
def test_constructor_errors_match_torch(torch, make):
    with pytest.raises(Exception) as ours:
        make(av.optim, nn.Parameter(av.ones(2)))
    with pytest.raises(Exception) as theirs:
        make(torch.optim, torch.nn.Parameter(torch.ones(2)))
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "make",
    [lambda p: av.optim.SGD(p, lr=0.05, momentum=0.9), lambda p: av.optim.Adam(p, lr=0.05)],
)
def test_fitting_a_line_reduces_the_loss(make):
    av.manual_seed(0)
    x = av.linspace(-1, 1, 32).reshape(-1, 1)
    y = 3 * x + 1
    model = nn.Linear(1, 1)
    opt = make(model.parameters())
    losses = []
    for _ in range(200):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 1e-3 * losses[0]
    assert model.weight.item() == pytest.approx(3.0, abs=0.05)
    assert model.bias.item() == pytest.approx(1.0, abs=0.05)
