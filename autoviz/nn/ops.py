"""The fused ops behind nn layers and losses, named after the backward nodes PyTorch records."""

import numpy as np

from ..engine import higher
from ..engine.fidelity.sums import cascade_sum
from ..engine.ops.base import Op, result, unbroadcast
from ..engine.ops.shape import View
from ..engine.tensor import make


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
    total = cascade_sum(losses, None)  # in PyTorch's order, so it rounds the same
    out = total if reduction == "sum" else total / total.dtype.type(count)
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


def _softplus(x):
    """log(1 + exp(x)) without overflow."""
    return np.logaddexp(0, x)


class BinaryCrossEntropyWithLogits(Op):
    """z = reduce(w · [(1 - y) x + (1 + (p - 1) y) softplus(-x)]) for logits x, targets y and
    pos_weight p;  dz/dx = w (σ(x) (p y + 1 - y) - p y) / n,  dz/dy = w (p softplus(-x) -
    softplus(x)) / n."""

    _backward_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, y, weight=None, pos_weight=None, reduction="mean"):
        p = 1 if pos_weight is None else pos_weight
        w = 1 if weight is None else weight
        wide_x, wide_y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        losses = w * ((1 - wide_y) * wide_x + (1 + (p - 1) * wide_y) * _softplus(-wide_x))
        ctx.save_for_backward(x, y)
        ctx.info = (w, p, reduction)
        return _reduce(losses.astype(np.result_type(x)), reduction, np.size(losses))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        w, p, reduction = ctx.info
        g = w * _scale(grad, reduction, np.size(np.broadcast_to(x, np.shape(y))))
        sig = np.exp(-_softplus(-np.asarray(x, np.float64)))
        dx = g * (sig * (p * y + 1 - y) - p * y)
        dy = g * (p * _softplus(-x) - _softplus(x))
        return dx.astype(np.result_type(x)), np.asarray(dy, np.result_type(y))


class Embedding(Op):
    """z = weight[indices];  dz/dweight = the gradient rows added at their indices (none at
    padding_idx)."""

    _backward_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx, weight, indices=None, padding_idx=None):
        ctx.info = (np.shape(weight), indices, padding_idx)
        return np.asarray(np.asarray(weight)[indices])

    @staticmethod
    def backward(ctx, grad):
        shape, indices, padding_idx = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        np.add.at(full, indices, grad)
        if padding_idx is not None:
            full[padding_idx] = 0
        return full


class NativeBatchNorm(Op):
    """z = (x - mean) / √(var + eps) · weight + bias per channel (axis 1), the statistics over
    the batch (and length) axes in training; the gradient is the usual batch-norm one. The
    arithmetic follows PyTorch's CPU kernel: float32 terms, sums in float64."""

    _backward_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx, x, weight=None, bias=None, stats=None, eps=1e-5, training=True):
        dtype = np.result_type(x)
        axes = (0, *range(2, np.ndim(x)))
        shape = [1] * np.ndim(x)
        shape[1] = -1
        n = np.size(x) // np.shape(x)[1]
        if training:
            mean, var_sum = batch_stats(x)
            invstd = (1 / np.sqrt(var_sum.astype(np.float64) / n + eps)).astype(dtype)
        else:
            mean = np.asarray(stats[0], dtype)
            invstd = (1 / np.sqrt(np.asarray(stats[1], np.float64) + eps)).astype(dtype)
        w = np.ones_like(mean) if weight is None else np.asarray(weight, dtype)
        b = np.zeros_like(mean) if bias is None else np.asarray(bias, dtype)
        alpha = invstd * w
        beta = b - mean * alpha
        ctx.save_for_backward(x, mean, invstd, w)
        ctx.info = (axes, shape, training)
        return np.asarray(x * alpha.reshape(shape) + beta.reshape(shape), dtype)

    @staticmethod
    def backward(ctx, grad):
        x, mean, invstd, w = ctx.saved_tensors
        axes, shape, training = ctx.info
        n = np.size(x) // np.shape(x)[1]
        centred = x - mean.reshape(shape)
        total = np.sum(grad, axis=axes, dtype=np.float64)
        dotp = np.sum(centred * grad, axis=axes, dtype=np.float64)
        dtype = np.result_type(x)
        if training:
            k = dotp.astype(dtype) * invstd * invstd / dtype.type(n)
            grad_mean = (total / n).astype(dtype)
            g_x = (grad - grad_mean.reshape(shape) - centred * k.reshape(shape)) * (
                invstd * w
            ).reshape(shape)
        else:
            g_x = grad * (invstd * w).reshape(shape)
        return (
            np.asarray(g_x, dtype),
            (dotp * invstd).astype(dtype),
            total.astype(dtype),
        )


def batch_stats(x):
    """Per-channel mean and Σ (x - mean)², as PyTorch's kernel computes them (float64 sums
    of float32 values and squares)."""
    dtype = np.result_type(x)
    axes = (0, *range(2, np.ndim(x)))
    n = np.size(x) // np.shape(x)[1]
    mean = (np.sum(x, axis=axes, dtype=np.float64) / n).astype(dtype)
    shape = [1] * np.ndim(x)
    shape[1] = -1
    centred = x - mean.reshape(shape)
    var_sum = np.sum(centred * centred, axis=axes, dtype=np.float64).astype(dtype)
    return mean, var_sum


# -- their gradients as recorded ops, for create_graph=True (Hessians of losses) -----------------
@higher.rule(Addmm)
def _addmm(node, g):
    m1, m2 = node._saved
    M1, M2 = higher.inp(node, 1, m1), higher.inp(node, 2, m2)
    return higher.sum_to(g, node.info), g @ M2.t(), M1.t() @ g


@higher.rule(SqueezeRow)
def _squeeze_row(node, g):
    return g.unsqueeze(0)


@higher.rule(DivScalar)
def _div_scalar(node, g):
    return g / node.info


@higher.rule(LeakyRelu)
def _leaky_relu(node, g):
    (a,) = node._saved
    return g * make(np.where(a > 0, 1, node.info).astype(np.result_type(g._data)))


@higher.rule(MseLoss)
def _mse_loss(node, g):
    (diff,) = node._saved
    a_shape, b_shape, reduction = node.info
    a = higher.inp(node, 0, None)
    b = higher.inp(node, 1, np.asarray(a._data) - diff if node._next[1] is None else None)
    d = a - b
    scaled = g / diff.size if reduction == "mean" else g
    local = 2 * d * scaled
    return higher.sum_to(local, a_shape), higher.sum_to(-local, b_shape)


@higher.rule(NllLoss)
def _nll_loss(node, g):
    w, reduction = node.info[3:]
    if reduction == "none":
        raise RuntimeError(
            "create_graph=True through nll_loss(reduction='none') is not in autoviz yet"
        )
    unit = NllLoss.backward(node, np.ones((), w.dtype))  # linear in the upstream gradient
    return g * make(np.asarray(unit))
