"""Special functions: the gamma family (lgamma, digamma, polygamma, mvlgamma, the incomplete
gamma ratios, Hurwitz's zeta), the normal distribution's (ndtr, ndtri, log_ndtr, erfcx), the
modified Bessel functions I0 and I1, entr and xlog1py; one small op each, its derivative in
its docstring, computed in float64 (specfun) and rounded to the input's dtype once."""

import math

import numpy as np

from . import specfun
from .arithmetic import Add, Mul, with_numbers
from .base import Op, _float, into, need_tensor, result, shape_of, unbroadcast
from .pointwise import erf


def _op(name, kernel, derivative, saved=("self",), doc=""):
    """A one-input op z = kernel(a) whose gradient is `derivative(g, a, z)`; `saved` names
    what its node keeps, as torch's does ("self", "result" or both)."""

    def forward(ctx, a):
        a = _float(a)
        with np.errstate(all="ignore"):
            out = result(kernel(a), a)
        ctx.save_for_backward(*(a if s == "self" else out for s in saved))
        return out

    def backward(ctx, grad):
        kept = dict(zip(saved, ctx.saved_tensors, strict=True))
        with np.errstate(all="ignore"):
            return np.asarray(derivative(grad, kept.get("self"), kept.get("result")), grad.dtype)

    body = {"_backward_name": name, "_saved_names": saved, "__doc__": doc}
    body |= {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    return type(name.removesuffix("Backward0"), (Op,), {**body, "__module__": __name__})


def _rounded(kernel, like):
    return np.asarray(kernel(like)).astype(np.result_type(like))


Lgamma = _op(
    "LgammaBackward0",
    specfun.lgamma,
    lambda g, a, z: g * _rounded(specfun.digamma, a),
    doc="z = log Γ(a);  dz/da = ψ(a) (digamma).",
)
Digamma = _op(
    "DigammaBackward0",
    specfun.digamma,
    lambda g, a, z: g * _rounded(specfun.trigamma, a),
    doc="z = ψ(a) = Γ'(a) / Γ(a);  dz/da = ψ'(a) = polygamma(1, a).",
)
I0 = _op(
    "I0Backward0",
    specfun.i0,
    lambda g, a, z: g * _rounded(specfun.i1, a),
    doc="z = I₀(a), the modified Bessel function of order 0;  dz/da = I₁(a).",
)
SpecialI0E = _op(
    "SpecialI0EBackward0",
    specfun.i0e,
    lambda g, a, z: g * (_rounded(specfun.i1e, a) - np.sign(a) * z),
    ("self", "result"),
    "z = e^-|a| I₀(a);  dz/da = e^-|a| I₁(a) - sign(a) z.",
)


def _tiny_safe(a):
    """a, with torch's ε where |a| ≤ ε, where I₁'s derivative is its limit 1/2."""
    eps = np.finfo(np.result_type(a)).eps
    return np.abs(a) > eps, np.where(np.abs(a) > eps, a, eps).astype(np.result_type(a))


def _d_i1(g, a, z):
    big, safe = _tiny_safe(a)
    return g * np.where(big, _rounded(specfun.i0, safe) - z / safe, 0.5)


def _d_i1e(g, a, z):
    big, safe = _tiny_safe(a)
    return g * np.where(big, _rounded(specfun.i0e, safe) - z * (np.sign(safe) + 1 / safe), 0.5)


SpecialI1 = _op(
    "SpecialI1Backward0",
    specfun.i1,
    _d_i1,
    ("self", "result"),
    "z = I₁(a);  dz/da = I₀(a) - z / a (1/2 at 0).",
)
SpecialI1E = _op(
    "SpecialI1EBackward0",
    specfun.i1e,
    _d_i1e,
    ("self", "result"),
    "z = e^-|a| I₁(a);  dz/da = e^-|a| I₀(a) - z (sign(a) + 1/a) (1/2 at 0).",
)
_SQRT_2PI = math.sqrt(2 * math.pi)
SpecialNdtri = _op(
    "SpecialNdtriBackward0",
    specfun.ndtri,
    lambda g, a, z: g * z.dtype.type(_SQRT_2PI) * np.exp(z * z / 2),
    ("result",),
    "z = Φ⁻¹(a), the standard normal's quantile;  dz/da = √(2π) exp(z² / 2).",
)
SpecialLogNdtr = _op(
    "SpecialLogNdtrBackward0",
    specfun.log_ndtr,
    lambda g, a, z: g / z.dtype.type(_SQRT_2PI) * np.exp(-(z + a * a / 2)),
    ("self", "result"),
    "z = log Φ(a);  dz/da = φ(a) / Φ(a) = exp(-(z + a²/2)) / √(2π).",
)
SpecialErfcx = _op(
    "SpecialErfcxBackward0",
    specfun.erfcx,
    lambda g, a, z: (2 * a * z - a.dtype.type(2 / math.sqrt(math.pi))) * g,
    ("self", "result"),
    "z = exp(a²) erfc(a);  dz/da = 2 a z - 2/√π.",
)


def _entr(a):
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(a > 0, -a * np.log(np.where(a > 0, a, 1)), np.where(a == 0, 0.0, -np.inf))
    return np.where(np.isnan(a), np.nan, out)


SpecialEntr = _op(
    "SpecialEntrBackward0",
    _entr,
    lambda g, a, z: g * -(1 + np.log(a)),
    doc="z = -a log a (0 at 0, -inf below);  dz/da = -(1 + log a).",
)


class Polygamma(Op):
    """z = ψ⁽ⁿ⁾(a), the n-th derivative of digamma;  dz/da = ψ⁽ⁿ⁺¹⁾(a)."""

    _backward_name = "PolygammaBackward0"
    _saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, *, n):
        a = _float(a)
        ctx.save_for_backward(a)
        ctx.info = n
        with np.errstate(all="ignore"):
            return result(specfun.polygamma(n, a), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        with np.errstate(all="ignore"):
            return grad * _rounded(lambda x: specfun.polygamma(ctx.info + 1, x), a)


class Mvlgamma(Op):
    """z = p(p-1)/4 log π + Σⱼ log Γ(a - j/2), j = 0 … p-1;  dz/da = Σⱼ ψ(a - j/2)."""

    _backward_name = "MvlgammaBackward0"
    _saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, *, p):
        a = _float(a)
        ctx.save_for_backward(a)
        ctx.info = p
        shifted = specfun.f64(a)[..., None] - np.arange(p) / 2
        total = specfun.lgamma(shifted).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)
        return result(total, a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        shifted = specfun.f64(a)[..., None] - np.arange(ctx.info) / 2
        return grad * _rounded(lambda s: specfun.digamma(s).sum(-1), shifted)


def _two(name, kernel, grads, saved=("self", "other"), doc=""):
    """A two-input op z = kernel(a, b) with gradients `grads(g, a, b, needs_input_grad)`."""

    def forward(ctx, a, b):
        with np.errstate(all="ignore"):
            out = np.asarray(result(kernel(_float(a), _float(b)), a, b))
        ctx.save_for_backward(a, b)
        return out

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        with np.errstate(all="ignore"):
            ga, gb = grads(grad, a, b, ctx.needs_input_grad)
        dtype = np.result_type(grad)
        return tuple(
            None if g is None else unbroadcast(np.asarray(g, dtype), shape_of(x))
            for g, x in ((ga, a), (gb, b))
        )

    body = {"_backward_name": name, "_saved_names": saved, "__doc__": doc}
    body |= {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    return type(name.removesuffix("Backward0"), (Op,), {**body, "__module__": __name__})


def _not_implemented(what):
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")


def _igamma_grads(sign):
    def grads(g, a, x, needs):
        if needs[0]:
            _not_implemented("igamma: input" if sign > 0 else "igammac: input")
        a64, x64 = specfun.f64(a), specfun.f64(x)
        density = np.exp((a64 - 1) * np.log(x64) - x64 - specfun.lgamma(a64))
        return None, g * sign * density.astype(np.result_type(g))

    return grads


def _xlog1py(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((a == 0) & ~np.isnan(b), 0, a * np.log1p(b))


def _zeta_grads(g, x, q, needs):
    if needs[0]:
        _not_implemented("zeta")
    return None, g * -x * _rounded(lambda v: specfun.zeta(v + 1, q), x)


Igamma = _two(
    "IgammaBackward0",
    specfun.igamma,
    _igamma_grads(1),
    doc="z = P(a, x), the regularised lower incomplete gamma;  dz/dx = x^(a-1) e^-x / Γ(a) "
    "(torch has no derivative in a).",
)
Igammac = _two(
    "IgammacBackward0",
    lambda a, x: specfun.igamma(a, x, upper=True),
    _igamma_grads(-1),
    doc="z = Q(a, x) = 1 - P(a, x);  dz/dx = -x^(a-1) e^-x / Γ(a).",
)
SpecialXlog1Py = _two(
    "SpecialXlog1PyBackward0",
    _xlog1py,
    lambda g, a, b, needs: (
        np.where((a == 0) & (b <= -1), 0, _xlog1py(g, b)),
        g * a / (b + 1),
    ),
    doc="z = a log(1 + b) (0 where a = 0);  dz/da = log(1 + b), dz/db = a / (1 + b).",
)
SpecialZeta = _two(
    "SpecialZetaBackward0",
    specfun.zeta,
    _zeta_grads,
    doc="z = ζ(x, q) = Σₖ (k + q)^-x;  dz/dq = -x ζ(x + 1, q) (torch has none in x).",
)


# -- the functions, as torch names them ----------------------------------------------------
def _one(op, name):
    def function(input, *, out=None):
        need_tensor(name, input)
        z = op.apply(input)
        return z if out is None else into(out, z, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


lgamma, digamma, i0 = _one(Lgamma, "lgamma"), _one(Digamma, "digamma"), _one(I0, "i0")
i0e, i1, i1e = _one(SpecialI0E, "i0e"), _one(SpecialI1, "i1"), _one(SpecialI1E, "i1e")
ndtri, log_ndtr = _one(SpecialNdtri, "ndtri"), _one(SpecialLogNdtr, "log_ndtr")
erfcx, entr = _one(SpecialErfcx, "erfcx"), _one(SpecialEntr, "entr")


class MulScalar(Mul):
    """z = a · c for a number c (torch's mul.Scalar, inside its composite functions)."""

    _backward_name = "MulBackward1"


class AddScalar(Add):
    """z = a + c for a number c (torch's add.Scalar)."""

    _backward_name = "AddBackward1"


def ndtr(input, *, out=None):
    """Φ(x) = (1 + erf(x / √2)) / 2, built from those ops as torch builds it."""
    need_tensor("ndtr", input)
    inner = erf(MulScalar.apply(input, math.sqrt(0.5)))
    z = MulScalar.apply(AddScalar.apply(inner, 1), 0.5)
    return z if out is None else into(out, z, "ndtr")


def polygamma(n, input, *, out=None):
    """ψ⁽ⁿ⁾(input), the n-th derivative of digamma (n = 0 is digamma itself)."""
    need_tensor("polygamma", input, 2)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    z = Polygamma.apply(input, n=int(n))
    return z if out is None else into(out, z, "polygamma")


def polygamma_method(self, n):
    return polygamma(n, self)


def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma of dimension p: needs every element above (p - 1) / 2."""
    need_tensor("mvlgamma", input)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if not bool(np.all(np.asarray(input._data) > 0.5 * (p - 1))):
        raise RuntimeError("All elements must be greater than (p-1)/2")
    z = Mvlgamma.apply(input, p=int(p))
    return z if out is None else into(out, z, "mvlgamma")


igamma, igammac = with_numbers(Igamma, "igamma"), with_numbers(Igammac, "igammac")
xlog1py = with_numbers(SpecialXlog1Py, "xlog1py", first=1, second=2)
zeta = with_numbers(SpecialZeta, "zeta", first=1, second=2)
