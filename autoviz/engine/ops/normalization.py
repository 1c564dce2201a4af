"""Batch, layer, group, instance, local-response and RMS normalisation, and normalize.

Batch norm follows PyTorch's CPU kernel (float32 terms, sums in float64); layer and group
norm take their statistics in float64, rounded to the input's dtype, then apply them as
PyTorch's kernels do: y = (x · rstd - mean · rstd) · weight + bias."""

import numbers

import numpy as np

from ..fidelity.fma import fma32
from ..fidelity.sums import _seq, vec_reduce_all
from . import shape as shape_ops
from .arguments import size_list
from .base import Op, writes_out


class NativeBatchNorm(Op):
    """z = (x - mean) / √(var + eps) · weight + bias per channel (axis 1), the statistics over
    the batch (and length) axes in training; the gradient is the usual batch-norm one. The
    arithmetic follows PyTorch's CPU kernel (one thread, vectorised): float32 terms, sums
    in float64 or in its vector order, x · alpha + beta and the gradient's update by FMA."""

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
            # the variance is var_sum / n in the input's dtype, then widened for 1/√(· + eps)
            var = (var_sum / dtype.type(n)).astype(np.float64)
        else:
            mean = np.asarray(stats[0], dtype)
            var = np.asarray(stats[1], dtype) + dtype.type(eps)
        # evaluation: 1/√(var + eps) in the input's dtype forward, in float64 backward
        invstd = (1 / np.sqrt(var + (eps if training else 0.0))).astype(dtype)
        wide = np.asarray(stats[1], np.float64) + eps if not training else None
        w = np.ones_like(mean) if weight is None else np.asarray(weight, dtype)
        b = np.zeros_like(mean) if bias is None else np.asarray(bias, dtype)
        alpha = invstd * w
        beta = _fma(-mean, alpha, b)
        ctx.save_for_backward(x, mean, invstd, w)
        ctx.info = (axes, shape, training, wide)
        return _fma(x, alpha.reshape(shape), beta.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        x, mean, invstd, w = ctx.saved_tensors
        axes, shape, training, wide = ctx.info
        n = np.size(x) // np.shape(x)[1]
        centred = x - mean.reshape(shape)
        if np.asarray(grad).flags.c_contiguous:
            total = _channel_sums(grad)
            dotp = _channel_sums(centred * grad, (centred, grad))
        else:  # torch's path for a strided gradient (an expanded one, of .sum()): float64 sums
            total = np.sum(grad, axis=axes, dtype=np.float64)
            dotp = np.sum(centred * grad, axis=axes, dtype=np.float64)
        dtype = np.result_type(x)
        if training:
            k = dotp.astype(dtype) * invstd * invstd / dtype.type(n)
            grad_mean = (total / n).astype(dtype)
            g_x = grad - grad_mean.reshape(shape)
            if n == np.shape(x)[0]:  # channels-last: (dy - mean(dy)) - centred · k, rounded twice
                g_x = g_x - centred * k.reshape(shape)
            else:
                g_x = _fma(-centred, k.reshape(shape), g_x)
            g_x = g_x * invstd.reshape(shape) * w.reshape(shape)
        else:
            invstd = (1 / np.sqrt(wide)).astype(dtype)
            g_x = grad * invstd.reshape(shape) * w.reshape(shape)
        return (
            np.asarray(g_x, dtype),
            (dotp * invstd).astype(dtype),
            total.astype(dtype),
        )


def _channel_sums(v, factors=None):
    """Per-channel float64 sums of v (= the product of `factors`, if given) as PyTorch's
    backward kernel adds them on one thread: with positions per channel, each sample's
    positions by vec::reduce_all in float32, those in float64; without (an (N, C) batch,
    laid out as channels-last), the rows added in turn in float32, products by FMA."""
    axes = (0, *range(2, np.ndim(v)))
    batch, channels = np.shape(v)[:2]
    if np.result_type(v) != np.float32:
        return np.sum(v, axis=axes, dtype=np.float64)
    if np.size(v) == batch * channels:
        if factors is None:
            return _seq(np.reshape(v, (batch, channels))).astype(np.float64)
        a, b = (np.reshape(f, (batch, channels)) for f in factors)
        total = np.zeros(channels, np.float32)
        for row_a, row_b in zip(a, b, strict=True):
            total = fma32(row_a, row_b, total)
        return total.astype(np.float64)
    rows = vec_reduce_all(np.reshape(v, (batch * channels, -1)))
    return rows.reshape(batch, channels).sum(axis=0, dtype=np.float64)


def batch_stats(x):
    """Per-channel mean and Σ (x - mean)², as PyTorch's kernel computes them on one thread:
    with positions per channel, float64 sums of float32 values and squares; without (an
    (N, C) batch, laid out as channels-last), the rows added in turn in float32, the squares
    by FMA."""
    dtype = np.result_type(x)
    axes = (0, *range(2, np.ndim(x)))
    n = np.size(x) // np.shape(x)[1]
    shape = [1] * np.ndim(x)
    shape[1] = -1
    if n != np.shape(x)[0] or dtype != np.float32:
        mean = (np.sum(x, axis=axes, dtype=np.float64) / n).astype(dtype)
        centred = x - mean.reshape(shape)
        var_sum = np.sum(centred * centred, axis=axes, dtype=np.float64).astype(dtype)
        return mean, var_sum
    rows = np.reshape(x, (n, -1))
    total = rows[0].copy()
    for row in rows[1:]:
        total += row
    mean = (total.astype(np.float64) / n).astype(dtype)
    var_sum = np.zeros_like(mean)
    for row in rows:
        d = row - mean
        var_sum = fma32(d, d, var_sum)
    return mean, var_sum


def _fma(a, b, c):
    """a·b + c as PyTorch's vectorised float32 kernel computes it (one rounding)."""
    if np.result_type(a, b, c) == np.float32:
        return fma32(a, b, c)
    return np.asarray(a * b + c)


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
    channels = input.shape[1] if input.ndim > 1 else 1
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):  # fmt: skip
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
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
    """running = momentum · batch statistic + (1 - momentum) · running (the variance
    unbiased), rounded where PyTorch's CPU kernel rounds: momentum in the running
    statistics' dtype, the mean's update in that dtype, the variance's in float64."""
    mean, var_sum = batch_stats(input._data)
    n = input.numel() // input.shape[1]
    unbiased = var_sum / var_sum.dtype.type(max(n - 1, 1))
    dtype = mean.dtype.type
    m, rest = dtype(momentum), dtype(1) - dtype(momentum)
    mean_store, var_store = running_mean._storage(), running_var._storage()
    mean_store[...] = m * mean + rest * mean_store
    # the unbiased variance is widened to float64 before its product, the rest's is not
    var_store[...] = float(m) * unbiased.astype(np.float64) + (rest * var_store).astype(np.float64)


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
    _check_normalized(input, shape, weight)
    dims = tuple(range(-len(shape), 0))
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out * weight if weight is not None else out


def _check_normalized(input, shape: tuple, weight) -> None:
    """rms_norm's checks, in torch's words: a non-empty normalized_shape that ends the input's
    shape, and a weight of that shape."""
    if not shape:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    wanted = size_list(shape)
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(
            "Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{size_list(weight.shape)} and normalized_shape = {wanted}"
        )
    if input.ndim < len(shape) or tuple(input.shape[input.ndim - len(shape) :]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={wanted}, expected input with shape [*{wanted[1:]}, but "
            f"got input of size{size_list(input.shape)}"
        )


@writes_out
def normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(‖input‖_p along dim, eps): unit-length rows (or columns)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom
