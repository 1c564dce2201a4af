"""torch.special and the gamma family: known values, PyTorch's edge values, gradients by finite
differences (Hypothesis), and, where torch is installed, value for value against torch in both
dtypes, results and gradients alike."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_gradcheck import gradcheck

import autoviz
from autoviz.errors import NotInAutoviz

S = autoviz.special
F64 = autoviz.float64
FEW = settings(max_examples=15, deadline=None)
EULER = 0.5772156649015329


def _t(values, dtype=F64):
    return autoviz.tensor(values, dtype=dtype)


def test_known_values():
    assert autoviz.lgamma(_t(0.5)).item() == pytest.approx(math.log(math.sqrt(math.pi)), rel=1e-15)
    assert autoviz.digamma(_t(1.0)).item() == pytest.approx(-EULER, rel=1e-15)
    # torch's trigamma (six steps, then four terms of the series) is good to 5e-10, not more:
    assert autoviz.polygamma(1, _t(1.0)).item() == 1.6449340676383375  # π²/6 = 1.64493406684…
    assert autoviz.polygamma(2, _t(1.0)).item() == pytest.approx(-2 * 1.2020569031595942, rel=1e-13)
    assert S.zeta(_t(2.0), 1.0).item() == pytest.approx(math.pi**2 / 6, rel=1e-14)
    assert S.ndtri(_t(0.975)).item() == pytest.approx(1.959963984540054, rel=1e-14)
    assert S.ndtr(_t(1.959963984540054)).item() == pytest.approx(0.975, rel=1e-14)
    assert S.log_ndtr(_t(-40.0)).item() == pytest.approx(-804.6084420137538, rel=1e-13)
    assert S.erfcx(_t(30.0)).item() == pytest.approx(0.018795888861416751, rel=1e-13)
    assert autoviz.i0(_t(1.0)).item() == pytest.approx(1.2660658777520082, rel=1e-14)
    assert S.i1(_t(1.0)).item() == pytest.approx(0.5651591039924851, rel=1e-14)
    assert S.i0e(_t(100.0)).item() == pytest.approx(0.03994437929909668, rel=1e-13)
    assert S.i1e(_t(-100.0)).item() == pytest.approx(-0.03974415302513025, rel=1e-13)
    assert S.gammainc(_t(1.0), _t(2.0)).item() == pytest.approx(1 - math.exp(-2), rel=1e-14)
    assert S.gammaincc(_t(1.0), _t(2.0)).item() == pytest.approx(math.exp(-2), rel=1e-14)
    assert autoviz.mvlgamma(_t(2.5), 2).item() == pytest.approx(
        math.log(math.pi) / 2 + math.lgamma(2.5) + math.lgamma(2.0), rel=1e-14
    )
    assert S.entr(_t([0.0, 0.5, -1.0])).tolist() == [0.0, 0.5 * math.log(2), -math.inf]


def test_edge_values_are_torchs():
    """Poles and signed zeros as PyTorch gives them (math.lgamma raises at the poles)."""
    assert autoviz.lgamma(_t([0.0, -1.0, -2.0])).tolist() == [math.inf] * 3
    assert autoviz.digamma(_t([0.0, -0.0])).tolist() == [-math.inf, math.inf]
    assert math.isnan(autoviz.digamma(_t(-3.0)).item())
    assert S.ndtri(_t([0.0, 1.0])).tolist() == [-math.inf, math.inf]
    assert all(math.isnan(v) for v in S.ndtri(_t([-0.1, 1.1])).tolist())
    assert S.zeta(_t(1.0), 2.0).item() == math.inf
    assert autoviz.lgamma(autoviz.tensor([1, 2, 3])).dtype == autoviz.float32  # ints: float


def test_names_and_nodes_are_torchs():
    x = autoviz.tensor([1.5, 2.5], requires_grad=True)
    nodes = {
        "LgammaBackward0": S.gammaln(x),
        "DigammaBackward0": S.psi(x),
        "PolygammaBackward0": x.polygamma(2),
        "MvlgammaBackward0": S.multigammaln(x, 2),
        "SigmoidBackward0": S.expit(x),
        "MulBackward1": S.ndtr(x),  # torch's ndtr is (1 + erf(x / √2)) × 0.5
        "SpecialZetaBackward1": S.zeta(3.0, x),
        "SpecialZetaBackward2": S.zeta(x + 1, 2.0),
        "SpecialXlog1PyBackward0": S.xlog1py(x, x),
        "XlogyBackward1": autoviz.xlogy(2.0, x),  # torch's overloads of a number, named so
        "XlogyBackward2": S.xlogy(x, 2.0),
        "CopysignBackward1": autoviz.copysign(x, -1.0),
    }
    for name, out in nodes.items():
        assert type(out.grad_fn).__name__ == name
    y = x.detach().clone()
    y.lgamma_()
    assert y.tolist() == pytest.approx([math.lgamma(1.5), math.lgamma(2.5)], rel=1e-6)


def test_errors_say_what_torch_says():
    x = autoviz.tensor([1.5, 2.5], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^polygamma\(n, x\) does not support negative n\.$"):
        autoviz.polygamma(-1, x)
    with pytest.raises(RuntimeError, match=r"^All elements must be greater than \(p-1\)/2$"):
        autoviz.mvlgamma(x, 5)
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented"):
        S.zeta(x, x + 1).sum().backward()
    with pytest.raises(NotImplementedError, match="'igamma: input' is not implemented"):
        autoviz.igamma(x, x).sum().backward()
    with pytest.raises(NotInAutoviz, match="Bessel and Airy functions"):
        S.bessel_j0  # noqa: B018
    with autoviz.as_torch():
        import torch.special as special  # the module path resolves inside as_torch()

        assert special.gammaln is S.gammaln


def _positive(lo=0.2, hi=6.0):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


ONE_INPUT = {
    "lgamma": (autoviz.lgamma, _positive()),
    "digamma": (autoviz.digamma, _positive(0.5)),
    "polygamma(2, x)": (lambda x: autoviz.polygamma(2, x), _positive(0.5)),
    "mvlgamma(x, 3)": (lambda x: autoviz.mvlgamma(x, 3), _positive(1.2)),
    "i0": (autoviz.i0, st.floats(-5, 5)),
    "i0e": (S.i0e, _positive(0.1, 30) | _positive(-30, -0.1)),  # e^-|x| has a kink at 0
    "i1": (S.i1, st.floats(-5, 5)),
    "i1e": (S.i1e, _positive(0.1, 30) | _positive(-30, -0.1)),
    "ndtr": (S.ndtr, st.floats(-5, 5)),
    "ndtri": (S.ndtri, st.floats(0.01, 0.99)),
    "log_ndtr": (S.log_ndtr, st.floats(-30, 5)),
    "erfcx": (S.erfcx, st.floats(-3, 40)),
    "entr": (S.entr, _positive(0.05, 3)),
}


@pytest.mark.parametrize("name", sorted(ONE_INPUT))
@FEW
@given(data=st.data())
def test_gradients_match_finite_differences(name, data):
    fn, values = ONE_INPUT[name]
    gradcheck(fn, data.draw(st.lists(values, min_size=1, max_size=4)))


@FEW
@given(a=_positive(0.5, 5), x=_positive(0.1, 8), q=_positive(0.5, 4))
def test_two_input_gradients_match_finite_differences(a, x, q):
    gradcheck(lambda v: autoviz.igamma(_t(a), v), [x])
    gradcheck(lambda v: autoviz.igammac(_t(a), v), [x])
    gradcheck(lambda v: S.zeta(_t(a + 1.5), v), [q])
    gradcheck(lambda u, v: S.xlog1py(u, v), [a - 2], [x])


@FEW
@given(p=st.floats(1e-300, 1 - 1e-12))
def test_ndtri_inverts_ndtr(p):
    z = S.ndtri(_t(p))  # log_ndtr, as torch's ndtr (1 + erf) cancels in the left tail
    assert math.exp(S.log_ndtr(z).item()) == pytest.approx(p, rel=1e-9)


def _grid():
    return np.concatenate([np.linspace(-7.75, 7.75, 63), [0.0, 1e-8, 30.0, 120.0, 1e4]])


CASES = {  # name: (autoviz, torch, inputs)
    "lgamma": (autoviz.lgamma, "lgamma", _grid()),
    "digamma": (autoviz.digamma, "digamma", _grid()),
    "trigamma": (lambda x: autoviz.polygamma(1, x), "polygamma(1)", _grid()),
    "i0": (autoviz.i0, "i0", _grid()),
    "i0e": (S.i0e, "special.i0e", _grid()),
    "i1": (S.i1, "special.i1", _grid()),
    "i1e": (S.i1e, "special.i1e", _grid()),
    "ndtr": (S.ndtr, "special.ndtr", _grid()),
    "ndtri": (S.ndtri, "special.ndtri", np.linspace(1e-6, 1 - 1e-6, 41)),
    "log_ndtr": (S.log_ndtr, "special.log_ndtr", _grid() * 4),
    "erfcx": (S.erfcx, "special.erfcx", _grid() * 4),
    "entr": (S.entr, "special.entr", _grid()),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_are_torchs(name, dtype):
    torch = pytest.importorskip("torch")
    ours_fn, theirs_name, values = CASES[name]
    theirs_fn = torch
    for part in theirs_name.removesuffix("(1)").split("."):
        theirs_fn = getattr(theirs_fn, part)
    if theirs_name == "polygamma(1)":
        theirs_fn = (lambda f: lambda t: f(1, t))(theirs_fn)
    theirs_in = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
    ours_in = autoviz.tensor(values, dtype=getattr(autoviz, dtype), requires_grad=True)
    theirs, ours = theirs_fn(theirs_in), ours_fn(ours_in)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__
    rtol, atol = (1.3e-6, 1e-5) if dtype == "float32" else (1e-7, 1e-7)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol, atol)
    weights = np.linspace(-1, 1, len(values))
    (theirs * torch.tensor(weights, dtype=theirs.dtype)).sum().backward()
    (ours * autoviz.tensor(weights, dtype=ours.dtype)).sum().backward()
    finite = np.isfinite(theirs_in.grad.numpy())  # torch's inf/nan gradients at the poles too
    np.testing.assert_array_equal(np.isfinite(ours_in.grad.numpy()), finite)
    np.testing.assert_allclose(
        ours_in.grad.numpy()[finite], theirs_in.grad.numpy()[finite], rtol, atol
    )
