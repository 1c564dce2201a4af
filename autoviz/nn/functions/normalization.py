"""Batch, layer, group, instance, local-response and RMS normalisation, and normalize."""

import numbers

import numpy as np

from ...engine import functional as _F
from ...engine import shape_ops
from .. import norm_ops, ops


def batch_norm(
    input,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training=False,
    momentum=0.1,
    eps=1e-05,
):
    """Normalise each channel (axis 1) by the batch's statistics in training, updating the
    running ones, or by the running ones in evaluation."""
    if training:
        size = int(np.prod([n for i, n in enumerate(input.shape) if i != 1]))
        if size == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{input.shape!r}"
            )
        if running_mean is not None:
            _update_running(input, running_mean, running_var, momentum)
    elif running_mean is None:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    stats = None if training else (running_mean._data, running_var._data)
    return ops.NativeBatchNorm.apply(input, weight, bias, stats=stats, eps=eps, training=training)


def _update_running(input, running_mean, running_var, momentum) -> None:
    """running = momentum · batch statistic + (1 - momentum) · running, in float64 as
    PyTorch does it (the variance unbiased)."""
    mean, var_sum = ops.batch_stats(input._data)
    n = input.numel() // input.shape[1]
    unbiased = var_sum.astype(np.float64) / max(n - 1, 1)
    for stat, value in ((running_mean, mean.astype(np.float64)), (running_var, unbiased)):
        store = stat._storage()
        store[...] = momentum * value + (1 - momentum) * store.astype(np.float64)


def _shape(normalized_shape) -> tuple:
    if isinstance(normalized_shape, numbers.Integral):
        return (int(normalized_shape),)
    return tuple(int(n) for n in normalized_shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalise over the last len(normalized_shape) axes of each sample, then scale and
    shift elementwise (weight, bias of normalized_shape)."""
    shape = _shape(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape) :]) != shape or len(shape) > input.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{input.shape!r}"
        )
    return norm_ops.NativeLayerNorm.apply(input, weight, bias, normalized_shape=shape, eps=eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each sample's channels in num_groups groups (over the group's channels and
    all positions), then scale and shift per channel."""
    if input.ndim < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.ndim}"
        )
    if input.shape[1] % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got "
            f"input of shape {input.shape!r} and num_groups={num_groups}"
        )
    return norm_ops.NativeGroupNorm.apply(input, weight, bias, groups=num_groups, eps=eps)


def instance_norm(
    input,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    use_input_stats=True,
    momentum=0.1,
    eps=1e-05,
):
    """Normalise each channel of each sample over its positions: batch_norm on the input
    viewed as one sample of N·C channels, as PyTorch computes it."""
    n, c = input.shape[:2]
    flat = shape_ops.View.apply(input, shape=(1, n * c, *input.shape[2:]))
    w = weight.repeat(n) if weight is not None else None
    b = bias.repeat(n) if bias is not None else None
    mean = _F.cat([running_mean] * n) if running_mean is not None else None
    var = _F.cat([running_var] * n) if running_var is not None else None
    out = batch_norm(flat, mean, var, w, b, use_input_stats, momentum, eps)
    if running_mean is not None and use_input_stats:
        for stat, new in ((running_mean, mean), (running_var, var)):
            stat._storage()[...] = new._data.reshape(n, c).mean(axis=0)
    return shape_ops.View.apply(out, shape=tuple(input.shape))


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """x / (k + α/n · Σ x² over n neighbouring channels)^β, as PyTorch composes it from
    padding and average pooling."""
    from .padding import pad
    from .pooling import avg_pool2d, avg_pool3d

    dim = input.ndim
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = (input * input).unsqueeze(1)
    if dim == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(*sizes)
    div = (div * alpha + k).pow(beta)
    return input / div


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / √(mean(x²) + eps) over the last axes, times weight (eps: the dtype's epsilon)."""
    shape = _shape(normalized_shape)
    dims = tuple(range(-len(shape), 0))
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out * weight if weight is not None else out


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(‖input‖_p along dim, eps): unit-length rows (or columns)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom
