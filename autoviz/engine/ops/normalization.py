"""Batch, layer, group, instance, local-response and RMS normalisation, and normalize.

Batch norm follows PyTorch's CPU kernel (float32 terms, sums in float64); layer and group
norm take their statistics in float64, rounded to the input's dtype, then apply them as
PyTorch's kernels do: y = (x · rstd - mean · rstd) · weight + bias."""

import functools
import numbers
import os
from pathlib import Path

import numpy as np

from ..fidelity.fma import fma32, fma64
from . import shape as shape_ops
from .arguments import size_list
from .base import Op


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
            var = (var_sum / dtype.type(n)).astype(np.float64)  # a float32 division, as torch's
            invstd = (1 / np.sqrt(var + eps)).astype(dtype)
        else:
            mean = np.asarray(stats[0], dtype)
            invstd = (1 / np.sqrt(np.asarray(stats[1], np.float64) + eps)).astype(dtype)
        w = np.ones_like(mean) if weight is None else np.asarray(weight, dtype)
        b = np.zeros_like(mean) if bias is None else np.asarray(bias, dtype)
        alpha = invstd * w
        beta = b - mean * alpha
        ctx.save_for_backward(x, mean, invstd, w)
        ctx.info = (axes, shape, training)
        # x · alpha + beta in one rounding: PyTorch's AVX2 and AVX-512 kernels fuse them
        fma = fma64 if dtype == np.float64 else fma32
        return np.asarray(fma(x, alpha.reshape(shape), beta.reshape(shape)), dtype)

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
    """Per-channel mean and Σ (x - mean)², as PyTorch's kernel computes them: for (N, C, ...)
    float64 sums of float32 values and squares; for (N, C) its channels-last kernel's float32
    sums, one per thread's block of rows, added up in float64."""
    dtype = np.result_type(x)
    if np.ndim(x) == 2 and dtype == np.float32:
        return _rows_stats(x)
    axes = (0, *range(2, np.ndim(x)))
    n = np.size(x) // np.shape(x)[1]
    mean = (np.sum(x, axis=axes, dtype=np.float64) / n).astype(dtype)
    shape = [1] * np.ndim(x)
    shape[1] = -1
    centred = x - mean.reshape(shape)
    var_sum = np.sum(centred * centred, axis=axes, dtype=np.float64).astype(dtype)
    return mean, var_sum


def _rows_stats(x):
    n = len(x)
    threads = min(_torch_threads(), n)
    step = -(-n // threads)
    blocks = [x[i : i + step] for i in range(0, n, step)]
    sums = [np.cumsum(b, axis=0, dtype=np.float32)[-1] for b in blocks]
    mean = (np.sum(np.array(sums, np.float64), axis=0) / n).astype(np.float32)
    parts = []
    # y + (x - mean)², row by row, fused by torch's kernel: the square is exact in float64, so
    # float64 then float32 rounds as the fused add does (but for a double-rounding tie)
    for b in blocks:
        y = np.zeros(x.shape[1], np.float64)
        for row in (b - mean).astype(np.float64):
            y = (row * row + y).astype(np.float32).astype(np.float64)
        parts.append(y)
    return mean, np.sum(np.array(parts, np.float64), axis=0).astype(np.float32)


def _torch_threads():
    """The intra-op thread count PyTorch starts with: OMP_NUM_THREADS or MKL_NUM_THREADS,
    else MKL's default, the physical cores this process may run on."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    return _physical_cores()


@functools.cache
def _physical_cores():
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return len(allowed) if allowed else os.cpu_count() or 1
    cores, cpu, package = set(), None, None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "processor":
            cpu = int(value)
        elif key == "physical id":
            package = value
        elif key == "core id" and (allowed is None or cpu in allowed):
            cores.add((package, value))
    return len(cores) or (len(allowed) if allowed else os.cpu_count() or 1)


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
    return NativeBatchNorm.apply(input, weight, bias, stats=stats, eps=eps, training=training)


def _update_running(input, running_mean, running_var, momentum) -> None:
    """running = momentum · batch statistic + (1 - momentum) · running, in float64 as
    PyTorch does it (the variance unbiased)."""
    mean, var_sum = batch_stats(input._data)
    n = input.numel() // input.shape[1]
    unbiased = (var_sum / var_sum.dtype.type(max(n - 1, 1))).astype(np.float64)
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
            f"[*, {', '.join(map(str, shape))}], but got input of size{size_list(input.shape)}"
        )
    return NativeLayerNorm.apply(input, weight, bias, normalized_shape=shape, eps=eps)


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
            f"input of shape {size_list(input.shape)} and num_groups={num_groups}"
        )
    return NativeGroupNorm.apply(input, weight, bias, groups=num_groups, eps=eps)


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
    mean = shape_ops.cat([running_mean] * n) if running_mean is not None else None
    var = shape_ops.cat([running_var] * n) if running_var is not None else None
    out = batch_norm(flat, mean, var, w, b, use_input_stats, momentum, eps)
    if running_mean is not None and use_input_stats:
        for stat, new in ((running_mean, mean), (running_var, var)):
            stat._storage()[...] = new._data.reshape(n, c).mean(axis=0)
    return shape_ops.View.apply(out, shape=tuple(input.shape))


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """x / (k + α/n · Σ x² over n neighbouring channels)^β, as PyTorch composes it from
    padding and average pooling."""
    from .convolution import pad
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
