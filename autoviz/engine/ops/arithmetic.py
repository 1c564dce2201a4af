"""Two-input elementwise ops: arithmetic, powers, remainders, extremes, `where`, comparisons;
one small class per op, its derivative in the docstring, then the functions and the rules
backward follows when it records itself (create_graph=True)."""

import numpy as np

from ..dtypes import result_type
from ..fidelity.fma import fma32, fma64
from ..function import FREED, FREED_MESSAGE
from ..higher import inp, mask, out, rule, sum_to
from ..tensor import Tensor, make
from . import pointwise
from .arguments import row_major
from .base import (
    _F32_SCALAR,
    _SCALARS,
    Op,
    _float,
    binary,
    check_broadcast,
    dtype_word,
    into,
    need_tensor,
    refuse_bool,
    result,
    shape_of,
    to_tensor,
    type_word,
    unbroadcast,
    writes_out,
)


def _same(dtype, a, b) -> bool:
    """Whether numpy's result dtype is already PyTorch's: both inputs have it (or b is a
    Python number that did not change it), the usual case."""
    return dtype is a.dtype and dtype is getattr(b, "dtype", dtype)


class Add(Op):
    """z = a + b;  dz/da = 1, dz/db = 1."""

    _backward_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        out = a + b
        if (
            type(out) is _F32_SCALAR and type(a) is _F32_SCALAR
        ):  # 0-d inputs, the float32 result: scalar code's case
            ctx.info = _SCALARS
            return out
        ctx.info = (a.shape, getattr(b, "shape", ()))  # kept after backward, as in PyTorch
        return out if _same(out.dtype, a, b) else result(out, a, b)

    @staticmethod
    def backward(ctx, grad):
        if ctx.info is _SCALARS:  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(grad, b_shape)


class Sub(Op):
    """z = a - b;  dz/da = 1, dz/db = -1."""

    _backward_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        try:
            out = a - b
        except TypeError:  # numpy's word for bool - bool
            refuse_bool_sub(a, b)
            raise
        if type(out) is _F32_SCALAR and type(a) is _F32_SCALAR and type(b) in _NUMBERS:
            ctx.info = _SCALARS
            return out
        refuse_bool_sub(a, b)
        ctx.info = (a.shape, getattr(b, "shape", ()))
        return out if _same(out.dtype, a, b) else result(out, a, b)

    @staticmethod
    def backward(ctx, grad):
        if isinstance(grad, np.generic):  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, -grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(-grad, b_shape)


class AddAlpha(Op):
    """z = a + alpha·b, rounded once (torch's kernel is a fused multiply-add);  dz/da = 1,
    dz/db = alpha."""

    _backward_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.info = (shape_of(a), shape_of(b), alpha)
        return result(fused(b, alpha, a), a, b)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape, alpha = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(grad * alpha, b_shape)


class SubAlpha(AddAlpha):
    """z = a - alpha·b, rounded once;  dz/da = 1, dz/db = -alpha."""

    _backward_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        refuse_bool_sub(a, b)
        return AddAlpha.forward(ctx, a, b, alpha=-alpha)


def fused(a, b, c):
    """a·b + c with one rounding for float32 and float64 (the FMA of torch's CPU kernels),
    broadcast; integers exactly; `b` a number."""
    a, c = np.asarray(a), np.asarray(c)
    kind = np.result_type(a, c)
    if kind not in (np.float32, np.float64):
        return a * b + c
    a, c = np.broadcast_arrays(a.astype(kind, copy=False), c.astype(kind, copy=False))
    if kind == np.float32:
        return fma32(a, np.float32(b), c)
    return fma64(a, b, c)


_NUMBERS = (_F32_SCALAR, float, int)  # what a float32 scalar's fast subtraction may meet


def _is_bool(x) -> bool:
    return isinstance(x, bool) or getattr(x, "dtype", None) == np.bool_


def refuse_bool_sub(a, b) -> None:
    """PyTorch refuses `-` with a bool operand, and says what to use instead."""
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


class RsubTensor(Op):
    """z = b - alpha·a, `a.__rsub__(b)` for a tensor b;  dz/da = -alpha, dz/db = 1."""

    _backward_name = "RsubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        refuse_bool_sub(a, b)
        ctx.info = (shape_of(a), shape_of(b), alpha)
        return result(b - a * alpha if alpha != 1 else b - a, a, b)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape, alpha = ctx.info
        return unbroadcast(-grad * alpha, a_shape), unbroadcast(grad, b_shape)


def rsub(input, other, *, alpha=1):
    """torch.rsub: other - alpha × input (`x.__rsub__`, what `2 - x` calls)."""
    need_tensor("rsub", input)
    if isinstance(other, Tensor):
        return RsubTensor.apply(input, other, alpha=alpha)
    return Rsub.apply(input, c=other) if alpha == 1 else Rsub.apply(input * alpha, c=other)


class Rsub(Op):
    """z = c - a for a number c;  dz/da = -1."""

    _backward_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, c=0):
        if type(a) is not _F32_SCALAR:  # scalar code's `1 - x` skips the check
            refuse_bool_sub(a, c)
        ctx.info = c
        return result(c - a, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(Op):
    """z = a * b;  dz/da = b, dz/db = a."""

    _backward_name = "MulBackward0"
    _saved_names = ("self", "other")
    _saved_for = (("self", 1), ("other", 0))  # torch keeps each for the other's gradient only

    @staticmethod
    def forward(ctx, a, b):
        ctx._saved = (a, b)  # save_for_backward, without its call
        out = a * b
        if type(out) is _F32_SCALAR and type(a) is _F32_SCALAR:
            return out
        return out if _same(out.dtype, a, b) else result(out, a, b)

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
    _saved_names = ("self", "other")
    _saved_for = (("self", 1),)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.true_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # dz/db as torch's div_tensor_other_backward rounds it: -g · ((a / b) / b)
        return unbroadcast(grad / b, shape_of(a)), unbroadcast(-grad * ((a / b) / b), shape_of(b))


def _integral(x) -> bool:
    dtype = getattr(x, "dtype", None)
    return dtype.kind in "biu" if dtype is not None else isinstance(x, int)


def power(a, p):
    """a ** p for a number p as PyTorch's kernel computes it: products and a square root for
    the exponents it special-cases (so x ** 3 is x * x * x, x ** -0.5 is 1 / sqrt(x)), else
    float32 and float16 through float64 (nearer torch's vectorised pow than numpy's powf)."""
    x = np.asarray(a)
    if x.dtype.kind != "f":
        return np.power(x, p)
    special = _POWERS.get(p)
    if special is not None:
        return special(x)
    if x.dtype.itemsize < 8:
        return np.power(x.astype(np.float64), p).astype(x.dtype)
    return np.power(x, p)


_POWERS = {
    2: lambda x: x * x,
    3: lambda x: x * x * x,
    0.5: np.sqrt,
    -0.5: lambda x: np.reciprocal(np.sqrt(x)),
    -1: np.reciprocal,
    -2: lambda x: np.reciprocal(x * x),
}


def integer_power(a, b):
    """PyTorch's a ** b on integers and bools: in the promoted dtype, wrapping as C does, and
    for b < 0: 1 where a is 1, ±1 where a is -1, else 0."""
    dtype = result_type(a, b)
    if dtype == np.bool_:
        return np.asarray(np.logical_or(a, np.logical_not(b)))  # a ** True is a, ** False 1
    a, b = np.asarray(a).astype(dtype), np.asarray(b)
    with np.errstate(over="ignore"):
        out = np.power(a, np.where(b < 0, 0, b).astype(np.int64)).astype(dtype)
    if (b < 0).any():
        odd = np.where(np.asarray(b) % 2 == 1, -1, 1).astype(dtype)
        negative = np.where(a == 1, 1, np.where(a == -1, odd, 0)).astype(dtype)
        out = np.where(b < 0, negative, out)
    return np.asarray(out)


class Pow(Op):
    """z = a ** p for a number p;  dz/da = p * a ** (p - 1)."""

    _backward_name = "PowBackward0"
    _saved_names = ("self",)
    _saved_number = "exponent"

    @staticmethod
    def forward(ctx, a, p=1):
        ctx.save_for_backward(a)
        ctx.info = p
        if isinstance(p, int) and _integral(a):
            if p < 0 and np.result_type(a).kind != "b":
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            return integer_power(a, p)
        return result(power(_float(a) if p < 0 or isinstance(p, float) else a, p), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        p = ctx.info
        if p == 0:  # PyTorch's zeros (0.0, whatever the gradient's sign)
            return np.zeros(np.shape(a), np.result_type(grad))
        return grad * (p * power(a, p - 1))


class PowTensor(Op):
    """z = a ** b;  dz/da = b * a ** (b - 1), dz/db = z * log(a)."""

    _backward_name = "PowBackward1"
    _saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx, a, b):
        if _integral(a) and _integral(b):
            if np.result_type(a).kind == np.result_type(b).kind == "b":
                raise NotImplementedError("\"pow\" not implemented for 'Bool'")
            out = integer_power(a, b)
        else:
            out = result(np.power(_float(a), b), a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = grad * b * np.power(a, b - 1)
            log_a = pointwise.wide_log(np.where(a > 0, a, 1).astype(out.dtype))
            gb = grad * out * np.where(a > 0, log_a, np.nan)
        gb = np.where((a == 0) & (b >= 0), 0, gb)  # PyTorch's convention at a = 0
        return unbroadcast(ga, np.shape(a)), unbroadcast(gb.astype(out.dtype), np.shape(b))


class PowScalarBase(Op):
    """z = c ** b for a number c;  dz/db = z * log(c)."""

    _backward_name = "PowBackward2"

    @staticmethod
    def forward(ctx, b, c=1):
        if isinstance(c, int) and _integral(b):
            out = integer_power(c, b)
        else:
            out = result(np.power(c, _float(b)), b)
        out = np.asarray(out, order="C")  # row-major, as PyTorch
        ctx.save_for_backward(out)
        ctx.info = c
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * np.log(ctx.info).astype(out.dtype)


class Where(Op):
    """z = a where cond else b;  dz/da = cond, dz/db = not cond."""

    _backward_name = "WhereBackward0"
    _saved_names = ("condition",)

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
    _saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.maximum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        zero = np.zeros((), np.result_type(grad))
        return (
            unbroadcast(np.where(a >= b, grad * share, zero), np.shape(a)),  # +0.0, as torch
            unbroadcast(np.where(b >= a, grad * share, zero), np.shape(b)),
        )


class Minimum(Op):
    """z = min(a, b) elementwise;  the gradient goes to the smaller (split on ties)."""

    _backward_name = "MinimumBackward0"
    _saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.minimum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        zero = np.zeros((), np.result_type(grad))
        return (
            unbroadcast(np.where(a <= b, grad * share, zero), np.shape(a)),  # +0.0, as torch
            unbroadcast(np.where(b <= a, grad * share, zero), np.shape(b)),
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
    def forward(ctx, a, order="K"):
        return np.array(a, copy=True, order=order)

    @staticmethod
    def backward(ctx, grad):
        return grad


def refuse_integer_zero(a, b) -> None:
    """torch's integer division, floor division and remainder refuse a zero divisor."""
    if np.result_type(a, b).kind in "iu" and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


class Remainder(Op):
    """z = a mod b, with b's sign (Python's %);  dz/da = 1, dz/db = -floor(a / b)."""

    _backward_name = "RemainderBackward0"
    _saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        refuse_integer_zero(a, b)
        return result(np.remainder(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad, shape_of(a)), unbroadcast(-grad * np.floor(a / b), np.shape(b))


class Fmod(Op):
    """z = a mod b, with a's sign (C's fmod);  dz/da = 1, dz/db = -trunc(a / b)."""

    _backward_name = "FmodBackward0"
    _saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        refuse_integer_zero(a, b)
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
        refuse_integer_zero(a, b)
        return result(np.floor_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Heaviside(Op):
    """z = 0 below zero, 1 above, `values` at zero: PyTorch has no derivative for it."""

    _backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, v):
        return np.asarray(np.heaviside(a, v).astype(np.result_type(a, v)))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


def _elementwise(name, forward, grads, doc, integers="float"):
    """A two-input elementwise op z = forward(a, b) whose gradients are
    `grads(g, a, b, z) -> (dL/da, dL/db)` before the broadcast sum. On two integer (or bool)
    inputs it computes in float32 (`integers="float"`), in their dtype ("keep") or, as
    PyTorch's kernel, not at all ("refuse")."""

    def fwd(ctx, a, b):
        if integers != "float" and _integral(a) and _integral(b):
            if integers == "refuse":
                word = type_word(np.result_type(a, b))
                raise NotImplementedError(f"\"{kernel}\" not implemented for '{word}'")
            data = forward(a, b)
        else:
            data = forward(_float(a), _float(b))
        out = np.asarray(result(data, a, b))
        ctx.save_for_backward(a, b, out)
        return out

    def backward(ctx, grad):
        a, b, z = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            ga, gb = grads(grad, a, b, z)
        dtype = np.result_type(grad)
        return (
            unbroadcast(np.asarray(ga, dtype), shape_of(a)),
            unbroadcast(np.asarray(gb, dtype), np.shape(b)),
        )

    kernel = f"{name.removesuffix('Backward0').lower()}_cpu"
    body = {"_backward_name": name, "forward": staticmethod(fwd)}
    body.update({"backward": staticmethod(backward), "__doc__": doc, "__module__": __name__})
    return type(name.removesuffix("Backward0"), (Op,), body)


def _xlogy(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((a == 0) & ~np.isnan(b), 0, a * np.log(b))


def _lse2_grads(g, a, b, z, base=1.0):
    return g / (1 + np.exp2((b - a) * base)), g / (1 + np.exp2((a - b) * base))


def _fmax_grads(g, a, b, z, wins):
    first = wins(a, b) | np.isnan(b)
    return np.where(first, g, 0), np.where(first, 0, g)


Atan2 = _elementwise(
    "Atan2Backward0",
    np.arctan2,
    lambda g, a, b, z: (g * b / (a * a + b * b), g * -a / (a * a + b * b)),
    "z = atan2(a, b);  dz/da = b / (a² + b²), dz/db = -a / (a² + b²).",
)
Hypot = _elementwise(
    "HypotBackward0",
    np.hypot,
    lambda g, a, b, z: (g * a / z, g * b / z),
    "z = √(a² + b²);  dz/da = a / z, dz/db = b / z.",
    integers="refuse",
)
Logaddexp = _elementwise(
    "LogaddexpBackward0",
    np.logaddexp,
    lambda g, a, b, z: (g / (1 + np.exp(b - a)), g / (1 + np.exp(a - b))),
    "z = log(exp(a) + exp(b));  dz/da = 1 / (1 + exp(b - a)), dz/db = 1 / (1 + exp(a - b)).",
)
Logaddexp2 = _elementwise(
    "Logaddexp2Backward0",
    np.logaddexp2,
    lambda g, a, b, z: (g / (1 + np.exp2(b - a)), g / (1 + np.exp2(a - b))),
    "z = log2(2^a + 2^b);  dz/da = 1 / (1 + 2^(b - a)), dz/db = 1 / (1 + 2^(a - b)).",
)
Xlogy = _elementwise(
    "XlogyBackward0",
    _xlogy,
    lambda g, a, b, z: (np.where((a == 0) & (b <= 0), 0, _xlogy(g, b)), g * a / b),
    "z = a·log(b) (0 where a = 0);  dz/da = log(b), dz/db = a / b.",
)
Copysign = _elementwise(
    "CopysignBackward0",
    np.copysign,
    lambda g, a, b, z: (g * np.where(a == 0, 0, z / np.where(a == 0, 1, a)), np.zeros_like(g)),
    "z = |a| with the sign of b;  dz/da = z / a (0 at a = 0), dz/db = 0.",
)
Fmax = _elementwise(
    "FmaxBackward0",
    np.fmax,
    lambda g, a, b, z: _fmax_grads(g, a, b, z, np.greater_equal),
    "z = max(a, b), NaN losing to a number;  the gradient goes to the one taken.",
    integers="keep",
)
Fmin = _elementwise(
    "FminBackward0",
    np.fmin,
    lambda g, a, b, z: _fmax_grads(g, a, b, z, np.less_equal),
    "z = min(a, b), NaN losing to a number;  the gradient goes to the one taken.",
    integers="keep",
)


class Lerp(Op):
    """z = a + w (b - a);  dz/da = 1 - w, dz/db = w, dz/dw = b - a."""

    _backward_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, a, b, w):
        ctx.save_for_backward(a, b, w)
        kind = np.result_type(a, b)
        if not isinstance(w, np.ndarray):
            w = kind.type(w) if kind.kind in "fc" else w
        diff = b - a
        # PyTorch's kernel: from a for small weights, from b for large ones (exact at w = 1),
        # each a fused multiply-add
        fma = {"float32": fma32, "float64": fma64}.get(kind.name)
        if fma is None:
            out = np.where(np.abs(w) < 0.5, a + w * diff, b - diff * (1 - w))
        else:
            w = np.asarray(w, kind)
            out = np.where(np.abs(w) < 0.5, fma(w, diff, a), fma(-diff, 1 - w, b))
        return np.asarray(result(out, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b, w = ctx.saved_tensors
        return (
            unbroadcast(grad * (1 - w), shape_of(a)),
            unbroadcast(grad * w, shape_of(b)),
            unbroadcast(grad * (b - a), np.shape(w)) if ctx.needs_input_grad[2] else None,
        )


class Addcmul(Op):
    """z = a + v·b·c for a number v;  dz/da = 1, dz/db = v·c, dz/dc = v·b."""

    _backward_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, a, b, c, value=1):
        ctx.save_for_backward(b, c)
        kind = np.result_type(result(np.multiply(b, c), a, b, c))
        v = kind.type(value)
        ctx.info = (np.shape(a), np.shape(b), np.shape(c), v)
        # torch's kernel: self + value * tensor1 * tensor2, the last two steps one fused
        # multiply-add where it vectorises (float32 and float64)
        scaled = np.multiply(v, b, dtype=kind)
        fma = {"float32": fma32, "float64": fma64}.get(kind.name)
        if fma is not None:
            shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
            parts = (np.broadcast_to(x, shape).astype(kind) for x in (scaled, c, a))
            return np.asarray(fma(*parts), dtype=kind)
        return np.asarray(np.add(a, np.multiply(scaled, c)), dtype=kind)

    @staticmethod
    def backward(ctx, grad):
        b, c = ctx.saved_tensors
        sa, sb, sc, v = ctx.info
        need = ctx.needs_input_grad
        return (
            unbroadcast(grad, sa),
            unbroadcast(grad * (c * v), sb) if need[1] else None,
            unbroadcast(grad * (b * v), sc) if need[2] else None,
        )


class Addcdiv(Op):
    """z = a + v·b / c for a number v;  dz/da = 1, dz/db = v / c, dz/dc = -v·b / c²."""

    _backward_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, a, b, c, value=1):
        ctx.save_for_backward(b, c)
        kind = np.result_type(result(np.true_divide(b, c), a, b, c))
        v = kind.type(value)
        ctx.info = (np.shape(a), np.shape(b), np.shape(c), v)
        # torch's kernel: self + value * tensor1 / tensor2, left to right
        return np.asarray(np.add(a, np.true_divide(np.multiply(v, b), c)), dtype=kind)

    @staticmethod
    def backward(ctx, grad):
        b, c = ctx.saved_tensors
        sa, sb, sc, v = ctx.info
        need = ctx.needs_input_grad
        return (
            unbroadcast(grad, sa),
            unbroadcast(grad * (v / c), sb) if need[1] else None,
            unbroadcast(-grad * (v * b / (c * c)), sc) if need[2] else None,
        )


class LerpScalar(Lerp):
    """z = a + w (b - a) for a number w."""

    _backward_name = "LerpBackward0"


# -- the functions: torch.add(a, b, out=...), torch.where(c, a, b), ... ---------------------


def add(input, other, *, alpha=1, out=None):
    result = _scaled(AddAlpha, Add, to_tensor(input), other, alpha)
    return result if out is None else into(out, result, "add")


def sub(input, other, *, alpha=1, out=None):
    result = _scaled(SubAlpha, Sub, to_tensor(input), other, alpha)
    return result if out is None else into(out, result, "sub")


def _scaled(fused_op, op, input, other, alpha):
    """input ± alpha·other: one node, and one rounding, for a tensor `other`."""
    if alpha != 1 and isinstance(other, Tensor):
        return fused_op.apply(input, other, alpha=alpha)
    return binary(op, input, other if alpha == 1 else other * alpha)


def mul(input, other, *, out=None):
    result = binary(Mul, to_tensor(input), other)
    return result if out is None else into(out, result, "mul")


def div(input, other, *, rounding_mode=None, out=None):
    if rounding_mode is None:
        result = binary(Div, to_tensor(input), other)
    else:
        result = _round_quotient(to_tensor(input), other, rounding_mode)
    return result if out is None else into(out, result, "div")


def _round_quotient(a, b, mode):
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    return DivRounded.apply(a, b, mode=mode)


class DivRounded(Op):
    """z = a / b rounded toward zero or down; integers stay integers;  dz/da = dz/db = 0."""

    _backward_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, mode="trunc"):
        ctx.info = (shape_of(a), np.shape(b), np.result_type(a, b))
        ints = np.result_type(a, b).kind in "biu"
        refuse_integer_zero(a, b)
        if ints and mode == "floor":
            return np.asarray(np.floor_divide(a, b))
        with np.errstate(divide="ignore", invalid="ignore"):
            q = result(np.true_divide(a, b), a, b)
            q = np.trunc(q) if mode == "trunc" else np.floor(q)
        return np.asarray(q.astype(np.result_type(a, b)) if ints else q)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape, _ = ctx.info
        dtype = np.result_type(grad)
        return np.zeros(a_shape, dtype), np.zeros(b_shape, dtype)


def pow(input, exponent, *, out=None):
    if not isinstance(exponent, Tensor):
        need_tensor("pow", input)
    if not isinstance(input, Tensor):
        result = PowScalarBase.apply(exponent, c=input)
    elif isinstance(exponent, Tensor):
        result = binary(PowTensor, input, exponent)
    else:
        result = Pow.apply(input, p=exponent)
    return result if out is None else into(out, result, "pow")


def square(input, *, out=None):
    return pow(input, 2, out=out)


def where(condition, input=None, other=None):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if input is None and other is None:
        return tuple(make(i) for i in np.nonzero(cond))  # torch.where(c): nonzero's tuple
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{dtype_word(cond)}"
        )
    _broadcast_in_order(cond, input, other)
    return Where.apply(input, other, cond=cond)


def _broadcast_in_order(*values) -> None:
    """torch's error for operands that do not broadcast, found as its TensorIterator finds
    it: each operand against the shape of those before it."""
    shape = ()
    for v in values:
        other = np.shape(getattr(v, "_data", v))
        try:
            shape = np.broadcast_shapes(shape, other)
        except ValueError:
            check_broadcast(np.broadcast_to(0, shape), np.broadcast_to(0, other))


def maximum(input, other, *, out=None):
    need_tensor("maximum", input)
    need_tensor("maximum", other, 2, "other")
    result = binary(Maximum, input, other)
    return result if out is None else into(out, result, "maximum")


def minimum(input, other, *, out=None):
    need_tensor("minimum", input)
    need_tensor("minimum", other, 2, "other")
    result = binary(Minimum, input, other)
    return result if out is None else into(out, result, "minimum")


def clone(input, *, memory_format=None):
    """A copy in the input's own layout (torch's preserve_format), or row-major for
    memory_format=torch.contiguous_format."""
    return Clone.apply(input, order="C" if row_major(memory_format) else "K")


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


def _binary(op, name, tensor_other=False):
    """torch.name(input, other): `other` a tensor or, unless `tensor_other`, a number."""

    def function(input, other, *, out=None):
        need_tensor(name, input)
        if tensor_other:
            need_tensor(name, other, 2, "other")
        result = binary(op, input, other)
        return result if out is None else into(out, result, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


atan2, hypot = _binary(Atan2, "atan2", True), _binary(Hypot, "hypot", True)
logaddexp = _binary(Logaddexp, "logaddexp", True)
logaddexp2 = _binary(Logaddexp2, "logaddexp2", True)


def with_numbers(op, name, first=None, second=None):
    """torch.name(input, other) where a side may be a Python number, as torch's overloads
    allow: `first` and `second` are the digit of the node torch records for a number there
    (`xlogy(2., x)` records XlogyBackward1), None where torch takes only a tensor."""
    stem = op._backward_cls.__name__.removesuffix("0")
    kinds = {
        i: type(op.__name__, (op,), {"_backward_name": f"{stem}{i}", "__module__": op.__module__})
        for i in {first, second} - {None}
    }

    def function(input, other, *, out=None):
        number = not isinstance(input, Tensor), not isinstance(other, Tensor)
        if number[0] and (first is None or number[1]):
            need_tensor(name, input)
        if number[1] and second is None:
            need_tensor(name, other, 2, "other")
        chosen = kinds[first] if number[0] else kinds[second] if number[1] else op
        z = chosen.apply(input, other)
        return z if out is None else into(out, z, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


xlogy = with_numbers(Xlogy, "xlogy", first=1, second=2)
copysign = with_numbers(Copysign, "copysign", second=1)
fmax, fmin = _binary(Fmax, "fmax", True), _binary(Fmin, "fmin", True)
arctan2 = atan2


def lerp(input, end, weight, *, out=None):
    """input + weight · (end - input); weight a number or a tensor."""
    op = Lerp if isinstance(weight, Tensor) else LerpScalar
    result = op.apply(to_tensor(input), to_tensor(end), weight)
    return result if out is None else into(out, result, "lerp")


def float_power(input, exponent, *, out=None):
    """input ** exponent computed in float64, as torch.float_power does."""
    if not isinstance(exponent, Tensor):
        need_tensor("float_power", input)
    base = to_tensor(input).double()
    power = exponent.double() if isinstance(exponent, Tensor) else float(exponent)
    result = pow(base, power)
    return result if out is None else into(out, result, "float_power")


def _bits(name, function, kinds="biu"):
    """A bitwise or logical op on integer or bool tensors: never recorded."""

    def op(input, other=None, *, out=None):
        need_tensor(name, input)
        if (name.startswith("logical") or name in ("gcd", "lcm")) and other is not None:
            need_tensor(name, other, 2, "other")
        a = np.asarray(input._data)
        args = (a,) if other is None else (a, getattr(other, "_data", other))
        for x in args:
            if np.result_type(x).kind not in kinds:
                raise NotImplementedError(f"\"{kernel}\" not implemented for '{type_word(x)}'")
        data = np.asarray(function(*args))
        logical = name.startswith("logical")
        made = make(data if logical or other is None else result(data, *args))
        return made if out is None else into(out, made, name)

    kernel = {"bitwise_left_shift": "lshift_cpu", "bitwise_right_shift": "rshift_cpu"}.get(
        name, f"{name}_cpu"
    )

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"torch.{name}: elementwise, on integer and bool tensors."
    return op


bitwise_and = _bits("bitwise_and", np.bitwise_and)
bitwise_or = _bits("bitwise_or", np.bitwise_or)
bitwise_xor = _bits("bitwise_xor", np.bitwise_xor)
bitwise_not = _bits("bitwise_not", np.invert)
bitwise_left_shift = _bits("bitwise_left_shift", np.left_shift, "iu")
bitwise_right_shift = _bits("bitwise_right_shift", np.right_shift, "iu")
logical_and = _bits("logical_and", np.logical_and, "biuf")
logical_or = _bits("logical_or", np.logical_or, "biuf")
logical_xor = _bits("logical_xor", np.logical_xor, "biuf")
logical_not = _bits("logical_not", np.logical_not, "biuf")


def heaviside(input, values, *, out=None):
    """0 below zero, 1 above, `values` at zero."""
    need_tensor("heaviside", input)
    need_tensor("heaviside", values, 2, "values")
    result = Heaviside.apply(input, values)
    return result if out is None else into(out, result, "heaviside")


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value · tensor1 · tensor2, one AddcmulBackward0 node as in PyTorch."""
    result = Addcmul.apply(to_tensor(input), tensor1, tensor2, value=value)
    return result if out is None else into(out, result, "addcmul")


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value · tensor1 / tensor2, one AddcdivBackward0 node as in PyTorch."""
    if all(np.result_type(getattr(t, "_data", t)).kind in "biu" for t in (tensor1, tensor2)):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )
    result = Addcdiv.apply(to_tensor(input), tensor1, tensor2, value=value)
    return result if out is None else into(out, result, "addcdiv")


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
    need_tensor("isclose", input)
    need_tensor("isclose", other, 2, "other")
    other = other if isinstance(other, Tensor) else make(np.asarray(other))
    for name, value in (("rtol", rtol), ("atol", atol)):
        if value < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {value}")
    _same_dtype(input, other)
    close = np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return make(np.asarray(close))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.all(isclose(input, other, rtol, atol, equal_nan)._data))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """Differences of neighbours along dim, n times (prepend/append joined first)."""
    from . import indexing, shape

    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    parts = [t for t in (prepend, input, append) if t is not None]
    x = shape.cat(parts, dim) if len(parts) > 1 else input
    for _ in range(n):
        length = x.shape[dim]
        x = indexing.narrow(x, dim, 1, length - 1) - indexing.narrow(x, dim, 0, length - 1)
    return x


gcd = _bits("gcd", np.gcd, "iu")
lcm = _bits("lcm", np.lcm, "iu")


def ldexp(input, other, *, out=None):
    """input · 2^other."""
    need_tensor("ldexp", input)
    need_tensor("ldexp", other, 2, "other")
    result = mul(input, pow(2.0, other) if isinstance(other, Tensor) else 2.0**other)
    return result if out is None else into(out, result, "ldexp")


@writes_out
def frexp(input):
    mantissa, exponent = np.frexp(np.asarray(input._data))
    return ReturnFrexp(make(mantissa), make(exponent.astype(np.int32)))


@writes_out
def nextafter(input, other):
    need_tensor("nextafter", input)
    need_tensor("nextafter", other, 2, "other")
    other = other._data
    return make(np.asarray(np.nextafter(np.asarray(input._data), other)))


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    for side in (elements, test_elements):
        refuse_bool(side, "Unsupported input type encountered for isin(): Bool")
    data = np.asarray(getattr(elements, "_data", elements))
    found = np.isin(data, np.asarray(getattr(test_elements, "_data", test_elements)), invert=invert)
    return make(np.asarray(found))


from .base import return_type as _return_type  # noqa: E402

ReturnFrexp = _return_type("frexp", ("mantissa", "exponent"))


# -- recorded gradients (create_graph=True): each rule again, with tensor ops -----------------


# -- the rules: z = f(inputs), grad = dL/dz; each returns dL/d input ----------------------------
@rule(Add)
def _add(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(g, b_shape)


@rule(AddAlpha)
def _add_alpha(node, g):
    a_shape, b_shape, alpha = node.info
    return sum_to(g, a_shape), sum_to(g * alpha, b_shape)


@rule(Sub)
def _sub(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(-g, b_shape)


@rule(Rsub, pointwise.Neg)
def _neg(node, g):
    return -g


@rule(Mul)
def _mul(node, g):
    a, b = node._saved
    return sum_to(g * inp(node, 1, b), np.shape(a)), sum_to(g * inp(node, 0, a), np.shape(b))


@rule(Addcmul)
def _addcmul(node, g):
    b, c = node._saved
    sa, sb, sc, v = node.info
    return (
        sum_to(g, sa),
        sum_to(g * (inp(node, 2, c) * v), sb),
        sum_to(g * (inp(node, 1, b) * v), sc),
    )


@rule(Addcdiv)
def _addcdiv(node, g):
    b, c = node._saved
    sa, sb, sc, v = node.info
    B, C = inp(node, 1, b), inp(node, 2, c)
    return sum_to(g, sa), sum_to(g * (v / C), sb), sum_to(-g * (v * B / (C * C)), sc)


@rule(Div)
def _div(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g / B, np.shape(a)), sum_to(-g * ((A / B) / B), np.shape(b))


@rule(Pow)
def _pow(node, g):
    (a,) = node._saved
    p = node.info
    return g * (p * inp(node, 0, a) ** (p - 1)) if p != 0 else g * 0


@rule(PowTensor)
def _pow_tensor(node, g):
    a, b, _ = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g * B * A ** (B - 1), np.shape(a)), sum_to(
        g * out(node) * pointwise.log(A), np.shape(b)
    )


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


def where_method(self, condition, y):
    """`x.where(condition, y)`: torch.where(condition, x, y)."""
    return where(condition, self, y)
