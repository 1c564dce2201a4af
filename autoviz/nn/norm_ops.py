"""Layer and group normalisation as PyTorch records them (NativeLayerNormBackward0,
NativeGroupNormBackward0); batch normalisation is nn/ops.py's NativeBatchNorm.

Statistics are taken in float64 and rounded to the input's dtype, then applied as PyTorch's
kernels apply them: y = (x · rstd - mean · rstd) · weight + bias.
"""

import numpy as np

from ..engine.ops import Op


def _moments(rows, eps):
    """Per-row mean and 1/√(var + eps) (the biased variance), in the rows' dtype."""
    wide = np.asarray(rows, np.float64)
    mean = wide.mean(axis=-1, keepdims=True)
    var = ((wide - mean) ** 2).mean(axis=-1, keepdims=True)
    dt = np.result_type(rows)
    return mean.astype(dt), (1 / np.sqrt(var + eps)).astype(dt)


def _normalised_backward(grad_hat, x_hat, rstd):
    """dL/dx of x̂ = (x - mean) · rstd per row, given dL/dx̂ (rows along the last axis)."""
    wide_g, wide_x = np.asarray(grad_hat, np.float64), np.asarray(x_hat, np.float64)
    mean_g = wide_g.mean(axis=-1, keepdims=True)
    mean_gx = (wide_g * wide_x).mean(axis=-1, keepdims=True)
    return (np.asarray(rstd, np.float64) * (wide_g - mean_g - wide_x * mean_gx)).astype(
        grad_hat.dtype
    )


class NativeLayerNorm(Op):
    """z = (x - mean) / √(var + eps) · w + b over the last len(normalized_shape) axes;
    dz/dx = rstd (ĝ - mean(ĝ) - x̂ mean(ĝ x̂)) with ĝ = g · w, dz/dw = Σ g x̂, dz/db = Σ g."""

    _backward_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx, x, w=None, b=None, normalized_shape=(), eps=1e-5):
        k = len(normalized_shape)
        rows = x.reshape(*x.shape[: x.ndim - k], -1)
        mean, rstd = _moments(rows, eps)
        x_hat = (rows * rstd + (-mean * rstd)).reshape(x.shape)
        ctx.save_for_backward(x_hat, rstd, w)
        ctx.info = k
        out = x_hat
        if w is not None:
            out = out * w
        if b is not None:
            out = out + b
        return np.asarray(out, x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x_hat, rstd, w = ctx.saved_tensors
        k = ctx.info
        lead = grad.shape[: grad.ndim - k]
        axes = tuple(range(len(lead)))
        need = ctx.needs_input_grad
        g_hat = grad * w if w is not None else grad
        gx = None
        if need[0]:
            flat = _normalised_backward(g_hat.reshape(*lead, -1), x_hat.reshape(*lead, -1), rstd)
            gx = flat.reshape(grad.shape)
        gw = (
            np.sum(grad * x_hat, axis=axes, dtype=np.float64).astype(grad.dtype)
            if need[1]
            else None
        )
        gb = (
            np.sum(grad, axis=axes, dtype=np.float64).astype(grad.dtype)
            if len(need) > 2 and need[2]
            else None
        )
        return gx, gw, gb


class NativeGroupNorm(Op):
    """z = x normalised over each group of channels (and all positions), then · w + b per
    channel;  dz/dx as for layer norm within each group, dz/dw = Σ g x̂, dz/db = Σ g."""

    _backward_name = "NativeGroupNormBackward0"

    @staticmethod
    def forward(ctx, x, w=None, b=None, groups=1, eps=1e-5):
        n = x.shape[0]
        rows = x.reshape(n, groups, -1)
        mean, rstd = _moments(rows, eps)
        x_hat = (rows * rstd + (-mean * rstd)).reshape(x.shape)
        ctx.save_for_backward(x_hat, rstd, w)
        ctx.info = groups
        shape = (1, -1) + (1,) * (x.ndim - 2)
        out = x_hat
        if w is not None:
            out = out * w.reshape(shape)
        if b is not None:
            out = out + b.reshape(shape)
        return np.asarray(out, x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x_hat, rstd, w = ctx.saved_tensors
        groups = ctx.info
        need = ctx.needs_input_grad
        shape = (1, -1) + (1,) * (grad.ndim - 2)
        axes = (0, *range(2, grad.ndim))
        g_hat = grad * w.reshape(shape) if w is not None else grad
        gx = None
        if need[0]:
            n = grad.shape[0]
            flat = _normalised_backward(
                g_hat.reshape(n, groups, -1), x_hat.reshape(n, groups, -1), rstd
            )
            gx = flat.reshape(grad.shape)
        gw = (
            np.sum(grad * x_hat, axis=axes, dtype=np.float64).astype(grad.dtype)
            if need[1]
            else None
        )
        gb = (
            np.sum(grad, axis=axes, dtype=np.float64).astype(grad.dtype)
            if len(need) > 2 and need[2]
            else None
        )
        return gx, gw, gb
