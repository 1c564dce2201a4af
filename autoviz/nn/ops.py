"""The fused ops behind nn layers and losses, named after the backward nodes PyTorch records."""

import numpy as np

from ..engine.ops import Op, result, unbroadcast
from ..engine.shape_ops import View


class Addmm(Op):
    """z = bias + m1 @ m2;  dz/dbias = g summed over rows, dz/dm1 = g @ m2ᵀ, dz/dm2 = m1ᵀ @ g."""

    _backward_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, m1, m2):
        ctx.save_for_backward(m1, m2)
        ctx.info = np.shape(bias)  # kept after backward, like PyTorch's saved sizes
        return np.asarray(result(bias + np.matmul(m1, m2), bias, m1, m2))

    @staticmethod
    def backward(ctx, grad):
        m1, m2 = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (
            unbroadcast(grad, ctx.info) if need[0] else None,
            np.matmul(grad, m2.T) if need[1] else None,
            np.matmul(m1.T, grad) if need[2] else None,
        )


class UnsafeView(View):
    """z = a reshaped (the view PyTorch records after a folded matmul);  dz/da = g reshaped back."""

    _backward_name = "UnsafeViewBackward0"


class SqueezeRow(Op):
    """z = a without its leading axis of size 1;  dz/da = g with that axis put back."""

    _backward_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a):
        return np.squeeze(a, 0)

    @staticmethod
    def backward(ctx, grad):
        return np.expand_dims(grad, 0)


class DivScalar(Op):
    """z = a / c for a number c;  dz/da = 1 / c."""

    _backward_name = "DivBackward1"

    @staticmethod
    def forward(ctx, a, c=1):
        ctx.info = c
        return np.asarray(a / c, dtype=np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        return grad / ctx.info


def _reduce(losses, reduction: str, count):
    """Apply 'none', 'sum' or 'mean' (dividing by `count`) to elementwise losses."""
    if reduction == "none":
        return losses
    total = np.sum(losses)
    out = total if reduction == "sum" else total / count
    return np.asarray(out, dtype=losses.dtype)


def _scale(grad, reduction: str, count):
    """The upstream gradient as each element sees it, after the reduction's fan-out."""
    return grad / count if reduction == "mean" else grad


class MseLoss(Op):
    """z = reduce((a - b)²);  dz/da = 2 (a - b) / n for the mean, dz/db = -dz/da."""

    _backward_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, a, b, reduction="mean"):
        diff = np.asarray(result(a - b, a, b))
        ctx.save_for_backward(diff)
        ctx.info = (np.shape(a), np.shape(b), reduction)
        return _reduce(diff * diff, reduction, diff.size)

    @staticmethod
    def backward(ctx, grad):
        (diff,) = ctx.saved_tensors
        a_shape, b_shape, reduction = ctx.info
        local = 2 * diff * _scale(grad, reduction, diff.size)
        return unbroadcast(local, a_shape), unbroadcast(-local, b_shape)


def _class_last(a):
    """Move the class axis (1, or 0 for a single sample) last: shape (..., C)."""
    return np.moveaxis(np.reshape(a, (1, -1)) if np.ndim(a) == 1 else a, 1, -1)


class NllLoss(Op):
    """z = reduce(-w[t] * logp[t]);  dz/dlogp = -w[t] / Σw at each target class, 0 elsewhere."""

    _backward_name = "NllLossBackward0"

    @staticmethod
    def forward(
        ctx, logp, target=None, weight=None, ignore_index=-100, reduction="mean", labels=None
    ):
        scores = _class_last(logp)
        kept = target != ignore_index
        safe = np.where(kept, target, 0).reshape(scores.shape[:-1])
        w = np.ones(scores.shape[-1], logp.dtype) if weight is None else weight
        w = np.where(kept.reshape(safe.shape), w[safe], 0).astype(logp.dtype)
        picked = np.take_along_axis(scores, safe[..., None], axis=-1)[..., 0]
        # `labels`: the target tensor the caller passed, kept (as PyTorch keeps _saved_target)
        # so that drawings show it as the loss's input.
        ctx.info = (np.shape(logp), scores.shape, safe, w, reduction, labels)
        losses = (-w * picked).reshape(np.shape(target))
        with np.errstate(invalid="ignore"):  # every target ignored: the mean is nan, as in torch
            return _reduce(losses, reduction, np.sum(w))

    @staticmethod
    def backward(ctx, grad):
        shape, scores_shape, safe, w, reduction, _ = ctx.info
        with np.errstate(invalid="ignore", divide="ignore"):
            per_item = -w * np.broadcast_to(_scale(grad, reduction, np.sum(w)), np.shape(w))
        full = np.zeros(scores_shape, dtype=w.dtype)
        np.put_along_axis(full, safe[..., None], per_item[..., None], -1)
        return np.moveaxis(full, -1, 1).reshape(shape)


class NllLoss2d(NllLoss):
    """nll_loss over images: class axis 1 of a 4-D (N, C, H, W) input."""

    _backward_name = "NllLoss2DBackward0"


def _clamped_logs(p):
    """log(p) and log(1 - p), clamped at -100 as PyTorch does so p = 0 or 1 stays finite."""
    with np.errstate(divide="ignore"):
        return np.maximum(np.log(p), -100), np.maximum(np.log1p(-p), -100)


class BinaryCrossEntropy(Op):
    """z = reduce(-w (y log p + (1-y) log(1-p)));  dz/dp = w (p - y) / (p (1 - p)) / n."""

    _backward_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx, p, y, weight=None, reduction="mean"):
        log_p, log_q = _clamped_logs(p)
        w = 1 if weight is None else weight
        losses = np.asarray(result(-w * (y * log_p + (1 - y) * log_q), p, y))
        ctx.save_for_backward(p, y)
        ctx.info = (w, reduction)
        return _reduce(losses, reduction, losses.size)

    @staticmethod
    def backward(ctx, grad):
        p, y = ctx.saved_tensors
        w, reduction = ctx.info
        g = w * _scale(grad, reduction, np.size(p))
        # PyTorch guards the denominator with eps = 1e-12 so p = 0 or 1 gives a finite slope.
        dp = g * (p - y) / np.maximum(p * (1 - p), 1e-12)
        if not ctx.needs_input_grad[1]:
            return dp.astype(p.dtype), None
        log_p, log_q = _clamped_logs(p)
        return dp.astype(p.dtype), (g * (log_q - log_p)).astype(np.result_type(y))
