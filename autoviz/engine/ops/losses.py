"""Every loss of torch.nn.functional, recorded as PyTorch records it: one node where PyTorch
has a kernel (mse, nll, bce, smooth_l1, huber, the margin losses), ordinary ops where it
composes (l1, kl_div, the embedding and ranking losses, poisson and gaussian nll); and the
distances they use (pairwise_distance, cosine_similarity, pdist). Reductions add up in
PyTorch's order (cascade_sum), so means round as its do."""

import functools
import math
import operator
import warnings

import numpy as np

from ..dtypes import TYPE_NAMES, default_float, from_numpy_dtype
from ..fidelity.sums import cascade_sum
from ..function import NO_CONTEXT
from ..grad_mode import no_grad
from ..higher import inp, rule, sum_to
from ..tensor import make
from . import arithmetic, pointwise, reductions
from . import shape as shape_ops
from .arguments import as_tensor, check_reduction, dtype_word, legacy_reduction
from .base import Op, result, unbroadcast


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


def _frame_sums(picked, w, kept, weight):
    """Σ -w·picked and Σ w in the order of PyTorch's nll_loss kernel: eight levels of partial
    sums, each carried up to the next every 16 items of the level below."""
    zero = picked.dtype.type(0)
    loss, weights = [zero] * 8, [zero] * 8
    for b in range(picked.size):
        if not kept[b]:
            continue  # an ignored item skips the carry too, as in PyTorch's loop
        if weight is None:
            loss[0] -= picked[b]
        else:
            weights[0] += w[b]
            loss[0] -= picked[b] * w[b]
        for j in range(7):
            if b & (15 << (4 * j)):
                break
            loss[j + 1] += loss[j]
            weights[j + 1] += weights[j]
            loss[j], weights[j] = zero, zero
    total = functools.reduce(operator.add, loss, zero)
    count = (
        picked.dtype.type(kept.sum())
        if weight is None
        else functools.reduce(operator.add, weights, zero)
    )
    return total, count


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
        if reduction != "none" and scores.ndim <= 2 and np.ndim(logp) <= 2:
            total, count = _frame_sums(picked.reshape(-1), w.reshape(-1), kept.reshape(-1), weight)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.asarray(total if reduction == "sum" else total / count, logp.dtype)
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


def _softplus(x):
    """log(1 + exp(x)) without overflow."""
    return np.logaddexp(0, x)


def _rounded(f, x):
    """f(x) computed wide and rounded once to x's precision (one vector-math call)."""
    return f(np.asarray(x, np.float64)).astype(np.result_type(x))


def log_sigmoid_values(x):
    """log σ(x) as PyTorch's CPU kernel computes it: min(x, 0) - log1p(exp(-|x|)), each
    call rounded to x's precision."""
    t = np.result_type(x).type
    e = _rounded(np.exp, -np.abs(x))
    return (np.minimum(x, t(0)) - _rounded(np.log1p, e)).astype(np.result_type(x))


def sigmoid_values(x):
    """σ(x) = 1 / (1 + exp(-x)) in x's precision, as PyTorch's CPU kernel."""
    t = np.result_type(x).type
    return (t(1) / (t(1) + _rounded(np.exp, -np.asarray(x)))).astype(np.result_type(x))


class BinaryCrossEntropyWithLogits(Op):
    """z = reduce(w · [(1 - y) x - (1 + (p - 1) y) log σ(x)]) for logits x, targets y and
    pos_weight p;  dz/dx = w (σ(x) (p y + 1 - y) - p y) / n,  dz/dy = w (p softplus(-x) -
    softplus(x)) / n. Both in PyTorch's order of operations, in the input's precision."""

    _backward_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, y, weight=None, pos_weight=None, reduction="mean"):
        dt = np.result_type(x, y)
        x, y = np.asarray(x, dt), np.asarray(y, dt)
        t = dt.type
        log_sig = log_sigmoid_values(x)
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight.astype(dt) - t(1)) * y + t(1))
        losses = (t(1) - y) * x - log_sig
        if weight is not None:
            losses = losses * weight.astype(dt)
        ctx.save_for_backward(x, y)
        ctx.info = (weight, pos_weight, reduction)
        return _reduce(np.asarray(losses, dt), reduction, np.size(losses))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        weight, p, reduction = ctx.info
        dt = np.result_type(x)
        sig = sigmoid_values(x)
        if p is None:
            dx = (sig - y) * grad
        else:
            py = p.astype(dt) * y
            dx = ((py + dt.type(1) - y) * sig - py) * grad
        if weight is not None:
            dx = dx * weight.astype(dt)
        if reduction == "mean":
            dx = dx / dt.type(np.size(np.broadcast_to(x, np.shape(y))))
        w = 1 if weight is None else weight
        pw = 1 if p is None else p
        g = w * _scale(grad, reduction, np.size(np.broadcast_to(x, np.shape(y))))
        dy = g * (pw * _softplus(-x) - _softplus(x))
        return np.asarray(dx, dt), np.asarray(dy, np.result_type(y))


@rule(DivScalar)
def _div_scalar(node, g):
    return g / node.info


@rule(MseLoss)
def _mse_loss(node, g):
    (diff,) = node._saved
    a_shape, b_shape, reduction = node.info
    a = inp(node, 0, None)
    b = inp(node, 1, np.asarray(a._data) - diff if node._next[1] is None else None)
    d = a - b
    scaled = g / diff.size if reduction == "mean" else g
    local = 2 * d * scaled
    return sum_to(local, a_shape), sum_to(-local, b_shape)


@rule(NllLoss)
def _nll_loss(node, g):
    w, reduction = node.info[3:]
    if reduction == "none":
        raise RuntimeError(
            "create_graph=True through nll_loss(reduction='none') is not in autoviz yet"
        )
    unit = NllLoss.backward(node, np.ones((), w.dtype))  # linear in the upstream gradient
    return g * make(np.asarray(unit))


class NormDim(reductions.Norm):
    """z = ‖a‖_p along dims, as ATen's at::norm records it (pairwise_distance)."""

    _backward_name = "NormBackward1"


class Pdist(Op):
    """z = ‖x_i - x_j‖_p for every pair of rows i < j;  dz/dx_i = Σ_j g_ij ∂‖d‖/∂d,
    dz/dx_j = -that, d = x_i - x_j."""

    _backward_name = "PdistBackward0"

    @staticmethod
    def forward(ctx, x, p=2.0):
        rows, cols = np.triu_indices(len(x), 1)
        diff = np.asarray(x[rows] - x[cols], np.float64)
        ctx.save_for_backward(x)
        ctx.info = (p, rows, cols)
        out = reductions.Norm.forward(NO_CONTEXT, diff, p=p, dim=1)
        return out.astype(np.result_type(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        p, rows, cols = ctx.info
        diff = np.asarray(x[rows] - x[cols], np.float64)
        norm = reductions.Norm.forward(NO_CONTEXT, diff, p=p, dim=1, keepdim=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            local = np.sign(diff) if p == 1 else diff * np.abs(diff) ** (p - 2) / norm ** (p - 1)
        local = np.where(norm == 0, 0, local) * np.asarray(grad, np.float64)[:, None]
        full = np.zeros(x.shape, np.float64)
        np.add.at(full, rows, local)
        np.add.at(full, cols, -local)
        return full.astype(np.result_type(x))


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


def _reduction(size_average, reduce, reduction):
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    return reduction


def _apply_reduction(losses, reduction):
    if reduction == "none":
        return losses
    return reductions.sum(losses) if reduction == "sum" else reductions.mean(losses)


def _warn_shapes(input, target, stacklevel=3) -> None:
    if input.shape != target.shape:
        # The classic lesson bug: (N, 1) against (N,) broadcasts to (N, N) silently.
        warnings.warn(
            f"Using a target size ({target.shape!r}) that is different to the input size "
            f"({input.shape!r}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=stacklevel,
        )


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of squared differences, one MseLossBackward0 node."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _warn_shapes(input, target)
    if weight is not None:
        return _apply_reduction((input - target) ** 2 * weight, reduction)
    return MseLoss.apply(input, target, reduction=reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of absolute differences: |input - target| then the mean, as PyTorch
    composes it."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _warn_shapes(input, target)
    losses = pointwise.abs(input - target)
    if weight is not None:
        losses = losses * weight
    return _apply_reduction(losses, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """½ d² / β for |d| < β, |d| - ½β beyond (d = input - target); β = 0 is the L1 loss."""
    reduction = _reduction(size_average, reduce, reduction)
    target = _float_target(input, as_tensor(target))
    _warn_shapes(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(input, target, reduction=reduction)
    return SmoothL1Loss.apply(input, target, reduction=reduction, beta=beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """½ d² for |d| ≤ δ, δ (|d| - ½δ) beyond: smooth_l1 scaled by δ."""
    check_reduction(reduction)
    target = _float_target(input, as_tensor(target))
    _warn_shapes(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        losses = HuberLoss.apply(input, target, reduction="none", delta=delta)
        return _apply_reduction(losses * weight, reduction)
    return HuberLoss.apply(input, target, reduction=reduction, delta=delta)


def _check_nll_shapes(input, target) -> None:
    if input.ndim >= 2 and target.ndim >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0]})."
        )
    if input.ndim <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    wanted = [input.shape[0], *input.shape[2:]]
    if input.ndim > 2 and list(target.shape) != wanted:
        raise RuntimeError(f"Expected target size {wanted}, got {list(target.shape)}")
    if target._data.dtype.name not in ("int64", "uint8"):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {dtype_word(target)}"
        )


def _check_targets(target, classes: int, ignore_index: int) -> None:
    data = np.asarray(target._data)
    bad = data[(data != ignore_index) & ((data < 0) | (data >= classes))]
    if bad.size:
        raise IndexError(f"Target {bad.flat[0]} is out of bounds.")


def nll_loss(
    input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"
):
    """Negative log-likelihood of the target classes, given log-probabilities `input`."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _check_nll_shapes(input, target)
    _check_targets(target, input.shape[0 if input.ndim == 1 else 1], ignore_index)
    options = {
        "weight": None if weight is None else np.asarray(weight._data, dtype=input._data.dtype),
        "ignore_index": ignore_index,
        "reduction": reduction,
        "labels": target,
    }
    labels = np.asarray(target._data)
    if input.ndim <= 2:
        return NllLoss.apply(input, target=labels, **options)
    if input.ndim == 4:
        return NllLoss2d.apply(input, target=labels, **options)
    # PyTorch folds other spatial ranks into the 4-D case, and unfolds a 'none' result.
    image = shape_ops.View.apply(input, shape=(*input.shape[:3], -1))
    out = NllLoss2d.apply(image, target=labels.reshape(*labels.shape[:2], -1), **options)
    return shape_ops.View.apply(out, shape=labels.shape) if reduction == "none" else out


def cross_entropy(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index=-100,
    reduce=None,
    reduction="mean",
    label_smoothing=0.0,
):
    """nll_loss(log_softmax(input, class dim), target); soft (probability) targets too;
    label_smoothing mixes in the uniform distribution, as PyTorch composes it."""
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    target = as_tensor(target)
    class_dim = 0 if input.ndim == 1 else 1
    logp = reductions.log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if target.shape == input.shape and target.ndim > 1 and target._data.dtype.kind != "f":
        raise RuntimeError(
            "Expected floating point type for target with class probabilities, got "
            f"{dtype_word(target)}"
        )
    if target._data.dtype.kind == "f" and target.shape == input.shape:
        if label_smoothing:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        return _soft_cross_entropy(logp, target, weight, class_dim, reduction)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return nll
    return _smoothed(input, logp, nll, target, weight, ignore_index, reduction, label_smoothing)


def _smoothed(input, logp, nll, target, weight, ignore_index, reduction, eps):
    """(1 - ε) · nll + ε / C · (-Σ log p over the classes), ignored targets left out."""
    class_dim = 0 if input.ndim == 1 else 1
    classes = input.shape[class_dim]
    ignored = np.asarray(target._data) == ignore_index
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = classes
        smooth = -reductions.sum(logp * weight.reshape(shape), dim=class_dim)
    else:
        smooth = -reductions.sum(logp, dim=class_dim)
    smooth = smooth.masked_fill(make(ignored), 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = np.asarray(target._data)[~ignored]
            smooth = reductions.sum(smooth) / make(
                np.sum(weight._data[kept], dtype=weight._data.dtype)
            )
        else:
            smooth = reductions.sum(smooth) / make(np.asarray(np.count_nonzero(~ignored), np.int64))
    elif reduction == "sum":
        smooth = reductions.sum(smooth)
    return nll * (1 - eps) + smooth * (eps / classes)


def _soft_cross_entropy(logp, target, weight, class_dim, reduction):
    """-Σ target · logp over classes, from plain ops as PyTorch records it."""
    prod = logp * target
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = -1
        prod = prod * weight.reshape(shape)
    if reduction == "none":
        return -reductions.sum(prod, dim=class_dim)
    total = -reductions.sum(prod)
    if reduction == "sum":
        return total
    batch = logp.shape[0] if logp.ndim > 1 else 1
    return DivScalar.apply(total, c=batch)


def binary_cross_entropy(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """-(y log p + (1 - y) log(1 - p)), with the logs clamped at -100 as PyTorch does."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    if input.shape != target.shape:
        raise ValueError(
            f"Using a target size ({target.shape!r}) that is different to the input size "
            f"({input.shape!r}) is deprecated. Please ensure they have the same size."
        )
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {dtype_word(target)} but expected {dtype_word(input)}")
    data = np.asarray(input._data)
    if np.any((data < 0) | (data > 1)) or np.any(np.isnan(data)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    w = None if weight is None else np.asarray(weight._data, dtype=data.dtype)
    return BinaryCrossEntropy.apply(input, target, weight=w, reduction=reduction)


def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
):
    """Binary cross-entropy on logits (sigmoid inside, computed stably); pos_weight scales
    the positive targets' term."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape!r}) must be the same as input size ({input.shape!r})"
        )
    _refuse_integer_target(input, target)
    w = None if weight is None else np.asarray(weight._data, dtype=input._data.dtype)
    pw = None if pos_weight is None else np.asarray(pos_weight._data, dtype=input._data.dtype)
    return BinaryCrossEntropyWithLogits.apply(
        input, target, weight=w, pos_weight=pw, reduction=reduction
    )


def _integral(t) -> bool:
    return t._data.dtype.kind in "biu"


def _float_target(input, target):
    """An integer or bool target in the input's float dtype, as torch's promotion gives."""
    if _integral(target) and not _integral(input):
        return target.to(from_numpy_dtype(input._data.dtype))
    return target


def _refuse_integer_target(input, target) -> None:
    """torch's binary_cross_entropy_with_logits works in the target's dtype: an integer one
    cannot hold the float loss, a bool one meets a subtraction of bools."""
    kind = target._data.dtype
    if kind == np.bool_:
        arithmetic.refuse_bool_sub(target._data, target._data)
    if kind.kind in "iu" and not _integral(input):
        raise RuntimeError(
            f"result type {TYPE_NAMES[input._data.dtype.name]} can't be cast to the desired "
            f"output type {TYPE_NAMES[kind.name]}"
        )


def _xlogy_self(t):
    """t · log t, 0 where t = 0 (the entropy term of kl_div), with the engine's own log: the
    one `input = target.log()` took, so that a target against its own log gives exactly 0."""
    data = t._data
    with np.errstate(divide="ignore", invalid="ignore"):
        return arithmetic.where(make(data == 0), make(np.zeros((), data.dtype)), t * t.log())


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL(target ‖ exp(input)) pointwise: target (log target - input); 'batchmean' divides
    the sum by the batch size (the mathematical KL divergence)."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.",
            UserWarning,
            stacklevel=2,
        )
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    target = as_tensor(target)
    if _integral(input) or _integral(target):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    losses = target.exp() * (target - input) if log_target else _xlogy_self(target) - target * input
    if reduction == "batchmean":
        total = reductions.sum(losses)
        return total / input.shape[0] if input.ndim else total
    return _apply_reduction(losses, reduction)


def poisson_nll_loss(
    input,
    target,
    log_input=True,
    full=False,
    size_average=None,
    eps=1e-8,
    reduce=None,
    reduction="mean",
):
    """exp(input) - target · input for log-rate input (input - target · log(input + eps)
    otherwise); full=True adds Stirling's term for targets above 1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    losses = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        t = target._data
        t = t if t.dtype.kind == "f" else t.astype(default_float())  # torch.log of integers
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = t * np.log(t) - t + 0.5 * np.log(2 * math.pi * t)
        losses = losses + make(np.where(t <= 1, np.zeros((), t.dtype), stirling))
    return _apply_reduction(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """½ (log var + (input - target)² / var) (+ ½ log 2π with full=True); var is clamped at
    eps without the clamp entering the gradient, as in PyTorch."""
    var = (
        var
        if not isinstance(var, (int, float))
        else make(np.full(input.shape, var, input._data.dtype))
    )
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if np.any(var._data < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():
        var._storage()[...] = np.maximum(var._data, var._data.dtype.type(eps))
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _apply_reduction(losses, reduction)


def _same_dims(name, **tensors) -> None:
    dims = {t.ndim for t in tensors.values()}
    if len(dims) > 1:
        sizes = ", ".join(f"{k}: {t.shape!r}" for k, t in tensors.items())
        raise RuntimeError(
            f"{name} : All input tensors should have same dimension but got sizes: {sizes} "
        )


def margin_ranking_loss(
    input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"
):
    """max(0, -y (x1 - x2) + margin): y = 1 wants x1 ranked above x2, y = -1 below."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _same_dims("margin_ranking_loss", input1=input1, input2=input2, target=target)
    losses = (-target * (input1 - input2) + margin).clamp_min(0)
    return _apply_reduction(losses, reduction)


def hinge_embedding_loss(
    input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"
):
    """input where y = 1, max(0, margin - input) where y = -1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    zeros = make(np.zeros(input.shape, input._data.dtype))
    clamped = (margin - input).clamp_min(0)
    t = target._data
    losses = arithmetic.where(make(t != 1), clamped, zeros) + arithmetic.where(
        make(t != -1), input, zeros
    )
    return _apply_reduction(losses, reduction)


def cosine_embedding_loss(
    input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"
):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    dim = 1 if input1.ndim == 2 else 0
    eps = 1e-12
    prod = reductions.sum(input1 * input2, dim=dim)
    mag1 = reductions.sum(input1 * input1, dim=dim) + eps
    mag2 = reductions.sum(input2 * input2, dim=dim) + eps
    cos = prod / (mag1 * mag2).sqrt()
    zeros = make(np.zeros(cos.shape, cos._data.dtype))
    t = target._data
    losses = arithmetic.where(make(t == 1), 1 - cos, zeros) + arithmetic.where(
        make(t == -1), (cos - margin).clamp_min(0), zeros
    )
    return _apply_reduction(losses, reduction)


def triplet_margin_loss(
    anchor,
    positive,
    negative,
    margin=1.0,
    p=2,
    eps=1e-6,
    swap=False,
    size_average=None,
    reduce=None,
    reduction="mean",
):
    """max(0, d(a, p) - d(a, n) + margin), d the pairwise p-norm distance."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if len({anchor.ndim, positive.ndim, negative.ndim}) > 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and "
            f"negative {negative.ndim}D inputs"
        )
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = arithmetic.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((margin + d_pos - d_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction="mean"
):
    """triplet_margin_loss with any distance (pairwise_distance by default)."""
    check_reduction(reduction)
    if margin <= 0:
        raise ValueError(
            "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
            f"{margin} instead"
        )
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = arithmetic.minimum(d_neg, dist(positive, negative))
    return _apply_reduction((margin + d_pos - d_neg).clamp_min(0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-y · input)): a smooth hinge for labels ±1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    return SoftMarginLoss.apply(input, target, reduction=reduction)


def multilabel_soft_margin_loss(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """-(y log σ(x) + (1 - y) log σ(-x)) averaged over the classes."""
    from .activations import logsigmoid

    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.ndim - 1
    losses = reductions.sum(losses, dim=class_dim) / input.shape[class_dim]
    return _apply_reduction(losses, reduction)


def multi_margin_loss(
    input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """Σ over wrong classes i of max(0, margin - x[target] + x[i])^p, over the class count."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    target = as_tensor(target)
    w = None if weight is None else np.asarray(weight._data, input._data.dtype)
    return MultiMarginLoss.apply(
        input, target=target._data, p=p, margin=margin, weight=w, reduction=reduction
    )


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Hinge loss between each target class (read up to the first -1) and every other."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    return MultilabelMarginLoss.apply(input, target=target._data, reduction=reduction)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """‖x1 - x2 + eps‖_p along the last axis, as PyTorch composes it."""
    dim = max(x1.ndim, x2.ndim) - 1
    return NormDim.apply(x1 - x2 + eps, p=p, dim=dim, keepdim=keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Σ (x1 / ‖x1‖) (x2 / ‖x2‖) along dim, each norm at least eps."""

    def unit(x):
        norm = x.norm(2, dim, True).clone()
        norm._storage()[...] = np.maximum(norm._data, norm._data.dtype.type(eps))
        return x / norm

    return (unit(x1) * unit(x2)).sum(dim)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows i < j, as one flat vector."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    return Pdist.apply(input, p=p)


# -- connectionist temporal classification ---------------------------------------------------------
# PyTorch's CPU kernel (LossCTC.cpp) works in the input's float type with the C library's scalar
# exp and log; float32 ones are float64's rounded once, as glibc's expf and logf round.
def _libm(function, x):
    if x.dtype == np.float32:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            return function(x.astype(np.float64)).astype(np.float32)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return function(x)


def _log_add(terms, f):
    """log(Σ exp(t - m)) + m over the stacked terms, m their max (0 when all are -inf)."""
    top = np.max(terms, axis=0)
    top = np.where(top == -np.inf, f(0), top)
    total = _libm(np.exp, terms[0] - top)
    for term in terms[1:]:
        total = total + _libm(np.exp, term - top)
    return _libm(np.log, total) + top


def _ctc_one(lp, target, blank):
    """The alpha-beta recursion of one sequence (lp: (T, C) log-probabilities) over the
    blank-extended target: -log p(target), and for each (t, c) the log of Σ α·β over the
    extended positions of symbol c, in PyTorch's order of additions."""
    f = lp.dtype.type
    neg = f(-np.inf)
    steps = len(lp)
    ext = np.full(2 * len(target) + 1, blank, np.int64)
    ext[1::2] = target
    s = len(ext)
    skip = np.zeros(s, bool)
    skip[2:] = ext[2:] != ext[:-2]
    alpha = np.full((steps, s), neg)
    alpha[0, 0] = lp[0, ext[0]]
    if s > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, steps):
        prev = alpha[t - 1]
        step = np.concatenate([[neg], prev[:-1]])
        jump = np.where(skip, np.concatenate([[neg, neg], prev[:-2]]), neg)
        alpha[t] = _log_add(np.stack([prev, step, jump]), f) + lp[t, ext]
    last = alpha[-1, -2] if s > 1 else neg
    ll = _log_add(np.array([alpha[-1, -1], last])[:, None], f)[0]
    beta = np.full((steps, s), neg)
    beta[-1, -1] = lp[-1, ext[-1]]
    if s > 1:
        beta[-1, -2] = lp[-1, ext[-2]]
    skip_back = np.zeros(s, bool)
    skip_back[:-2] = skip[2:]
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        step = np.concatenate([nxt[1:], [neg]])
        jump = np.where(skip_back, np.concatenate([nxt[2:], [neg, neg]]), neg)
        beta[t] = _log_add(np.stack([nxt, step, jump]), f) + lp[t, ext]
    both = alpha + beta
    collected = np.full(lp.shape, neg)
    for k in range(s - 1, -1, -1):  # "log +=" per symbol, the positions in descending order
        c = ext[k]
        have, new = collected[:, c], both[:, k]
        top = np.maximum(have, new)
        summed = _libm(np.log, _libm(np.exp, have - top) + _libm(np.exp, new - top)) + top
        collected[:, c] = np.where(have == neg, new, summed)
    return -ll, collected


class CtcLoss(Op):
    """z_n = -log Σ over alignments of target n of Π_t p(symbol at t) (the CTC loss);
    dz/dlogp = p - the posterior of each symbol at each step (forward-backward)."""

    _backward_name = "CtcLossBackward0"

    @staticmethod
    def forward(
        ctx,
        log_probs,
        targets=None,
        input_lengths=(),
        target_lengths=(),
        blank=0,
        zero_infinity=False,
    ):
        f = log_probs.dtype.type
        losses = np.zeros(log_probs.shape[1], log_probs.dtype)
        collected = np.full(log_probs.shape, f(-np.inf))
        offset = 0
        for n, (steps, length) in enumerate(zip(input_lengths, target_lengths, strict=True)):
            if targets.ndim == 2:
                target = targets[n, :length]
            else:
                target = targets[offset : offset + length]
                offset += length
            if steps == 0:
                losses[n] = f(0) if length == 0 else f(np.inf)
                continue
            losses[n], collected[:steps, n] = _ctc_one(log_probs[:steps, n], target, blank)
        ctx.info = (log_probs, collected, losses, tuple(input_lengths), zero_infinity)
        if zero_infinity:
            return np.where(losses == np.inf, f(0), losses)
        return losses

    @staticmethod
    def backward(ctx, grad):
        lp, collected, nll, lengths, zero_infinity = ctx.info
        gr = np.asarray(grad, lp.dtype)[None, :, None]
        out = (_libm(np.exp, lp) - _libm(np.exp, collected + nll[None, :, None] - lp)) * gr
        for n, steps in enumerate(lengths):
            out[steps:, n] = 0
            if zero_infinity and nll[n] == np.inf:
                out[:, n] = 0
        return out


def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank=0,
    reduction="mean",
    zero_infinity=False,
):
    """The CTC loss of log-probabilities (T, N, C) against unaligned targets; 'mean' divides
    each loss by its target length, then averages, as PyTorch does."""
    check_reduction(reduction)

    def ints(v):
        return [int(x) for x in np.ravel(v._data if hasattr(v, "_data") else v)]

    lengths_in, lengths_out = ints(input_lengths), ints(target_lengths)
    losses = CtcLoss.apply(
        log_probs,
        targets=np.asarray(targets._data),
        input_lengths=lengths_in,
        target_lengths=lengths_out,
        blank=blank,
        zero_infinity=zero_infinity,
    )
    if reduction == "none":
        return losses
    if reduction == "sum":
        return reductions.sum(losses)
    divisor = make(np.maximum(np.asarray(lengths_out), 1).astype(log_probs._data.dtype))
    return reductions.mean(losses / divisor)
