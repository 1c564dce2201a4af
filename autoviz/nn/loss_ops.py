"""Losses PyTorch records as one node each (SmoothL1LossBackward0, HuberLossBackward0, ...);
the others are compositions of ordinary ops (nn/functions/loss.py). Reductions add up in
PyTorch's order (cascade_sum), so means round as its do."""

import numpy as np

from ..engine.ops import Op, unbroadcast
from .ops import _reduce, _scale


class SmoothL1Loss(Op):
    """z = reduce(½ d² / β where |d| < β, else |d| - ½β), d = x - y;  dz/dx = d / β or
    sign(d) (over n for the mean), dz/dy = -dz/dx."""

    _backward_name = "SmoothL1LossBackward0"

    @staticmethod
    def forward(ctx, x, y, reduction="mean", beta=1.0):
        d = np.asarray(x - y)
        t = d.dtype.type
        a = np.abs(d)
        losses = np.where(a < beta, t(0.5) * d * d / t(beta), a - t(0.5 * beta))
        ctx.save_for_backward(d)
        ctx.info = (np.shape(x), np.shape(y), reduction, beta)
        return _reduce(losses.astype(d.dtype), reduction, d.size)

    @staticmethod
    def backward(ctx, grad):
        (d,) = ctx.saved_tensors
        x_shape, y_shape, reduction, beta = ctx.info
        t = d.dtype.type
        slope = np.where(d < -beta, t(-1), np.where(d > beta, t(1), d / t(beta)))
        local = (slope * _scale(grad, reduction, d.size)).astype(d.dtype)
        return unbroadcast(local, x_shape), unbroadcast(-local, y_shape)


class HuberLoss(Op):
    """z = reduce(½ d² where |d| ≤ δ, else δ (|d| - ½δ)), d = x - y;  dz/dx = d, or ±δ
    beyond δ (over n for the mean), dz/dy = -dz/dx."""

    _backward_name = "HuberLossBackward0"

    @staticmethod
    def forward(ctx, x, y, reduction="mean", delta=1.0):
        d = np.asarray(x - y)
        t = d.dtype.type
        a = np.abs(d)
        losses = np.where(a < delta, t(0.5) * d * d, t(delta) * (a - t(0.5 * delta)))
        ctx.save_for_backward(d)
        ctx.info = (np.shape(x), np.shape(y), reduction, delta)
        return _reduce(losses.astype(d.dtype), reduction, d.size)

    @staticmethod
    def backward(ctx, grad):
        (d,) = ctx.saved_tensors
        x_shape, y_shape, reduction, delta = ctx.info
        t = d.dtype.type
        slope = np.where(d < -delta, t(-delta), np.where(d > delta, t(delta), d))
        local = (slope * _scale(grad, reduction, d.size)).astype(d.dtype)
        return unbroadcast(local, x_shape), unbroadcast(-local, y_shape)


class SoftMarginLoss(Op):
    """z = reduce(log(1 + exp(-y x)));  dz/dx = -y σ(-y x) (over n for the mean)."""

    _backward_name = "SoftMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, y, reduction="mean"):
        ctx.save_for_backward(x, y)
        ctx.info = reduction
        losses = np.logaddexp(0, -np.asarray(y, np.float64) * x).astype(np.result_type(x))
        return _reduce(losses, reduction, losses.size)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        z = -np.asarray(y, np.float64) * x
        local = -y * np.exp(z - np.logaddexp(0, z)) * _scale(grad, ctx.info, np.size(x))
        return local.astype(np.result_type(x)), None


class MultiMarginLoss(Op):
    """z = reduce over samples of Σ_{i ≠ t} w[t] max(0, margin - x[t] + x[i])^p / C;
    dz/dx[i] = w[t] p (margin - x[t] + x[i])^(p-1) / C where that is positive, and
    dz/dx[t] = minus the sum of those."""

    _backward_name = "MultiMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, target=None, p=1, margin=1.0, weight=None, reduction="mean"):
        rows = np.atleast_2d(x)
        t = np.atleast_1d(target)
        picked = rows[np.arange(len(rows)), t][:, None]
        gap = np.asarray(margin - picked + rows, rows.dtype)
        gap[np.arange(len(rows)), t] = 0
        hinge = np.maximum(gap, 0)
        w = np.ones(len(rows), rows.dtype) if weight is None else weight[t]
        per = (
            np.sum(hinge**p if p != 1 else hinge, axis=1) * w / rows.dtype.type(rows.shape[1])
        ).astype(rows.dtype)
        ctx.info = (np.shape(x), t, gap, w, p, reduction)
        out = _reduce(per, reduction, len(per))
        return out.reshape(()) if np.ndim(x) == 1 and reduction == "none" else out

    @staticmethod
    def backward(ctx, grad):
        shape, t, gap, w, p, reduction = ctx.info
        n, classes = gap.shape
        g = (
            np.broadcast_to(_scale(grad, reduction, n), (n,))
            if reduction != "none"
            else np.reshape(grad, (n,))
        )
        slope = np.where(gap > 0, p * gap ** (p - 1) if p != 1 else 1, 0).astype(gap.dtype)
        local = slope * (w * g / gap.dtype.type(classes))[:, None]
        local[np.arange(n), t] = -np.sum(local, axis=1)
        return local.astype(gap.dtype).reshape(shape)


class MultilabelMarginLoss(Op):
    """z = reduce over samples of Σ_{j ∈ targets} Σ_{i ∉ targets} max(0, 1 - (x[j] - x[i]))
    / C, the targets read up to the first -1;  dz/dx[i] = +1/C per positive term it is the
    non-target of, dz/dx[j] = -1/C per positive term it is the target of."""

    _backward_name = "MultilabelMarginLossBackward0"

    @staticmethod
    def forward(ctx, x, target=None, reduction="mean"):
        rows = np.atleast_2d(x)
        labels = np.atleast_2d(target)
        n, classes = rows.shape
        local = np.zeros_like(rows)
        per = np.zeros(n, rows.dtype)
        one = rows.dtype.type(1)
        for r in range(n):
            chosen = []
            for label in labels[r]:
                if label < 0:
                    break
                chosen.append(int(label))
            is_target = np.zeros(classes, bool)
            is_target[chosen] = True
            total = rows.dtype.type(0)
            for j in chosen:
                gaps = one - (rows[r, j] - rows[r])
                hit = (gaps > 0) & ~is_target
                total += np.sum(gaps[hit], dtype=rows.dtype)
                local[r, hit] += one
                local[r, j] -= rows.dtype.type(np.count_nonzero(hit))
            per[r] = total / rows.dtype.type(classes)
        ctx.info = (np.shape(x), local / rows.dtype.type(classes), reduction)
        out = _reduce(per, reduction, n)
        return out.reshape(()) if np.ndim(x) == 1 and reduction == "none" else out

    @staticmethod
    def backward(ctx, grad):
        shape, local, reduction = ctx.info
        n = len(local)
        g = _scale(grad, reduction, n) if reduction != "none" else np.reshape(grad, (n, 1))
        g = np.broadcast_to(g, (n,))[:, None] if reduction != "none" else g
        return (local * g).astype(local.dtype).reshape(shape)
