"""Elementwise ops: arithmetic, powers, exp/log, trigonometry, rounding, clamps, comparisons;
one small class per op, its derivative in the docstring, then the functions and the rules
backward follows when it records itself (create_graph=True)."""

import math

import numpy as np

from ..function import FREED, FREED_MESSAGE
from ..higher import inp, mask, out, rule, sum_to
from ..tensor import Tensor, make
from .base import (
    _F32_SCALAR,
    _F64,
    _SCALARS,
    Op,
    _float,
    binary,
    dtype_word,
    into,
    result,
    shape_of,
    to_tensor,
    unbroadcast,
)


class Add(Op):
    """z = a + b;  dz/da = 1, dz/db = 1."""

    _backward_name = "AddBackward0"
    symbol = "+"

    @staticmethod
    def forward(ctx, a, b):
        out = a + b
        if type(out) is _F32_SCALAR:  # 0-d inputs, the float32 result: scalar code's case
            ctx.info = _SCALARS
            return out
        ctx.info = (a.shape, getattr(b, "shape", ()))  # kept after backward, as in PyTorch
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        if ctx.info is _SCALARS:  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(grad, b_shape)


class Sub(Op):
    """z = a - b;  dz/da = 1, dz/db = -1."""

    _backward_name = "SubBackward0"
    symbol = "-"

    @staticmethod
    def forward(ctx, a, b):
        out = a - b
        if type(out) is _F32_SCALAR:
            ctx.info = _SCALARS
            return out
        ctx.info = (a.shape, getattr(b, "shape", ()))
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        if isinstance(grad, np.generic):  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, -grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(-grad, b_shape)


class Rsub(Op):
    """z = c - a for a number c;  dz/da = -1."""

    _backward_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, c=0):
        ctx.info = c
        return result(c - a, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(Op):
    """z = a * b;  dz/da = b, dz/db = a."""

    _backward_name = "MulBackward0"
    symbol = "*"

    @staticmethod
    def forward(ctx, a, b):
        ctx._saved = (a, b)  # save_for_backward, without its call
        out = a * b
        if type(out) is _F32_SCALAR:
            return out
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        saved = ctx._saved  # saved_tensors, without its call
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        a, b = saved
        if type(grad) is _F32_SCALAR or isinstance(grad, np.generic):  # 0-d: nothing to sum
            return grad * b, grad * a
        return unbroadcast(grad * b, shape_of(a)), unbroadcast(grad * a, shape_of(b))


class Div(Op):
    """z = a / b;  dz/da = 1 / b, dz/db = -a / b²."""

    _backward_name = "DivBackward0"
    symbol = "/"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.true_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad / b, shape_of(a)), unbroadcast(-grad * a / (b * b), shape_of(b))


class Reciprocal(Op):
    """z = 1 / a;  dz/da = -1 / a² = -z²."""

    _backward_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = result(np.reciprocal(_float(a)), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * out * out


class Pow(Op):
    """z = a ** p for a number p;  dz/da = p * a ** (p - 1)."""

    _backward_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, p=1):
        ctx.save_for_backward(a)
        ctx.info = p
        return result(np.power(_float(a) if p < 0 or isinstance(p, float) else a, p), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        p = ctx.info
        return grad * (p * np.power(a, p - 1) if p != 0 else np.zeros_like(a))


class PowTensor(Op):
    """z = a ** b;  dz/da = b * a ** (b - 1), dz/db = z * log(a)."""

    _backward_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = result(np.power(_float(a), b), a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = grad * b * np.power(a, b - 1)
            gb = grad * out * np.where(a > 0, np.log(np.where(a > 0, a, 1)), np.nan)
        gb = np.where((a == 0) & (b >= 0), 0, gb)  # PyTorch's convention at a = 0
        return unbroadcast(ga, np.shape(a)), unbroadcast(gb.astype(out.dtype), np.shape(b))


class PowScalarBase(Op):
    """z = c ** b for a number c;  dz/db = z * log(c)."""

    _backward_name = "PowBackward2"

    @staticmethod
    def forward(ctx, b, c=1):
        out = np.asarray(result(np.power(c, _float(b)), b), order="C")  # row-major, as PyTorch
        ctx.save_for_backward(out)
        ctx.info = c
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * np.log(ctx.info).astype(out.dtype)


class Neg(Op):
    """z = -a;  dz/da = -1."""

    _backward_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, grad):
        return -grad


def _unary(name, fwd, chain, saves="input"):
    """An elementwise op z = f(a) whose gradient `chain(grad, a or z)` needs only a or z
    (written in PyTorch's order of operations, so it rounds as PyTorch's does)."""

    def forward(ctx, a):
        out = result(fwd(_float(a)), a)
        ctx.save_for_backward(a if saves == "input" else out)
        return out

    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return chain(grad, saved)

    doc = f"z = {name.removesuffix('Backward0').lower()}(a)."
    body = {
        "_backward_name": name,
        "forward": staticmethod(forward),
        "backward": staticmethod(backward),
        "__doc__": doc,
        "__module__": __name__,
    }
    return type(name.removesuffix("Backward0").capitalize(), (Op,), body)


def wide(f):
    """f computed in float64 and rounded once: PyTorch's float32 exp, sin, log, ... are (all
    but) correctly rounded, numpy's float32 loops are not (exp(12.) is one step below)."""

    def rounded(a):
        if a.dtype.itemsize >= 8:
            return f(a)
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
Abs = _unary("AbsBackward0", np.abs, lambda g, a: g * np.sign(a))  # dz/da = sign(a)
Sin = _unary("SinBackward0", wide_sin, lambda g, a: g * wide_cos(a))  # dz/da = cos(a)
Cos = _unary("CosBackward0", wide_cos, lambda g, a: g * -wide_sin(a))  # dz/da = -sin(a)
Tanh = _unary("TanhBackward0", wide_tanh, lambda g, z: g * (1 - z * z), saves="output")  # 1 - z²
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
Sign = _unary("SignBackward0", np.sign, _zero_slope)
Floor = _unary("FloorBackward0", np.floor, _zero_slope)
Ceil = _unary("CeilBackward0", np.ceil, _zero_slope)
Round = _unary("RoundBackward0", np.round, _zero_slope)
Trunc = _unary("TruncBackward0", np.trunc, _zero_slope)


class Relu(Op):
    """z = max(a, 0);  dz/da = 1 where a > 0, else 0."""

    _backward_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, a):
        if type(a) is _F32_SCALAR or isinstance(a, np.floating):
            # A numpy scalar, what ops on 0-d data return: comparing is ten times quicker than
            # the ufunc. NaN stays NaN and -0.0 becomes 0.0, as with np.maximum.
            out = type(a)(0) if a <= 0 else a
        else:
            out = np.maximum(a, 0).astype(np.result_type(a))
        ctx._saved = (out,)
        return out

    @staticmethod
    def backward(ctx, grad):
        saved = ctx._saved  # saved_tensors, without its call
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        return grad * (saved[0] > 0)


class Clamp(Op):
    """z = min(max(a, lo), hi);  dz/da = 1 inside [lo, hi], else 0."""

    _backward_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a)
        ctx.info = (lo, hi)
        return np.clip(a, lo, hi).astype(np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.info
        inside = np.ones(np.shape(a), dtype=bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return grad * inside


class ClampMin(Clamp):
    """z = a.clamp_min(lo);  dz/da = 1 where a >= lo, else 0."""

    _backward_name = "ClampMinBackward0"


class Where(Op):
    """z = a where cond else b;  dz/da = cond, dz/db = not cond."""

    _backward_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, a, b, cond=None):
        ctx.save_for_backward(cond)
        ctx.info = (np.shape(a), np.shape(b))
        return result(np.where(cond, a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        a_shape, b_shape = ctx.info
        zero = np.zeros((), dtype=np.result_type(grad))
        return (
            unbroadcast(np.where(cond, grad, zero), a_shape),
            unbroadcast(np.where(cond, zero, grad), b_shape),
        )


class Maximum(Op):
    """z = max(a, b) elementwise;  the gradient goes to the larger (split on ties)."""

    _backward_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.maximum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        return (
            unbroadcast(grad * share * (a >= b), np.shape(a)),
            unbroadcast(grad * share * (b >= a), np.shape(b)),
        )


class Minimum(Op):
    """z = min(a, b) elementwise;  the gradient goes to the smaller (split on ties)."""

    _backward_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.minimum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        return (
            unbroadcast(grad * share * (a <= b), np.shape(a)),
            unbroadcast(grad * share * (b <= a), np.shape(b)),
        )


class ToDtype(Op):
    """z = a converted to another dtype;  dz/da = 1, converted back."""

    _backward_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.info = np.result_type(a)
        return np.asarray(a).astype(dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad.astype(ctx.info)


class Clone(Op):
    """z = a copied;  dz/da = 1."""

    _backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Remainder(Op):
    """z = a mod b, with b's sign (Python's %);  dz/da = 1, dz/db = -floor(a / b)."""

    _backward_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.remainder(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad, shape_of(a)), unbroadcast(-grad * np.floor(a / b), np.shape(b))


class Fmod(Op):
    """z = a mod b, with a's sign (C's fmod);  dz/da = 1, dz/db = -trunc(a / b)."""

    _backward_name = "FmodBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.fmod(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad, shape_of(a)), unbroadcast(-grad * np.trunc(a / b), np.shape(b))


class FloorDivide(Op):
    """z = floor(a / b): PyTorch has no derivative for it (its node says NotImplemented)."""

    _backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        return result(np.floor_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'floor_divide' is not implemented.")


# -- the functions: torch.exp(x), torch.add(a, b, out=...), ... ------------------------------


def add(input, other, *, alpha=1, out=None):
    result = binary(Add, to_tensor(input), other if alpha == 1 else other * alpha)
    return result if out is None else into(out, result, "add")


def sub(input, other, *, alpha=1, out=None):
    result = binary(Sub, to_tensor(input), other if alpha == 1 else other * alpha)
    return result if out is None else into(out, result, "sub")


def mul(input, other, *, out=None):
    result = binary(Mul, to_tensor(input), other)
    return result if out is None else into(out, result, "mul")


def div(input, other, *, rounding_mode=None, out=None):
    result = binary(Div, to_tensor(input), other)
    if rounding_mode is not None:
        result = _round_quotient(result, rounding_mode, input, other)
    return result if out is None else into(out, result, "div")


def _round_quotient(result, mode, a, b):
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    rounded = (Trunc if mode == "trunc" else Floor).apply(result)
    kinds = [np.result_type(getattr(x, "_data", x)).kind for x in (a, b)]
    ints = all(k in "biu" for k in kinds)
    return (
        rounded.to(np.result_type(*[getattr(x, "_data", x) for x in (a, b)])) if ints else rounded
    )


def pow(input, exponent, *, out=None):
    if not isinstance(input, Tensor):
        result = PowScalarBase.apply(exponent, c=input)
    elif isinstance(exponent, Tensor):
        result = binary(PowTensor, input, exponent)
    else:
        result = Pow.apply(input, p=exponent)
    return result if out is None else into(out, result, "pow")


def square(input, *, out=None):
    return pow(input, 2, out=out)


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
    """sign, floor, ceil, round, trunc: integer tensors come back unchanged in dtype."""
    pointwise = _pointwise(op)

    def function(input, *, out=None):
        if np.result_type(input._data).kind in "biu":
            data = input._data if op is not Sign else np.sign(input._data)
            result = make(np.array(data))
            return result if out is None else into(out, result, pointwise.__name__)
        return pointwise(input, out=out)

    function.__name__ = function.__qualname__ = pointwise.__name__
    function.__doc__ = pointwise.__doc__
    return function


sign = _rounding(Sign)
floor = _rounding(Floor)
ceil = _rounding(Ceil)
round = _rounding(Round)
trunc = _rounding(Trunc)


def clamp(input, min=None, max=None, *, out=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    result = Clamp.apply(input, lo=_number(min), hi=_number(max))
    return result if out is None else into(out, result, "clamp")


clip = clamp


def _number(bound):
    return bound.item() if isinstance(bound, Tensor) else bound


def clamp_min(input, min):
    return ClampMin.apply(input, lo=_number(min), hi=None)


def where(condition, input=None, other=None):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if input is None and other is None:
        return tuple(make(i) for i in np.nonzero(cond))  # torch.where(c): nonzero's tuple
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{dtype_word(cond)}"
        )
    return Where.apply(input, other, cond=cond)


def maximum(input, other, *, out=None):
    result = binary(Maximum, input, other)
    return result if out is None else into(out, result, "maximum")


def minimum(input, other, *, out=None):
    result = binary(Minimum, input, other)
    return result if out is None else into(out, result, "minimum")


def clone(input):
    return Clone.apply(input)


# -- comparisons, as functions and methods (`torch.eq(a, b)`, `a.eq(b)`) ------------------------
def _compare(name, operator):
    def function(input, other, *, out=None):
        result = operator(input, other)
        return result if out is None else into(out, result, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: elementwise, a bool tensor."
    return function


eq = _compare("eq", Tensor.__eq__)


ne = _compare("ne", Tensor.__ne__)


lt = _compare("lt", Tensor.__lt__)


le = _compare("le", Tensor.__le__)


gt = _compare("gt", Tensor.__gt__)


ge = _compare("ge", Tensor.__ge__)


greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def _binary(op, name):
    def function(input, other, *, out=None):
        if not isinstance(input, Tensor):
            input = make(np.asarray(input))
        result = binary(op, input, other)
        return result if out is None else into(out, result, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


remainder = _binary(Remainder, "remainder")


fmod = _binary(Fmod, "fmod")


floor_divide = _binary(FloorDivide, "floor_divide")


def _reflected(function):
    def method(self, other):
        return function(other if isinstance(other, Tensor) else make(np.asarray(other)), self)

    return method


rremainder, rfloor_divide = _reflected(remainder), _reflected(floor_divide)  # 5 % x, 5 // x


def type_as(self, other):
    return self.to(other.dtype)


def equal(input, other) -> bool:
    """True when both have the same shape and the same values (dtypes may differ)."""
    a, b = np.asarray(input._data), np.asarray(other._data)
    return a.shape == b.shape and bool(np.all(a == b))


_DTYPE_WORDS = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long"}


def _same_dtype(a, b) -> None:
    ta, tb = np.result_type(a._data), np.result_type(b._data)
    if ta != tb:
        words = [_DTYPE_WORDS.get(t.name, t.name) for t in (ta, tb)]
        raise RuntimeError(f"{words[0]} did not match {words[1]}")


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise."""
    other = other if isinstance(other, Tensor) else make(np.asarray(other))
    _same_dtype(input, other)
    close = np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return make(np.asarray(close))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.all(isclose(input, other, rtol, atol, equal_nan)._data))


# -- recorded gradients (create_graph=True): each rule again, with tensor ops -----------------


# -- the rules: z = f(inputs), grad = dL/dz; each returns dL/d input ----------------------------
@rule(Add)
def _add(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(g, b_shape)


@rule(Sub)
def _sub(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(-g, b_shape)


@rule(Rsub, Neg)
def _neg(node, g):
    return -g


@rule(Mul)
def _mul(node, g):
    a, b = node._saved
    return sum_to(g * inp(node, 1, b), np.shape(a)), sum_to(g * inp(node, 0, a), np.shape(b))


@rule(Div)
def _div(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g / B, np.shape(a)), sum_to(-g * A / (B * B), np.shape(b))


@rule(Reciprocal)
def _reciprocal(node, g):
    z = out(node)
    return -g * z * z


@rule(Pow)
def _pow(node, g):
    (a,) = node._saved
    p = node.info
    return g * (p * inp(node, 0, a) ** (p - 1)) if p != 0 else g * 0


@rule(PowTensor)
def _pow_tensor(node, g):
    a, b, _ = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g * B * A ** (B - 1), np.shape(a)), sum_to(g * out(node) * log(A), np.shape(b))


def _recorded_unary(derivative, saves="input"):
    def apply(node, g):
        (saved,) = node._saved
        x = inp(node, 0, saved) if saves == "input" else out(node)
        return g * derivative(x)

    return apply


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
    return g * mask(np.sign(a), g)


@rule(Sign, Floor, Ceil, Round, Trunc)
def _flat(node, g):
    return g * 0


@rule(Relu)
def _relu(node, g):
    (z,) = node._saved
    return g * mask(z > 0, g)


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


@rule(Where)
def _where(node, g):
    (cond,) = node._saved
    a_shape, b_shape = node.info
    return sum_to(g * mask(cond, g), a_shape), sum_to(g * mask(~cond, g), b_shape)


@rule(Maximum, Minimum)
def _extreme(node, g):
    a, b = node._saved
    share = np.where(a == b, 0.5, 1.0)
    wins = (a >= b) if type(node)._forward_cls is Maximum else (a <= b)
    loses = (b >= a) if type(node)._forward_cls is Maximum else (b <= a)
    return (
        sum_to(g * mask(share * wins, g), np.shape(a)),
        sum_to(g * mask(share * loses, g), np.shape(b)),
    )


@rule(ToDtype)
def _to(node, g):
    return g.to(node.info)


@rule(Clone)
def _identity(node, g):
    return g
