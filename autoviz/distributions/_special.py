"""The special functions distributions score with: lgamma, digamma and trigamma, as ops
with their derivatives (LgammaBackward0, DigammaBackward0), in float64 then rounded."""

import math

import numpy as np

from .. import engine
from ..engine.ops.base import Op, unbroadcast

_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


def digamma_values(x):
    """ψ(x) in float64: the recurrence up to x ≥ 6, then the asymptotic series."""
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    reflect = x < 0.5
    y = np.where(reflect, 1 - x, x)
    shift = np.zeros_like(y)
    while np.any(y < 6):
        small = y < 6
        shift = np.where(small, shift - 1 / y, shift)
        y = np.where(small, y + 1, y)
    inv = 1 / y
    inv2 = inv * inv
    series = (
        np.log(y)
        - 0.5 * inv
        - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    )
    out = series + shift
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(reflect, out - math.pi / np.tan(math.pi * x), out)
    return np.where(x == 0, -np.inf, out)


def trigamma_values(x):
    """ψ'(x) in float64: the recurrence up to x ≥ 6, then the asymptotic series."""
    y = np.asarray(x, np.float64).copy()
    total = np.zeros_like(y)
    while np.any(y < 6):
        small = y < 6
        total = np.where(small, total + 1 / (y * y), total)
        y = np.where(small, y + 1, y)
    inv = 1 / y
    inv2 = inv * inv
    return total + inv + inv2 / 2 + inv * inv2 * (1 / 6 - inv2 * (1 / 30 - inv2 / 42))


class Lgamma(Op):
    """z = log Γ(x);  dz/dx = ψ(x) (digamma)."""

    _backward_name = "LgammaBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.asarray(_lgamma(x), np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return (grad * digamma_values(x)).astype(grad.dtype)


class Digamma(Op):
    """z = ψ(x);  dz/dx = ψ'(x) (trigamma)."""

    _backward_name = "DigammaBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.asarray(digamma_values(x), np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return (grad * trigamma_values(x)).astype(grad.dtype)


def lgamma(x):
    return Lgamma.apply(x)


def digamma(x):
    return Digamma.apply(x)


def _gammainc_one(a: float, x: float) -> float:
    """P(a, x) = γ(a, x) / Γ(a): its power series below x = a + 1, else 1 - Q from Legendre's
    continued fraction (evaluated by the modified Lentz method)."""
    if x <= 0 or math.isinf(a):
        return 0.0 if x <= 0 or a > 0 else math.nan
    if math.isinf(x):
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-17:
            n += 1
            term *= x / n
            total += term
        return total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return 1.0 - math.exp(log_front) * h


_gammainc = np.vectorize(_gammainc_one, otypes=[np.float64])


class Igamma(Op):
    """z = P(a, x), the regularised lower incomplete gamma function;  dz/dx = x^(a-1) e^(-x) /
    Γ(a) (PyTorch has no derivative in a either)."""

    _backward_name = "IgammaBackward0"

    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a, x)
        dtype = np.result_type(a, x)
        with np.errstate(invalid="ignore"):
            return np.asarray(_gammainc(a, x), dtype)

    @staticmethod
    def backward(ctx, grad):
        if ctx.needs_input_grad[0]:
            raise RuntimeError("the derivative for 'igamma: input' is not implemented.")
        a, x = ctx.saved_tensors
        a64, x64 = np.asarray(a, np.float64), np.asarray(x, np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            density = np.exp((a64 - 1) * np.log(x64) - x64 - _lgamma(a64))
        return None, unbroadcast(grad * density.astype(grad.dtype), np.shape(x))


def gammainc(a, x):
    """torch.special.gammainc(a, x) for the distributions' cdf."""
    return Igamma.apply(a, x)


def mvlgamma(x, p: int):
    """The multivariate log-gamma: p(p-1)/4 log π + Σ_j lgamma(x - j/2), j = 0 … p-1."""
    offsets = engine.arange(-(p - 1) / 2, 0.5, 0.5, dtype=x.dtype)
    return lgamma(x.unsqueeze(-1) + offsets).sum(-1) + p * (p - 1) * math.log(math.pi) / 4


def mvdigamma(x, p: int):
    """Σ_j digamma(x - j/2), j = 0 … p-1 (the multivariate digamma, without its constant)."""
    offsets = engine.arange(p, dtype=x.dtype) / 2
    return digamma(x.unsqueeze(-1) - offsets).sum(-1)
