"""Activation functions: one node each where PyTorch has a kernel (GeluBackward0,
EluBackward0, ...), ordinary ops where it composes (softsign, tanhshrink, softmin).

Transcendental ones are evaluated in float64 and rounded once to the input's dtype, so they
are within an ulp of PyTorch's vectorised float32 kernels."""

import functools
import math
import warnings

import numpy as np

from ..dtypes import TYPE_NAMES
from ..fidelity import random as _random
from ..higher import rule
from ..tensor import make
from . import pointwise, reductions
from . import shape as shape_ops
from .base import Op, unbroadcast
from .base import _write_back as write_back


class LeakyRelu(Op):
    """z = a where a > 0, else slope · a;  dz/da = 1 or slope."""

    _backward_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, a, slope=0.01):
        ctx.save_for_backward(a)
        ctx.info = slope
        return np.asarray(np.where(a > 0, a, a * np.asarray(slope, np.result_type(a))))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return np.where(a > 0, grad, grad * np.asarray(ctx.info, np.result_type(grad)))


@rule(LeakyRelu)
def _leaky_relu(node, g):
    (a,) = node._saved
    return g * make(np.where(a > 0, 1, node.info).astype(np.result_type(g._data)))


_erf = np.frompyfunc(math.erf, 1, 1)


_SQRT_HALF = 1 / math.sqrt(2)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def erf(x):
    """The error function, elementwise, in float64."""
    return np.asarray(_erf(np.asarray(x, np.float64)), np.float64)


def _wide(x):
    return np.asarray(x, np.float64)


def _like(values, x):
    return np.asarray(values, np.result_type(x))


def _sigmoid(x):
    return np.exp(-np.logaddexp(0, -x))


def _softplus(x):
    return np.logaddexp(0, x)


def _in(fn, v):
    """fn(v) computed in float64 and rounded to v's dtype: one correctly rounded step, as
    PyTorch's float32 kernels take them (within an ulp)."""
    return np.asarray(fn(np.asarray(v, np.float64)), np.result_type(v))


class Gelu(Op):
    """z = x Φ(x) (Φ the standard normal CDF), or with approximate='tanh' ½x(1 + tanh(u)),
    u = √(2/π)(x + 0.044715x³);  dz/dx = Φ(x) + x φ(x), or the tanh form's derivative.
    Computed step by step in the input's precision in PyTorch's order, so the tails round
    as its kernel's do."""

    _backward_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate="none"):
        ctx.save_for_backward(x)
        ctx.info = approximate
        t = np.result_type(x).type
        if approximate == "tanh":
            inner = t(_SQRT_2_OVER_PI) * (x + t(0.044715) * (x * x * x))
            return t(0.5) * x * (t(1) + _in(np.tanh, inner))
        return x * t(0.5) * (t(1) + _in(erf, x * t(_SQRT_HALF)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = np.result_type(x).type
        if ctx.info == "tanh":
            x_sq = x * x
            inner = t(_SQRT_2_OVER_PI) * (x + t(0.044715) * x_sq * x)
            th = _in(np.tanh, inner)
            left = t(0.5) * x
            right = t(1) + th
            left_derivative = t(0.5) * right
            right_derivative = (
                left * (t(1) - th * th) * t(_SQRT_2_OVER_PI) * (t(1) + t(3 * 0.044715) * x_sq)
            )
            return np.asarray(grad * (left_derivative + right_derivative), grad.dtype)
        cdf = t(0.5) * (t(1) + _in(erf, x * t(_SQRT_HALF)))
        pdf = t(_INV_SQRT_2PI) * _in(np.exp, x * x * t(-0.5))
        return np.asarray(grad * (cdf + x * pdf), grad.dtype)


class Silu(Op):
    """z = x σ(x);  dz/dx = σ(x) (1 + x (1 - σ(x)))."""

    _backward_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _like(_wide(x) * _sigmoid(_wide(x)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = _sigmoid(_wide(x))
        return _like(grad * s * (1 + _wide(x) * (1 - s)), grad)


class Elu(Op):
    """z = scale · x for x > 0, else scale · α (exp(input_scale · x) - 1) (SELU: fixed α and
    scale);  dz/dx = scale, or scale · α · input_scale · exp(input_scale · x)."""

    _backward_name = "EluBackward0"

    @staticmethod
    def forward(ctx, x, alpha=1.0, scale=1.0, input_scale=1.0):
        ctx.save_for_backward(x)
        ctx.info = (alpha, scale, input_scale)
        w = _wide(x)
        return _like(np.where(w > 0, scale * w, scale * alpha * np.expm1(w * input_scale)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        alpha, scale, input_scale = ctx.info
        w = _wide(x)
        slope = np.where(w > 0, scale, scale * alpha * input_scale * np.exp(w * input_scale))
        return _like(grad * slope, grad)


class Celu(Elu):
    """z = max(0, x) + min(0, α (exp(x / α) - 1));  dz/dx = 1 for x > 0, else exp(x / α)."""

    _backward_name = "CeluBackward0"


class Softplus(Op):
    """z = log(1 + exp(βx)) / β, or x where βx > threshold;  dz/dx = σ(βx), or 1."""

    _backward_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, x, beta=1.0, threshold=20.0):
        ctx.save_for_backward(x)
        ctx.info = (beta, threshold)
        w = _wide(x)
        return _like(np.where(w * beta > threshold, w, np.log1p(np.exp(w * beta)) / beta), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        beta, threshold = ctx.info
        w = _wide(x)
        return _like(np.where(w * beta > threshold, grad, grad * _sigmoid(w * beta)), grad)


class Hardtanh(Op):
    """z = x clamped to [min_val, max_val] (ReLU6: [0, 6]);  dz/dx = 1 strictly inside,
    else 0."""

    _backward_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, x, min_val=-1.0, max_val=1.0):
        ctx.save_for_backward(x)
        ctx.info = (min_val, max_val)
        return np.asarray(np.clip(x, min_val, max_val), np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        low, high = ctx.info
        return np.where((x > low) & (x < high), grad, 0).astype(grad.dtype)


class Hardswish(Op):
    """z = x · min(max(x + 3, 0), 6) / 6;  dz/dx = 0 up to -3, x / 3 + ½ below 3, then 1
    (at ±3 themselves 0 and 1, as PyTorch's kernel gives)."""

    _backward_name = "HardswishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        t = np.result_type(x).type
        return np.asarray(
            x * np.minimum(np.maximum(x + t(3), t(0)), t(6)) / t(6), np.result_type(x)
        )

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = grad.dtype.type
        inner = grad * (x / t(3) + t(0.5))
        return np.where(x <= -3, t(0), np.where(x < 3, inner, grad)).astype(grad.dtype)


class Hardsigmoid(Op):
    """z = min(max(x + 3, 0), 6) / 6;  dz/dx = 1/6 strictly between -3 and 3, else 0."""

    _backward_name = "HardsigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        t = np.result_type(x).type
        return np.asarray(np.minimum(np.maximum(x + t(3), t(0)), t(6)) / t(6), np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = grad.dtype.type
        return np.where((x > -3) & (x < 3), grad / t(6), t(0)).astype(grad.dtype)


class Mish(Op):
    """z = x tanh(softplus(x));  dz/dx = tanh(sp) + x σ(x) (1 - tanh(sp)²)."""

    _backward_name = "MishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        w = _wide(x)
        return _like(w * np.tanh(_softplus(w)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        w = _wide(x)
        t = np.tanh(_softplus(w))
        return _like(grad * (t + w * _sigmoid(w) * (1 - t * t)), grad)


class Glu(Op):
    """z = a ⊙ σ(b), a and b the two halves of x along `dim`;  dz/da = σ(b),
    dz/db = a σ(b) (1 - σ(b))."""

    _backward_name = "GluBackward0"

    @staticmethod
    def forward(ctx, x, dim=-1):
        a, b = np.split(x, 2, axis=dim)
        ctx.save_for_backward(x)
        ctx.info = dim
        return _like(_wide(a) * _sigmoid(_wide(b)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, b = np.split(_wide(x), 2, axis=ctx.info)
        s = _sigmoid(b)
        g = _wide(grad)
        return _like(np.concatenate([g * s, g * a * s * (1 - s)], axis=ctx.info), grad)


class PreluKernel(Op):
    """z = x for x > 0, else w · x (w per channel, axis 1);  dz/dx = 1 or w,
    dz/dw = Σ of x · g where x ≤ 0."""

    _backward_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return np.asarray(np.where(x > 0, x, w * x), np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        gx = np.where(x > 0, grad, w * grad).astype(grad.dtype)
        part = np.where(x > 0, 0, x * grad).astype(grad.dtype)
        gw = unbroadcast(part, np.shape(w))
        return gx, gw


class RreluWithNoise(Op):
    """z = x for x ≥ 0, else a · x with a drawn uniformly from [lower, upper] in training
    (the fixed (lower + upper) / 2 in evaluation);  dz/dx = 1 or a."""

    _backward_name = "RreluWithNoiseBackward0"

    @staticmethod
    def forward(ctx, x, noise=None):
        ctx.info = noise
        return np.asarray(x * noise, np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        return (grad * ctx.info).astype(grad.dtype)


class LogSigmoid(Op):
    """z = log σ(x) = -softplus(-x);  dz/dx = 1 - σ(x) = σ(-x)."""

    _backward_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        from .losses import log_sigmoid_values

        ctx.save_for_backward(x)
        return log_sigmoid_values(x)

    @staticmethod
    def backward(ctx, grad):
        """PyTorch's kernel: (m - s · b / (1 + b)) · grad, b = exp(-|x|), m and s 1 below 0,
        else 0 and -1."""
        (x,) = ctx.saved_tensors
        dt = np.result_type(x)
        t = dt.type
        b = np.exp(-np.abs(np.asarray(x, np.float64))).astype(dt)
        negative = x < 0
        m, sign = np.where(negative, t(1), t(0)), np.where(negative, t(1), t(-1))
        return np.asarray((m - sign * (b / (t(1) + b))) * grad, dt)


class Softshrink(Op):
    """z = x - λ above λ, x + λ below -λ, else 0;  dz/dx = 1 where |x| > λ, else 0."""

    _backward_name = "SoftshrinkBackward0"

    @staticmethod
    def forward(ctx, x, lambd=0.5):
        ctx.save_for_backward(x)
        ctx.info = lambd
        t = np.result_type(x).type
        # x·0 inside the band, as PyTorch's kernel: -0.0 for negatives, NaN for NaN
        inside = np.where(x < -lambd, x + t(lambd), x * t(0))
        return np.where(x > lambd, x - t(lambd), inside).astype(np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return np.where(np.abs(x) > ctx.info, grad, 0).astype(grad.dtype)


class Hardshrink(Op):
    """z = x where |x| > λ, else 0;  dz/dx = 1 where |x| > λ, else 0."""

    _backward_name = "HardshrinkBackward0"

    @staticmethod
    def forward(ctx, x, lambd=0.5):
        ctx.save_for_backward(x)
        ctx.info = lambd
        return np.where((x >= -lambd) & (x <= lambd), 0, x).astype(np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return np.where(np.abs(x) > ctx.info, grad, 0).astype(grad.dtype)


class Threshold(Op):
    """z = x where x > threshold, else value;  dz/dx = 1 where x > threshold, else 0."""

    _backward_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx, x, threshold=0.0, value=0.0):
        ctx.save_for_backward(x)
        ctx.info = threshold
        return np.where(x <= threshold, value, x).astype(np.result_type(x))  # NaN stays NaN

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return np.where(x > ctx.info, grad, 0).astype(grad.dtype)


_SELU_ALPHA = 1.6732632423543772848170429916717


_SELU_SCALE = 1.0507009873554804934193349852946


def relu(input, inplace=False):
    return _maybe_inplace(input, pointwise.relu(input), inplace)


def relu_(input):
    return relu(input, True)


def tanh(input):
    return pointwise.tanh(input)


def sigmoid(input):
    return pointwise.sigmoid(input)


def _softmax_dim(ndim: int) -> int:
    """PyTorch's old implicit softmax axis, chosen (with a warning) when `dim` is omitted."""
    warnings.warn(
        "Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return reductions.softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return reductions.log_softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input): the smallest value gets the largest weight. As in PyTorch, -input is
    taken in input's dtype (a uint8 0, 1, 3 gives 0, 255, 253) before `dtype` applies."""
    dim = _softmax_dim(input.ndim) if dim is None else dim
    return reductions.softmax(-input, dim, dtype=dtype)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) with Gumbel noise g = -log(Exp(1)) samples; hard=True
    gives one-hot samples that pass the soft gradient (straight-through)."""
    noise = make(logits._data.copy()).exponential_()
    gumbels = (logits - make(np.log(noise._data)).to(logits.dtype)) / tau
    soft = gumbels.softmax(dim)
    if not hard:
        return soft
    index = soft.max(dim, keepdim=True)[1]
    hard_ = make(np.zeros_like(logits._data))
    np.put_along_axis(hard_._data, index._data, 1, axis=dim)
    return hard_ - soft.detach() + soft


def gelu(input, approximate="none"):
    """x Φ(x); approximate='tanh' uses the tanh formula of the GPT papers."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate=approximate)


def silu(input, inplace=False):
    """x σ(x) (also called swish)."""
    return _maybe_inplace(input, Silu.apply(input), inplace)


def mish(input, inplace=False):
    """x tanh(softplus(x))."""
    return _maybe_inplace(input, Mish.apply(input), inplace)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, else α (exp(x) - 1)."""
    return _maybe_inplace(input, _op(Elu, inplace).apply(input, alpha=alpha), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def selu(input, inplace=False):
    """scale · elu(x, α) with the self-normalising constants α ≈ 1.6733, scale ≈ 1.0507."""
    out = _op(Elu, inplace).apply(input, alpha=_SELU_ALPHA, scale=_SELU_SCALE)
    return _maybe_inplace(input, out, inplace)


def selu_(input):
    return selu(input, True)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, α (exp(x / α) - 1))."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    out = _op(Celu, inplace).apply(input, alpha=alpha, input_scale=1.0 / alpha)
    return _maybe_inplace(input, out, inplace)


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(βx)) / β, linear above threshold."""
    return Softplus.apply(input, beta=beta, threshold=threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    out = Hardtanh.apply(input, min_val=min_val, max_val=max_val)
    return _maybe_inplace(input, out, inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6), recorded as PyTorch records it: a hardtanh."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardswish(input, inplace=False):
    """x · relu6(x + 3) / 6."""
    return _maybe_inplace(input, Hardswish.apply(input), inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return _maybe_inplace(input, Hardsigmoid.apply(input), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x > 0, else negative_slope · x."""
    out = _op(LeakyRelu, inplace).apply(input, slope=negative_slope)
    return _maybe_inplace(input, out, inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def prelu(input, weight):
    """leaky_relu with a learnt slope per channel (axis 1), or one for all."""
    if weight.ndim != 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    channels = input.shape[1] if input.ndim >= 2 else 1
    if weight.numel() not in (1, channels):
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{weight.numel()} and channel size = {channels}."
        )
    if input.ndim >= 2:
        shape = (
            (weight.numel(),) + (1,) * (input.ndim - 2)
            if weight.numel() > 1
            else (1,) * (input.ndim - 1)
        )
        weight = shape_ops.View.apply(weight, shape=shape)
    return PreluKernel.apply(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """leaky_relu with a random slope from [lower, upper] for each negative element in
    training (drawn from the default generator as PyTorch draws it), the mean slope in
    evaluation."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    data = input._data
    dt = data.dtype
    if training:
        negative = data <= 0
        slopes = _random.uniform(
            _random.default_generator, int(np.count_nonzero(negative)), np.float64, lower, upper
        )
        noise = np.ones(data.shape, dt)
        noise[negative] = slopes.astype(dt)
    else:
        noise = np.where(data >= 0, 1, dt.type((lower + upper) / 2)).astype(dt)
    return _maybe_inplace(input, _op(RreluWithNoise, inplace).apply(input, noise=noise), inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def glu(input, dim=-1):
    """a ⊙ σ(b) for the two halves a, b of input along dim."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {dim % input.ndim} is size {size}"
        )
    return Glu.apply(input, dim=dim)


def logsigmoid(input):
    """log σ(x), computed without overflow."""
    return LogSigmoid.apply(input)


def softsign(input):
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    """Shrink towards zero by λ, zero within ±λ."""
    if lambd < 0:
        dt = input._data.dtype
        top = f"{float(np.finfo(dt).max):g}" if dt.kind == "f" else "inf"
        word = TYPE_NAMES.get(dt.name, dt.name)
        raise RuntimeError(
            f"lambda must be in range [0, {top}] for input dtype {word}, but found {lambd}"
        )
    return Softshrink.apply(input, lambd=lambd)


def hardshrink(input, lambd=0.5):
    """x where |x| > λ, else 0."""
    return Hardshrink.apply(input, lambd=lambd)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    out = _op(Threshold, inplace).apply(input, threshold=threshold, value=value)
    return _maybe_inplace(input, out, inplace)


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, True)


@functools.cache
def _in_place(op):
    """`op` as torch names its in-place kernel's node (`leaky_relu_` records
    LeakyReluBackward1, which works from the result: the input is overwritten)."""
    name = op._backward_name.removesuffix("0") + "1"
    return type(op.__name__ + "InPlace", (op,), {"_backward_name": name, "__doc__": op.__doc__})


def _op(op, inplace: bool):
    return _in_place(op) if inplace else op


def _maybe_inplace(input, out, inplace):
    """inplace=True: the result written into the input, which is returned, as PyTorch's `_`
    kernels do; in a graph the input takes the op's node (a leaf that requires grad refuses)."""
    if not inplace:
        return out
    input._check_inplace()
    return write_back(input, out)
