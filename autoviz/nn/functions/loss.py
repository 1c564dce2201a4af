"""Every loss of torch.nn.functional, recorded as PyTorch records it: one node where PyTorch
has a kernel (mse, nll, bce, smooth_l1, huber, the margin losses), ordinary ops where it
composes (l1, kl_div, the embedding and ranking losses, poisson and gaussian nll)."""

import math
import warnings

import numpy as np

from ...engine import functional as _F
from ...engine import shape_ops
from ...engine.grad_mode import no_grad
from ...engine.tensor import make
from .. import loss_ops, ops
from .common import as_tensor, check_reduction, dtype_word, legacy_reduction


def _reduction(size_average, reduce, reduction):
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    return reduction


def _apply_reduction(losses, reduction):
    if reduction == "none":
        return losses
    return _F.sum(losses) if reduction == "sum" else _F.mean(losses)


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
    return ops.MseLoss.apply(input, target, reduction=reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of absolute differences: |input - target| then the mean, as PyTorch
    composes it."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _warn_shapes(input, target)
    losses = _F.abs(input - target)
    if weight is not None:
        losses = losses * weight
    return _apply_reduction(losses, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """½ d² / β for |d| < β, |d| - ½β beyond (d = input - target); β = 0 is the L1 loss."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    _warn_shapes(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(input, target, reduction=reduction)
    return loss_ops.SmoothL1Loss.apply(input, target, reduction=reduction, beta=beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """½ d² for |d| ≤ δ, δ (|d| - ½δ) beyond: smooth_l1 scaled by δ."""
    check_reduction(reduction)
    target = as_tensor(target)
    _warn_shapes(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        losses = loss_ops.HuberLoss.apply(input, target, reduction="none", delta=delta)
        return _apply_reduction(losses * weight, reduction)
    return loss_ops.HuberLoss.apply(input, target, reduction=reduction, delta=delta)


def _check_nll_shapes(input, target) -> None:
    if input.ndim >= 2 and target.ndim >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0]})."
        )
    if target._data.dtype.kind not in "iu":
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
        return ops.NllLoss.apply(input, target=labels, **options)
    if input.ndim == 4:
        return ops.NllLoss2d.apply(input, target=labels, **options)
    # PyTorch folds other spatial ranks into the 4-D case, and unfolds a 'none' result.
    image = shape_ops.View.apply(input, shape=(*input.shape[:3], -1))
    out = ops.NllLoss2d.apply(image, target=labels.reshape(*labels.shape[:2], -1), **options)
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
    logp = _F.log_softmax(input, class_dim)
    classes = input.shape[class_dim]
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
        smooth = -_F.sum(logp * weight.reshape(shape), dim=class_dim)
    else:
        smooth = -_F.sum(logp, dim=class_dim)
    smooth = smooth.masked_fill(make(ignored), 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = np.asarray(target._data)[~ignored]
            smooth = _F.sum(smooth) / make(np.sum(weight._data[kept], dtype=weight._data.dtype))
        else:
            smooth = _F.sum(smooth) / make(np.asarray(np.count_nonzero(~ignored), np.int64))
    elif reduction == "sum":
        smooth = _F.sum(smooth)
    return nll * (1 - eps) + smooth * (eps / classes)


def _soft_cross_entropy(logp, target, weight, class_dim, reduction):
    """-Σ target · logp over classes, from plain ops as PyTorch records it."""
    prod = logp * target
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = -1
        prod = prod * weight.reshape(shape)
    if reduction == "none":
        return -_F.sum(prod, dim=class_dim)
    total = -_F.sum(prod)
    if reduction == "sum":
        return total
    batch = logp.shape[0] if logp.ndim > 1 else 1
    return ops.DivScalar.apply(total, c=batch)


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
    return ops.BinaryCrossEntropy.apply(input, target, weight=w, reduction=reduction)


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
    w = None if weight is None else np.asarray(weight._data, dtype=input._data.dtype)
    pw = None if pos_weight is None else np.asarray(pos_weight._data, dtype=input._data.dtype)
    return ops.BinaryCrossEntropyWithLogits.apply(
        input, target, weight=w, pos_weight=pw, reduction=reduction
    )


def _xlogy_self(t):
    """t · log t, 0 where t = 0 (the entropy term of kl_div)."""
    data = t._data
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(data == 0, 0, data * np.log(np.where(data == 0, 1, data)))
    if not t.requires_grad:
        return make(np.asarray(values, data.dtype))
    return _F.where(make(data == 0), make(np.zeros((), data.dtype)), t * t.log())


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
    losses = target.exp() * (target - input) if log_target else _xlogy_self(target) - target * input
    if reduction == "batchmean":
        total = _F.sum(losses)
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
        t = target._data.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = t * np.log(t) - t + 0.5 * np.log(2 * math.pi * t)
        stirling = np.where(t <= 1, 0, stirling).astype(input._data.dtype)
        losses = losses + make(stirling)
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
    losses = _F.where(make(t != 1), clamped, zeros) + _F.where(make(t != -1), input, zeros)
    return _apply_reduction(losses, reduction)


def cosine_embedding_loss(
    input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"
):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    dim = 1 if input1.ndim == 2 else 0
    eps = 1e-12
    prod = _F.sum(input1 * input2, dim=dim)
    mag1 = _F.sum(input1 * input1, dim=dim) + eps
    mag2 = _F.sum(input2 * input2, dim=dim) + eps
    cos = prod / (mag1 * mag2).sqrt()
    zeros = make(np.zeros(cos.shape, cos._data.dtype))
    t = target._data
    losses = _F.where(make(t == 1), 1 - cos, zeros) + _F.where(
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
    from .distance import pairwise_distance

    reduction = _reduction(size_average, reduce, reduction)
    _same_dims("triplet_margin_loss", anchor=anchor, positive=positive, negative=negative)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = _F.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((margin + d_pos - d_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction="mean"
):
    """triplet_margin_loss with any distance (pairwise_distance by default)."""
    from .distance import pairwise_distance

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
        d_neg = _F.minimum(d_neg, dist(positive, negative))
    return _apply_reduction((margin + d_pos - d_neg).clamp_min(0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-y · input)): a smooth hinge for labels ±1."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    return loss_ops.SoftMarginLoss.apply(input, target, reduction=reduction)


def multilabel_soft_margin_loss(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """-(y log σ(x) + (1 - y) log σ(-x)) averaged over the classes."""
    from .activation import logsigmoid

    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.ndim - 1
    losses = _F.sum(losses, dim=class_dim) / input.shape[class_dim]
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
    return loss_ops.MultiMarginLoss.apply(
        input, target=target._data, p=p, margin=margin, weight=w, reduction=reduction
    )


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Hinge loss between each target class (read up to the first -1) and every other."""
    reduction = _reduction(size_average, reduce, reduction)
    target = as_tensor(target)
    return loss_ops.MultilabelMarginLoss.apply(input, target=target._data, reduction=reduction)
