"""One-input elementwise math: exp and log, powers and roots, trigonometry, rounding, sign,
relu and clamps; one small class per op, its derivative in the docstring, then the functions
and the rules backward follows when it records itself (create_graph=True)."""

import math

import numpy as np

from ..dtypes import result_type
from ..fidelity.fma import fma32, fma64
from ..fidelity.libm import libm
from ..function import FREED, FREED_MESSAGE
from ..higher import inp, mask, out, rule, sum_to
from ..tensor import Tensor, make
from .base import (
    _F32_SCALAR,
    Op,
    _float,
    into,
    need_tensor,
    result,
    to_tensor,
    type_word,
    unbroadcast,
)


class Reciprocal(Op):
    """z = 1 / a;  dz/da = -1 / a² = -z²."""

    _backward_name = "ReciprocalBackward0"
    _saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        out = result(np.reciprocal(_float(a)), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * out * out


class Zero(Op):
    """z = 0, what `x.zero_()` records;  dz/da = 0: the old values get no gradient."""

    _backward_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.zeros_like(a)

    @staticmethod
    def backward(ctx, grad):
        return np.zeros_like(grad)


class Fill(Op):
    """z = v everywhere, what `x.fill_(v)` records for a number v;  dz/da = 0."""

    _backward_name = "FillBackward2"

    @staticmethod
    def forward(ctx, a, value=0):
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx, grad):
        return np.zeros_like(grad)


class FillTensor(Op):
    """z = v everywhere, for a 0-d tensor v;  dz/da = 0, dz/dv = Σ g."""

    _backward_name = "FillBackward3"

    @staticmethod
    def forward(ctx, a, v):
        return np.full_like(a, v)

    @staticmethod
    def backward(ctx, grad):
        return np.zeros_like(grad), unbroadcast(grad, ())


class Copy(Op):
    """z = b broadcast to a's shape, in a's dtype: what `a.copy_(b)` records;  dz/da = 0,
    dz/db = the gradient summed over b's broadcast dims, in b's dtype."""

    _backward_name = "CopyBackwards"
    _cpp_name = "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, a, b):
        ctx.info = (np.shape(b), np.result_type(b))
        return np.array(np.broadcast_to(b, np.shape(a)), dtype=np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        shape, dtype = ctx.info
        return np.zeros_like(grad), unbroadcast(grad, shape).astype(dtype, copy=False)


class Neg(Op):
    """z = -a;  dz/da = -1."""

    _backward_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        if getattr(a, "dtype", None) == np.bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return -a

    @staticmethod
    def backward(ctx, grad):
        return -grad


def _unary(name, fwd, chain, saves="input"):
    """An elementwise op z = f(a) whose gradient `chain(grad, a or z)` needs only a or z
    (written in PyTorch's order of operations, so it rounds as PyTorch's does)."""

    def forward(ctx, a):
        if getattr(a, "dtype", None) == np.float16:  # PyTorch computes in float, rounds once
            out = np.asarray(fwd(a.astype(np.float32))).astype(np.float16)
        else:
            out = result(fwd(_float(a)), a)
        ctx.save_for_backward(a if saves == "input" else out)
        return out

    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return chain(grad, saved)

    doc = f"z = {name.removesuffix('Backward0').lower()}(a)."
    body = {
        "_backward_name": name,
        "_saved_names": ("self",) if saves == "input" else ("result",),
        "forward": staticmethod(forward),
        "backward": staticmethod(backward),
        "__doc__": doc,
        "__module__": __name__,
    }
    return type(name.removesuffix("Backward0").capitalize(), (Op,), body)


def wide(f):
    """f computed in float64 and rounded once: PyTorch's float32 exp, sin, log, ... are (all
    but) correctly rounded, numpy's float32 loops are not (exp(12.) is one step below)."""

    ufunc = isinstance(f, np.ufunc)

    def rounded(a):
        if a.dtype.itemsize >= 8:
            return f(a)
        if not ufunc:
            return np.asarray(f(a.astype(np.float64))).astype(a.dtype)
        return f(a, dtype=np.float64).astype(a.dtype)

    rounded.__name__ = f.__name__
    return rounded


wide_exp, wide_log, wide_sin, wide_cos = wide(np.exp), wide(np.log), wide(np.sin), wide(np.cos)


wide_tanh, wide_log10, wide_log2 = wide(np.tanh), wide(np.log10), wide(np.log2)


wide_log1p, wide_expm1 = wide(np.log1p), wide(np.expm1)


_LN10, _LN2 = 2.3025850929940456, 0.6931471805599453


def _sigmoid(a):
    """1 / (1 + exp(-a)), in a's precision, as PyTorch's kernel computes it."""
    one = a.dtype.type(1)
    return one / (one + wide_exp(-a))


Exp = _unary("ExpBackward0", wide_exp, lambda g, z: g * z, saves="output")  # dz/da = z


Log = _unary("LogBackward0", wide_log, lambda g, a: g / a)  # dz/da = 1 / a


Sqrt = _unary("SqrtBackward0", np.sqrt, lambda g, z: g / (2 * z), saves="output")


class Abs(Op):
    """z = |a|;  dz/da = sign(a). Integers stay integers, as in PyTorch."""

    _backward_name = "AbsBackward0"
    _saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        if getattr(a, "dtype", None) == np.bool_:
            raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * np.sign(a)


Sin = _unary("SinBackward0", wide_sin, lambda g, a: g * wide_cos(a))  # dz/da = cos(a)


Cos = _unary("CosBackward0", wide_cos, lambda g, a: g * -wide_sin(a))  # dz/da = -sin(a)


def _tanh_grad(g, z):
    """g · (1 - z²), 1 - z² being one fused multiply-add in PyTorch's kernel (rounded once)."""
    fma = {"float32": fma32, "float64": fma64}.get(np.result_type(z).name)
    if fma is None:
        return g * (1 - z * z)
    return g * fma(-z, z, 1.0).astype(np.result_type(z))


Tanh = _unary("TanhBackward0", wide_tanh, _tanh_grad, saves="output")  # dz/da = 1 - z²


Sigmoid = _unary("SigmoidBackward0", _sigmoid, lambda g, z: g * (1 - z) * z, saves="output")


Log10 = _unary("Log10Backward0", wide_log10, lambda g, a: g / (a * a.dtype.type(_LN10)))


Log2 = _unary("Log2Backward0", wide_log2, lambda g, a: g / (a * a.dtype.type(_LN2)))


Log1p = _unary("Log1PBackward0", wide_log1p, lambda g, a: g / (a + 1))  # dz/da = 1 / (1 + a)


Expm1 = _unary("Expm1Backward0", wide_expm1, lambda g, z: g * (z + 1), saves="output")  # z + 1


Exp2 = _unary("Exp2Backward0", np.exp2, lambda g, z: g * z * z.dtype.type(_LN2), saves="output")


Tan = _unary("TanBackward0", np.tan, lambda g, z: g * (1 + z * z), saves="output")  # 1 + z²


Rsqrt = _unary(
    "RsqrtBackward0", lambda a: 1 / np.sqrt(a), lambda g, z: -0.5 * g * z**3, saves="output"
)


def _zero_slope(grad, a):
    return np.zeros(np.shape(a), np.result_type(grad))


# Piecewise constant: the derivative is 0 wherever it exists, as PyTorch defines it.
def _sign(a):
    """-1, 0 or 1; 0 for NaN, as torch's kernel gives (numpy's sign keeps NaN)."""
    out = np.sign(a)
    if type(out) is np.ndarray and out.dtype.kind == "f":
        return np.where(np.isnan(out), out.dtype.type(0), out)
    return out if out == out else type(out)(0)  # a scalar (NaN is the one unequal to itself)


Sign = _unary("SignBackward0", _sign, _zero_slope)


Floor = _unary("FloorBackward0", np.floor, _zero_slope)


Ceil = _unary("CeilBackward0", np.ceil, _zero_slope)


Round = _unary("RoundBackward0", np.round, _zero_slope)


Trunc = _unary("TruncBackward0", np.trunc, _zero_slope)


# -- more of PyTorch's one-input math -------------------------------------------------------------
def _libm(function):
    """An elementwise function from the C library's scalar one (erf, erfc), in float64."""
    return lambda a: libm(function, a)


def _erfinv(y):
    """The inverse of erf: a rational first guess, then Newton steps on erf (as torch's
    calc_erfinv refines its guess), so it is right to the last bits in float64."""
    y = np.asarray(y, np.float64)
    w = -np.log((1.0 - y) * (1.0 + y))
    x = y * (1.2533 + w * (0.13 + w * 0.0132))  # close enough for Newton from here
    x = np.where(np.abs(y) >= 1, np.copysign(np.inf, y), x)
    finite = np.isfinite(x) & (np.abs(y) < 1)
    for _ in range(4):
        step = (libm(math.erf, np.where(finite, x, 0)) - y) * (math.sqrt(math.pi) / 2)
        x = np.where(finite, x - step * np.exp(np.where(finite, x * x, 0)), x)
    return np.where(np.isnan(y), np.nan, x)


def _sinc(a):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(a == 0, 1.0, np.sin(math.pi * a) / (math.pi * a))


_TWO_OVER_SQRT_PI, _SQRT_PI_OVER_2 = 2 / math.sqrt(math.pi), math.sqrt(math.pi) / 2
_DEGREE = math.pi / 180


def _d_sinc(g, a):
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = math.pi * a
        slope = (pa * np.cos(pa) - np.sin(pa)) / (pa * a)
    return g * np.where(a == 0, 0, slope).astype(np.result_type(a))


Asin = _unary("AsinBackward0", wide(np.arcsin), lambda g, a: g / np.sqrt(1 - a * a))  # 1/√(1-a²)
Acos = _unary("AcosBackward0", wide(np.arccos), lambda g, a: -g / np.sqrt(1 - a * a))
Atan = _unary("AtanBackward0", wide(np.arctan), lambda g, a: g / (a * a + 1))  # 1/(1+a²)
Sinh = _unary("SinhBackward0", wide(np.sinh), lambda g, a: g * wide(np.cosh)(a))  # cosh(a)
Cosh = _unary("CoshBackward0", wide(np.cosh), lambda g, a: g * wide(np.sinh)(a))  # sinh(a)
Asinh = _unary("AsinhBackward0", wide(np.arcsinh), lambda g, a: g / np.sqrt(a * a + 1))
Acosh = _unary("AcoshBackward0", wide(np.arccosh), lambda g, a: g / np.sqrt(a * a - 1))
Atanh = _unary("AtanhBackward0", wide(np.arctanh), lambda g, a: g / (1 - a * a))  # 1/(1-a²)
Erf = _unary(  # dz/da = 2/√π exp(-a²)
    "ErfBackward0", _libm(math.erf), lambda g, a: g * _TWO_OVER_SQRT_PI * wide_exp(-a * a)
)
Erfc = _unary(
    "ErfcBackward0", _libm(math.erfc), lambda g, a: -g * _TWO_OVER_SQRT_PI * wide_exp(-a * a)
)
Erfinv = _unary(  # dz/da = √π/2 exp(z²)
    "ErfinvBackward0",
    _erfinv,
    lambda g, z: g * (math.sqrt(math.pi) / 2) * wide_exp(z * z),
    "output",
)
Sinc = _unary("SincBackward0", wide(_sinc), _d_sinc)  # (πa cos πa - sin πa) / (πa²)
Deg2Rad = _unary(
    "Deg2RadBackward0", lambda a: a * (math.pi / 180), lambda g, a: g * (math.pi / 180)
)
Rad2Deg = _unary(
    "Rad2DegBackward0", lambda a: a * (180 / math.pi), lambda g, a: g * (180 / math.pi)
)
Frac = _unary("FracBackward0", lambda a: a - np.trunc(a), lambda g, a: g)  # dz/da = 1
Sgn = _unary("SgnBackward0", _sign, _zero_slope)


class Logit(Op):
    """z = log(a / (1 - a)) (a clamped to [eps, 1 - eps]);  dz/da = 1 / (a (1 - a)), and 0
    where eps clamped a."""

    _backward_name = "LogitBackward0"

    @staticmethod
    def forward(ctx, a, eps=None):
        a = _float(a)
        ctx.save_for_backward(a)
        ctx.info = eps
        x = a if eps is None else np.clip(a, eps, 1 - eps)
        with np.errstate(divide="ignore", invalid="ignore"):
            return result(wide(np.log)(x / (1 - x)), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        eps = ctx.info
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = grad / (a * (1 - a))
        if eps is not None:
            slope = np.where((a < eps) | (a > 1 - eps), 0, slope).astype(slope.dtype)
        return slope


class NanToNum(Op):
    """z = a with NaN and infinities replaced;  dz/da = 1 where a is finite, else 0."""

    _backward_name = "NanToNumBackward0"

    @staticmethod
    def forward(ctx, a, nan=0.0, posinf=None, neginf=None):
        ctx.save_for_backward(a)
        return np.nan_to_num(np.asarray(a), nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return np.where(np.isfinite(a), grad, np.zeros((), np.result_type(grad)))


class ClampTensor(Op):
    """z = min(max(a, lo), hi) for tensor bounds;  dz/da = 1 between the bounds, dz/dlo = 1
    where lo was taken, dz/dhi = 1 where hi was."""

    _backward_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a, lo, hi)
        out = a if lo is None else np.maximum(a, lo)
        out = out if hi is None else np.minimum(out, hi)
        return np.asarray(result(out, a, *(bound for bound in (lo, hi) if bound is not None)))

    @staticmethod
    def backward(ctx, grad):
        from .base import unbroadcast

        a, lo, hi = ctx.saved_tensors
        zero = np.zeros((), np.result_type(grad))
        above = (
            np.zeros(np.shape(a), bool) if hi is None else np.broadcast_to(a > hi, np.shape(grad))
        )
        below = (
            np.zeros(np.shape(a), bool) if lo is None else np.broadcast_to(a < lo, np.shape(grad))
        )
        if hi is not None and lo is not None:
            below = below & ~np.broadcast_to(lo > hi, np.shape(grad))
            above = above | np.broadcast_to(lo > hi, np.shape(grad))
        inside = ~(above | below)
        return (
            unbroadcast(np.where(inside, grad, zero), np.shape(a)),
            None if lo is None else unbroadcast(np.where(below, grad, zero), np.shape(lo)),
            None if hi is None else unbroadcast(np.where(above, grad, zero), np.shape(hi)),
        )


class Relu(Op):
    """z = max(a, 0);  dz/da = 1 where a > 0, else 0."""

    _backward_name = "ReluBackward0"
    _saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        if type(a) is _F32_SCALAR or isinstance(a, np.floating):
            # A numpy scalar, what ops on 0-d data return: comparing is ten times quicker than
            # the ufunc. NaN stays NaN and -0.0 stays -0.0, as in PyTorch's kernel.
            out = type(a)(0) if a < 0 else a
        else:
            if a.dtype == np.bool_:
                raise RuntimeError("Boolean inputs not supported for relu")
            out = np.where(a < 0, np.zeros((), a.dtype), a)
        ctx._saved = (out,)
        return out

    @staticmethod
    def backward(ctx, grad):
        saved = ctx._saved  # saved_tensors, without its call
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        z = saved[0]
        if type(z) is _F32_SCALAR or isinstance(z, np.floating):  # scalar code's case
            return grad if z > 0 else grad.dtype.type(0)
        # where(), not grad * (z > 0): a negative gradient gives 0.0 there, not -0.0, as
        # PyTorch's threshold_backward does.
        return np.where(z > 0, grad, np.zeros((), np.result_type(grad)))


class Clamp(Op):
    """z = min(max(a, lo), hi);  dz/da = 1 inside [lo, hi], else 0."""

    _backward_name = "ClampBackward1"
    _saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a)
        ctx.info = (lo, hi)
        want = result_type(a, *(bound for bound in (lo, hi) if bound is not None))
        out = np.asarray(a, want)  # a bound of 0.5 lifts an int tensor to float
        # std::min(std::max(a, lo), hi), as PyTorch's kernel: NaN and -0.0 stay as they are
        out = out if lo is None else np.where(out < lo, want.type(lo), out)
        return np.asarray(out if hi is None else np.where(out > hi, want.type(hi), out))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.info
        inside = np.ones(np.shape(a), dtype=bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return np.where(inside, grad, np.zeros((), np.result_type(grad)))  # +0.0 outside


class ClampMin(Clamp):
    """z = a.clamp_min(lo);  dz/da = 1 where a >= lo, else 0."""

    _backward_name = "ClampMinBackward0"


# -- the functions: torch.exp(x), torch.clamp(x, 0, 1, out=...), ... --------------------------


def neg(input, *, out=None):
    result = Neg.apply(input)
    return result if out is None else into(out, result, "neg")


def _pointwise(op):
    """A one-input function of PyTorch's (`torch.exp(x, out=None)`) over op."""

    def function(input, *, out=None):
        result = op.apply(to_tensor(input))
        return result if out is None else into(out, result, name)

    name = op.__name__.lower()
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


exp = _pointwise(Exp)


log = _pointwise(Log)


sqrt = _pointwise(Sqrt)


abs = _pointwise(Abs)


sin = _pointwise(Sin)


cos = _pointwise(Cos)


tan = _pointwise(Tan)


tanh = _pointwise(Tanh)


sigmoid = _pointwise(Sigmoid)


relu = _pointwise(Relu)


log10 = _pointwise(Log10)


log2 = _pointwise(Log2)


log1p = _pointwise(Log1p)


expm1 = _pointwise(Expm1)


exp2 = _pointwise(Exp2)


rsqrt = _pointwise(Rsqrt)


reciprocal = _pointwise(Reciprocal)


def _rounding(op):
    """sign, sgn, floor, ceil, round, trunc, frac: integer tensors come back in their dtype (a
    bool's sign is itself), or are refused with PyTorch's kernel's words."""
    pointwise = _pointwise(op)
    kernel = f"{pointwise.__name__}_cpu" if op is Frac else f"{pointwise.__name__}_vml_cpu"

    def function(input, *, out=None):
        data = input._data if isinstance(input, Tensor) else None
        kind = np.result_type(data).kind if data is not None else "f"
        if kind in "biu":
            signs = op is Sign or op is Sgn
            if op is Frac or (kind == "b" and not signs):
                word = type_word(data)
                raise NotImplementedError(f"\"{kernel}\" not implemented for '{word}'")
            result = make(np.array(np.sign(data) if signs and kind != "b" else data))
            return result if out is None else into(out, result, pointwise.__name__)
        return pointwise(input, out=out)

    function.__name__ = function.__qualname__ = pointwise.__name__
    function.__doc__ = pointwise.__doc__
    return function


sign = _rounding(Sign)


floor = _rounding(Floor)


ceil = _rounding(Ceil)


_round = _rounding(Round)


def round(input, *, decimals=0, out=None):
    """Half to even; with `decimals`, as torch does it: x·10^d rounded, then divided back."""
    if not decimals:
        return _round(input, out=out)
    result = RoundDecimals.apply(to_tensor(input), decimals=decimals)
    return result if out is None else into(out, result, "round")


class RoundDecimals(Op):
    """z = a rounded to `decimals` places (x·10^d to even, then divided back);  dz/da = 0."""

    _backward_name = "RoundBackward1"

    @staticmethod
    def forward(ctx, a, decimals=0):
        scale = a.dtype.type(10.0 ** abs(decimals))
        if decimals > 0:
            return np.asarray(np.round(a * scale) / scale)
        return np.asarray(np.round(a / scale) * scale)

    @staticmethod
    def backward(ctx, grad):
        return _zero_slope(grad, grad)


trunc = _rounding(Trunc)


def clamp(input, min=None, max=None, *, out=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if _is_tensor_bound(min) or _is_tensor_bound(max):
        result = ClampTensor.apply(to_tensor(input), min, max)
    else:
        result = Clamp.apply(to_tensor(input), lo=_number(min), hi=_number(max))
    return result if out is None else into(out, result, "clamp")


def _is_tensor_bound(bound) -> bool:
    return isinstance(bound, Tensor) and (bound.requires_grad or bound.ndim > 0)


def clamp_max(input, max):
    need_tensor("clamp_max", input)
    return clamp(input, max=max)


clip = clamp


def _number(bound):
    return bound.item() if isinstance(bound, Tensor) else bound


def clamp_min(input, min):
    need_tensor("clamp_min", input)
    if _is_tensor_bound(min):
        return ClampTensor.apply(to_tensor(input), min, None)
    return ClampMin.apply(input, lo=_number(min), hi=None)


asin, acos, atan = _pointwise(Asin), _pointwise(Acos), _pointwise(Atan)
sinh, cosh = _pointwise(Sinh), _pointwise(Cosh)
asinh, acosh, atanh = _pointwise(Asinh), _pointwise(Acosh), _pointwise(Atanh)
erf, erfc, erfinv, sinc = _pointwise(Erf), _pointwise(Erfc), _pointwise(Erfinv), _pointwise(Sinc)
deg2rad, rad2deg, frac = _pointwise(Deg2Rad), _pointwise(Rad2Deg), _rounding(Frac)
sgn = _rounding(Sgn)
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
fix = trunc


def positive(input):
    return input


def logit(input, eps=None, *, out=None):
    """log(a / (1 - a)), with a clamped to [eps, 1 - eps] first when eps is given."""
    result = Logit.apply(to_tensor(input), eps=eps)
    return result if out is None else into(out, result, "logit")


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and smallest values)."""
    result = NanToNum.apply(to_tensor(input), nan=nan, posinf=posinf, neginf=neginf)
    return result if out is None else into(out, result, "nan_to_num")


def _test(name, numpy_test):
    """A test of each element (torch.isnan, ...): a bool tensor, never recorded."""

    def function(input):
        return make(np.asarray(numpy_test(np.asarray(to_tensor(input)._data))))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: a bool tensor, True where the element is so."
    return function


isnan, isinf, isfinite = (
    _test("isnan", np.isnan),
    _test("isinf", np.isinf),
    _test("isfinite", np.isfinite),
)
isposinf, isneginf = _test("isposinf", np.isposinf), _test("isneginf", np.isneginf)
signbit = _test("signbit", np.signbit)
isreal = _test("isreal", lambda a: np.ones(a.shape, bool) if a.dtype.kind != "c" else a.imag == 0)


# -- recorded gradients (create_graph=True): each rule again, with tensor ops -----------------


@rule(Reciprocal)
def _reciprocal(node, g):
    z = out(node)
    return -g * z * z


def _recorded_unary(derivative, saves="input"):
    def apply(node, g):
        (saved,) = node._saved
        x = inp(node, 0, saved) if saves == "input" else out(node)
        return g * derivative(x)

    return apply


@rule(Copy)
def _copy(node, g):
    shape, _ = node.info
    return g * 0, sum_to(g, shape)


rule(Exp)(_recorded_unary(lambda z: z, "output"))
rule(Log)(_recorded_unary(lambda a: 1 / a))
rule(Sqrt)(_recorded_unary(lambda z: 0.5 / z, "output"))
rule(Sin)(_recorded_unary(cos))
rule(Cos)(_recorded_unary(lambda a: -sin(a)))
rule(Tanh)(_recorded_unary(lambda z: 1 - z * z, "output"))
rule(Sigmoid)(_recorded_unary(lambda z: z * (1 - z), "output"))
rule(Log10)(_recorded_unary(lambda a: 1 / (a * math.log(10))))
rule(Log2)(_recorded_unary(lambda a: 1 / (a * math.log(2))))
rule(Log1p)(_recorded_unary(lambda a: 1 / (1 + a)))
rule(Expm1)(_recorded_unary(lambda z: z + 1, "output"))
rule(Exp2)(_recorded_unary(lambda z: z * math.log(2), "output"))
rule(Tan)(_recorded_unary(lambda z: 1 + z * z, "output"))
rule(Rsqrt)(_recorded_unary(lambda a: -0.5 * a**-1.5))


@rule(Abs)
def _abs(node, g):
    (a,) = node._saved
    return g * sgn(inp(node, 0, a))  # sgn of the input, recorded: differentiable again (to 0)


@rule(Sign, Floor, Ceil, Round, Trunc)
def _flat(node, g):
    return g * 0


@rule(Relu)
def _relu(node, g):
    return ThresholdBackward.apply(g, out(node))


class ThresholdBackward(Op):
    """z = g where the relu's output r > 0, else 0 (relu's gradient, recorded);  dz/dg = the
    same mask, dz/dr = 0."""

    _backward_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, g, r):
        ctx.info = r
        return np.where(r > 0, g, np.zeros((), np.result_type(g)))

    @staticmethod
    def backward(ctx, grad):
        r = ctx.info
        return np.where(r > 0, grad, np.zeros((), np.result_type(grad))), np.zeros(
            np.shape(r), np.result_type(grad)
        )


@rule(ThresholdBackward)
def _threshold_backward(node, g):
    r = node.info
    zero = make(np.zeros(np.shape(r), np.result_type(g._data)))
    return ThresholdBackward.apply(g, make(r)), zero


@rule(Clamp)
def _clamp(node, g):
    (a,) = node._saved
    lo, hi = node.info
    inside = np.ones(np.shape(a), bool)
    if lo is not None:
        inside &= a >= lo
    if hi is not None:
        inside &= a <= hi
    return g * mask(inside, g)
