"""Activation functions PyTorch records as one node each (GeluBackward0, EluBackward0, ...):
one small class per op, its derivative in the docstring.

Transcendental ones are evaluated in float64 and rounded once to the input's dtype, so
they are within an ulp of PyTorch's vectorised float32 kernels.
"""

import math

import numpy as np

from ..engine.ops import Op, unbroadcast
from .ops import LeakyRelu

__all__ = ["LeakyRelu"]

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


class Gelu(Op):
    """z = x Φ(x) (Φ the standard normal CDF), or with approximate='tanh' ½x(1 + tanh(u)),
    u = √(2/π)(x + 0.044715x³);  dz/dx = Φ(x) + x φ(x), or the tanh form's derivative."""

    _backward_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate="none"):
        ctx.save_for_backward(x)
        ctx.info = approximate
        w = _wide(x)
        if approximate == "tanh":
            return _like(0.5 * w * (1 + np.tanh(_SQRT_2_OVER_PI * (w + 0.044715 * w**3))), x)
        return _like(0.5 * w * (1 + erf(w * _SQRT_HALF)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        w = _wide(x)
        if ctx.info == "tanh":
            inner = _SQRT_2_OVER_PI * (w + 0.044715 * w**3)
            t = np.tanh(inner)
            slope = 0.5 * (1 + t) + 0.5 * w * (1 - t * t) * _SQRT_2_OVER_PI * (
                1 + 3 * 0.044715 * w * w
            )
        else:
            slope = 0.5 * (1 + erf(w * _SQRT_HALF)) + w * _INV_SQRT_2PI * np.exp(-0.5 * w * w)
        return _like(grad * slope, grad)


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
    """z = x · min(max(x + 3, 0), 6) / 6;  dz/dx = 0 below -3, x / 3 + ½ up to 3, then 1."""

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
        return np.where(x < -3, t(0), np.where(x <= 3, inner, grad)).astype(grad.dtype)


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
        ctx.save_for_backward(x)
        return _like(-_softplus(-_wide(x)), x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _like(grad * _sigmoid(-_wide(x)), grad)


class Softshrink(Op):
    """z = x - λ above λ, x + λ below -λ, else 0;  dz/dx = 1 where |x| > λ, else 0."""

    _backward_name = "SoftshrinkBackward0"

    @staticmethod
    def forward(ctx, x, lambd=0.5):
        ctx.save_for_backward(x)
        ctx.info = lambd
        t = np.result_type(x).type
        return np.where(x > lambd, x - t(lambd), np.where(x < -lambd, x + t(lambd), t(0))).astype(
            np.result_type(x)
        )

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
        return np.where(np.abs(x) > lambd, x, 0).astype(np.result_type(x))

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
        return np.where(x > threshold, x, value).astype(np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return np.where(x > ctx.info, grad, 0).astype(grad.dtype)
