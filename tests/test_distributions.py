"""torch.distributions under autoviz: samples bit for bit as torch draws them, log_prob and its
gradients as torch computes them, and torch's validation messages."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoviz

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

from random_cases import same  # noqa: E402 (needs torch, imported just above)


def D(T):
    return T.distributions


SAMPLES = {
    "Normal scalar": lambda T: [D(T).Normal(0.0, 1.0).sample(), D(T).Normal(2.0, 0.5).sample((4,))],
    "Normal batch": lambda T: D(T).Normal(T.arange(6.0), T.linspace(0.1, 1, 6)).sample((3, 2)),
    "Normal rsample": lambda T: D(T).Normal(T.zeros(20), 2.0).rsample((2,)).detach(),
    "Normal float64": lambda T: D(T).Normal(T.zeros(5, dtype=T.float64), 1.0).sample((4,)),
    "Uniform": lambda T: [
        D(T).Uniform(0.0, 2.0).sample((7,)),
        D(T).Uniform(-T.ones(3), 5.0).rsample(),
    ],
    "Bernoulli probs": lambda T: D(T).Bernoulli(T.rand(8)).sample((5,)),
    "Bernoulli scalar": lambda T: D(T).Bernoulli(0.3).sample((40,)),
    "Bernoulli logits": lambda T: D(T).Bernoulli(logits=T.linspace(-3, 3, 7)).sample((9,)),
    "Categorical probs": lambda T: [
        D(T).Categorical(T.tensor([0.1, 0.2, 0.7])).sample(),
        D(T).Categorical(T.tensor([0.1, 0.2, 0.7])).sample((30,)),
    ],
    "Categorical batch": lambda T: D(T).Categorical(T.rand(4, 6)).sample((2, 3)),
    "Categorical logits": lambda T: D(T).Categorical(logits=T.linspace(-1, 2, 5)).sample((12,)),
    "Multinomial": lambda T: [
        D(T).Multinomial(10, T.tensor([0.2, 0.3, 0.5])).sample(),
        D(T).Multinomial(7, T.rand(3, 4)).sample((2,)),
    ],
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_are_torchs(name):
    same(SAMPLES[name], seed=sorted(SAMPLES).index(name))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 20), st.integers(1, 40))
def test_categorical_and_multinomial_samples_match_torch(seed, rows, k, n):
    def case(T):
        weights = T.rand(rows, k, generator=T.Generator().manual_seed(seed % 977)) + 0.05
        return [D(T).Categorical(weights).sample((n,)), D(T).Multinomial(n, weights).sample()]

    same(case, seed=seed)


def scored(T, make, value):
    """log_prob of `value` and the gradients of the parameters that require grad."""
    params = [T.tensor(p, requires_grad=True) for p in make[1]]
    dist = make[0](D(T), *params)
    out = dist.log_prob(T.tensor(value))
    out.sum().backward()
    return out.detach().numpy(), [p.grad.numpy() for p in params]


LOG_PROBS = [
    ((lambda d, m, s: d.Normal(m, s)), ([0.0, 1.0, -2.0], [1.0, 0.5, 3.0]), [0.3, 1.0, 4.0]),
    ((lambda d, lo, hi: d.Uniform(lo, hi)), ([0.0, -1.0], [2.0, 1.0]), [1.5, 0.0]),
    ((lambda d, p: d.Bernoulli(p)), ([0.2, 0.5, 0.9],), [1.0, 0.0, 1.0]),
    ((lambda d, x: d.Bernoulli(logits=x)), ([-2.0, 0.0, 3.0],), [1.0, 0.0, 0.0]),
    ((lambda d, p: d.Categorical(p)), ([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]],), [2, 0]),
    ((lambda d, x: d.Categorical(logits=x)), ([[0.1, -1.0, 2.0]],), [[1], [2]]),
    ((lambda d, p: d.Multinomial(6, p)), ([0.2, 0.3, 0.5],), [1.0, 2.0, 3.0]),
    ((lambda d, x: d.Multinomial(4, logits=x)), ([[0.0, 1.0], [2.0, -1.0]],), [[3.0, 1.0], [0, 4]]),
]


@pytest.mark.parametrize(("make", "params", "value"), [(m, p, v) for m, p, v in LOG_PROBS])
def test_log_prob_and_its_gradients_are_torchs(make, params, value):
    expected, expected_grads = scored(torch, (make, params), value)
    got, grads = scored(autoviz, (make, params), value)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    for g, e in zip(grads, expected_grads, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda T: D(T).Normal(T.tensor([0.0, 2.0]), T.tensor([1.0, 3.0])),
        lambda T: D(T).Uniform(T.tensor([0.0, -1.0]), 2.0),
        lambda T: D(T).Bernoulli(T.tensor([0.25, 0.5])),
        lambda T: D(T).Categorical(T.tensor([0.1, 0.2, 0.7])),
        lambda T: D(T).Multinomial(5, T.tensor([0.1, 0.2, 0.7])),
    ],
)
def test_moments_entropy_shapes_and_repr_are_torchs(make):
    theirs, ours = make(torch), make(autoviz)
    assert repr(ours) == repr(theirs)
    assert tuple(ours.batch_shape) == tuple(theirs.batch_shape)
    assert tuple(ours.event_shape) == tuple(theirs.event_shape)
    for what in ("mean", "variance", "stddev"):
        np.testing.assert_allclose(
            getattr(ours, what).detach().numpy(), getattr(theirs, what).detach().numpy(), 1e-6
        )
    if not isinstance(theirs, torch.distributions.Multinomial):  # needs Binomial in torch
        np.testing.assert_allclose(ours.entropy().numpy(), theirs.entropy().numpy(), 1e-6)


ERRORS = [
    "D.Normal(0.0, -1.0)",
    "D.Normal(T.zeros(2), T.tensor([1.0, -1.0]))",
    "D.Bernoulli(1.5)",
    "D.Bernoulli()",
    "D.Bernoulli(0.5, logits=0.0)",
    "D.Categorical(T.tensor([0.5, -0.5]))",
    "D.Categorical(T.tensor(1.0))",
    "D.Normal(0.0, 1.0).log_prob(1.0)",
    "D.Normal(T.zeros(3), 1.0).log_prob(T.zeros(2))",
    "D.Bernoulli(0.3).log_prob(T.tensor(0.5))",
    "D.Categorical(T.ones(3)).log_prob(T.tensor(3))",
    "D.Uniform(2.0, 1.0)",
    "D.Uniform(0.0, 1.0).log_prob(T.tensor(2.0))",
    "D.Multinomial(2.5, T.ones(3))",
    "D.Multinomial(3, T.ones(3)).log_prob(T.ones(2))",
]


@pytest.mark.parametrize("code", ERRORS)
def test_validation_errors_say_what_torch_says(code):
    with pytest.raises(Exception) as expected:  # torch's own exception decides
        eval(code, {"T": torch, "D": torch.distributions})
    with pytest.raises(type(expected.value)) as got:
        eval(code, {"T": autoviz, "D": autoviz.distributions})
    assert str(got.value) == str(expected.value)


def test_validation_can_be_turned_off():
    d = autoviz.distributions.Normal(0.0, -1.0, validate_args=False)
    assert d.scale.item() == -1.0


# -- every family: samples, moments, entropy, log_prob, repr, KL, gradients, transforms --------
FAMILIES = (Path(__file__).parent / "distribution_families.py").read_text(encoding="utf-8")


def _printed(source: str, engine: str) -> list:
    import contextlib
    import io
    import warnings

    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        context = contextlib.nullcontext() if engine == "torch" else autoviz.as_torch()
        with context:
            exec(compile(source, "<families>", "exec"), {"__name__": "__families__"})
    return out.getvalue().splitlines()


def test_every_family_prints_what_torch_prints():
    """31 families (PyTorch's gamma, Poisson, binomial and Dirichlet samplers bit for bit),
    13 KL pairs, reparameterised gradients, transforms and constraint registries."""
    assert _printed(FAMILIES, "autoviz") == _printed(FAMILIES, "torch")
