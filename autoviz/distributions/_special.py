"""The special functions distributions score with: lgamma, digamma and trigamma, as ops
with their derivatives (LgammaBackward0, DigammaBackward0), in float64 then rounded."""

import math

import numpy as np

from ..engine.ops.base import Op

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
