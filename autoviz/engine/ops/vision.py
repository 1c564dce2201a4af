"""The vision layers' ops as PyTorch records them: pixel (un)shuffle, channel shuffle,
unfold/fold (Im2Col, Col2Im) and the upsampling of interpolate (nearest, nearest-exact,
linear, bilinear, bicubic, trilinear); then their functions.

Interpolation is separable: along each resized axis a small matrix of PyTorch's source
indices and weights (its coordinate rules, in float32), applied one axis after another.
"""

import itertools
import math
import warnings

import numpy as np

from .arguments import ntuple
from .base import Op
from .convolution import pad_zeros, windows


class PixelShuffle(Op):
    """(N, C·r², H, W) → (N, C, H·r, W·r): each r² channels tile an r×r block;
    dz/dx = the gradient unshuffled."""

    _backward_name = "PixelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, r=1):
        ctx.info = (np.shape(x), r)
        return _shuffle(x, r)

    @staticmethod
    def backward(ctx, grad):
        shape, r = ctx.info
        return _unshuffle(grad, r).reshape(shape)


def _shuffle(x, r):
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    y = np.moveaxis(y, (-4, -3), (-3, -1))  # (..., C, H, r, W, r)
    return np.ascontiguousarray(y).reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle(x, r):
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    y = np.moveaxis(y, (-3, -1), (-4, -3))  # (..., C, r, r, H/r, W/r)
    return np.ascontiguousarray(y).reshape(*lead, c * r * r, h // r, w // r)


class PixelUnshuffle(Op):
    """(N, C, H·r, W·r) → (N, C·r², H, W), the inverse of pixel_shuffle;
    dz/dx = the gradient shuffled back."""

    _backward_name = "PixelUnshuffleBackward0"

    @staticmethod
    def forward(ctx, x, r=1):
        ctx.info = (np.shape(x), r)
        return _unshuffle(x, r)

    @staticmethod
    def backward(ctx, grad):
        shape, r = ctx.info
        return _shuffle(grad, r).reshape(shape)


class ChannelShuffle(Op):
    """The channels regrouped: (g, C/g) read as (C/g, g) (ShuffleNet);  dz/dx = the
    gradient regrouped back."""

    _backward_name = "ChannelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, groups=1):
        n, c = x.shape[:2]
        ctx.info = groups
        y = x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2)
        return np.ascontiguousarray(y).reshape(x.shape)

    @staticmethod
    def backward(ctx, grad):
        n, c = grad.shape[:2]
        g = ctx.info
        y = grad.reshape(n, c // g, g, *grad.shape[2:]).swapaxes(1, 2)
        return np.ascontiguousarray(y).reshape(grad.shape)


def _im2col(x, kernel, dilation, padding, stride):
    patches = windows(pad_zeros(x, padding), kernel, stride, dilation)  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow, kh, kw = patches.shape
    cols = np.moveaxis(patches, (4, 5), (2, 3))
    return np.ascontiguousarray(cols).reshape(n, c * kh * kw, oh * ow)


def _col2im(cols, size, kernel, dilation, padding, stride):
    kh, kw = kernel
    n = cols.shape[0]
    c = cols.shape[1] // (kh * kw)
    oh, ow = (
        (s + 2 * p - d * (k - 1) - 1) // st + 1
        for s, p, d, k, st in zip(size, padding, dilation, kernel, stride, strict=True)
    )
    blocks = cols.reshape(n, c, kh, kw, oh, ow)
    full = np.zeros((n, c, size[0] + 2 * padding[0], size[1] + 2 * padding[1]), cols.dtype)
    for i, j in itertools.product(range(kh), range(kw)):
        rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (oh - 1) + 1, stride[0])
        columns = slice(j * dilation[1], j * dilation[1] + stride[1] * (ow - 1) + 1, stride[1])
        full[:, :, rows, columns] += blocks[:, :, i, j]
    return full[:, :, padding[0] : padding[0] + size[0], padding[1] : padding[1] + size[1]]


class Im2Col(Op):
    """z = every sliding block of x flattened into a column (F.unfold);  dz/dx = each
    column's gradient added back where its block was (col2im)."""

    _backward_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx, x, kernel=(), dilation=(), padding=(), stride=()):
        ctx.info = (x.shape[2:], kernel, dilation, padding, stride)
        return _im2col(x, kernel, dilation, padding, stride)

    @staticmethod
    def backward(ctx, grad):
        size, kernel, dilation, padding, stride = ctx.info
        return _col2im(grad, size, kernel, dilation, padding, stride)


class Col2Im(Op):
    """z = the columns added back into an image of output_size (F.fold);  dz/dcols = the
    gradient's blocks read out again (im2col)."""

    _backward_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, cols, size=(), kernel=(), dilation=(), padding=(), stride=()):
        ctx.info = (kernel, dilation, padding, stride)
        return _col2im(cols, size, kernel, dilation, padding, stride)

    @staticmethod
    def backward(ctx, grad):
        kernel, dilation, padding, stride = ctx.info
        return _im2col(grad, kernel, dilation, padding, stride)


# -- interpolation ---------------------------------------------------------------------------------
_F32 = np.float32
_CUBIC_A = -0.75


def _scale(n_in, n_out, align_corners, factor):
    """PyTorch's area_pixel_compute_scale: the source step per output step."""
    if align_corners:
        return _F32((n_in - 1) / (n_out - 1)) if n_out > 1 else _F32(0)
    return _F32(1.0 / factor) if factor is not None and factor > 0 else _F32(n_in / n_out)


def _nearest_matrix(n_in, n_out, factor, exact):
    out = np.arange(n_out)
    if n_out == n_in and not exact:
        src = out
    elif n_out == 2 * n_in and not exact:
        src = out >> 1
    else:
        scale = _F32(1.0 / factor) if factor is not None and factor > 0 else _F32(n_in / n_out)
        position = (out.astype(_F32) + _F32(0.5)) * scale if exact else out.astype(_F32) * scale
        src = np.minimum(np.floor(position).astype(np.int64), n_in - 1)
    m = np.zeros((n_out, n_in), _F32)
    m[out, src] = 1
    return m


def _source(n_in, n_out, align_corners, factor, cubic):
    scale = _scale(n_in, n_out, align_corners, factor)
    out = np.arange(n_out).astype(_F32)
    if align_corners:
        return scale * out
    src = scale * (out + _F32(0.5)) - _F32(0.5)
    return src if cubic else np.maximum(src, _F32(0))


def _linear_matrix(n_in, n_out, align_corners, factor):
    src = _source(n_in, n_out, align_corners, factor, cubic=False)
    i0 = np.floor(src).astype(np.int64)
    i1 = i0 + (i0 < n_in - 1)
    w1 = (src - i0.astype(_F32)).astype(_F32)
    w0 = _F32(1) - w1
    m = np.zeros((n_out, n_in), _F32)
    rows = np.arange(n_out)
    np.add.at(m, (rows, i0), w0)
    np.add.at(m, (rows, i1), w1)
    return m


def _cubic_weights(t):
    a = _F32(_CUBIC_A)

    def near(x):  # |x| ≤ 1
        return ((a + _F32(2)) * x - (a + _F32(3))) * x * x + _F32(1)

    def far(x):  # 1 < |x| < 2
        return ((a * x - _F32(5) * a) * x + _F32(8) * a) * x - _F32(4) * a

    return far(t + _F32(1)), near(t), near(_F32(1) - t), far(_F32(2) - t)


def _cubic_matrix(n_in, n_out, align_corners, factor):
    src = _source(n_in, n_out, align_corners, factor, cubic=True)
    i = np.floor(src).astype(np.int64)
    t = (src - i.astype(_F32)).astype(_F32)
    m = np.zeros((n_out, n_in), _F32)
    rows = np.arange(n_out)
    for k, w in zip(range(-1, 3), _cubic_weights(t), strict=True):
        np.add.at(m, (rows, np.clip(i + k, 0, n_in - 1)), w)
    return m


def interpolation_matrix(mode, n_in, n_out, align_corners, factor):
    """The (n_out, n_in) matrix of one axis: output = matrix @ input along that axis."""
    if mode in ("nearest", "nearest-exact"):
        return _nearest_matrix(n_in, n_out, factor, mode == "nearest-exact")
    if mode == "bicubic":
        return _cubic_matrix(n_in, n_out, align_corners, factor)
    return _linear_matrix(n_in, n_out, align_corners, factor)


class _Upsample(Op):
    """z = x resized along its last axes, each by its interpolation matrix M (PyTorch's
    source positions and weights);  dz/dx = the gradient through each Mᵀ in turn."""

    @staticmethod
    def forward(ctx, x, matrices=()):
        ctx.info = matrices
        nd = len(matrices)
        y = x
        for k in reversed(range(nd)):  # the last axis first, as PyTorch's kernels weigh
            axis = x.ndim - nd + k
            y = np.moveaxis(
                np.tensordot(y, matrices[k].astype(x.dtype), axes=([axis], [1])), -1, axis
            )
        return np.ascontiguousarray(y)

    @staticmethod
    def backward(ctx, grad):
        matrices = ctx.info
        nd = len(matrices)
        g = grad
        for k in range(nd):
            axis = grad.ndim - nd + k
            g = np.moveaxis(
                np.tensordot(g, matrices[k].astype(grad.dtype), axes=([axis], [0])), -1, axis
            )
        return np.ascontiguousarray(g)


def _upsample(name):
    return type(
        name,
        (_Upsample,),
        {
            "_backward_name": f"{name}Backward0",
            "__doc__": f"interpolate's {name} (separable interpolation matrices).",
            "__module__": __name__,
        },
    )


UPSAMPLE = {
    ("nearest", 1): _upsample("UpsampleNearest1D"),
    ("nearest", 2): _upsample("UpsampleNearest2D"),
    ("nearest", 3): _upsample("UpsampleNearest3D"),
    ("nearest-exact", 1): _upsample("UpsampleNearestExact1D"),
    ("nearest-exact", 2): _upsample("UpsampleNearestExact2D"),
    ("nearest-exact", 3): _upsample("UpsampleNearestExact3D"),
    ("linear", 1): _upsample("UpsampleLinear1D"),
    ("bilinear", 2): _upsample("UpsampleBilinear2D"),
    ("bicubic", 2): _upsample("UpsampleBicubic2D"),
    ("trilinear", 3): _upsample("UpsampleTrilinear3D"),
}


# -- functions -------------------------------------------------------------------------------------
def pixel_shuffle(input, upscale_factor):
    """Rearrange (*, C·r², H, W) into (*, C, H·r, W·r): sub-pixel convolution's output."""
    if input.ndim < 3:
        raise RuntimeError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.ndim} dimension(s)"
        )
    r = int(upscale_factor)
    if input.shape[-3] % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={input.shape[-3]} is not divisible by "
            f"{r * r}"
        )
    return PixelShuffle.apply(input, r=r)


def pixel_unshuffle(input, downscale_factor):
    """Rearrange (*, C, H·r, W·r) into (*, C·r², H, W)."""
    r = int(downscale_factor)
    if input.ndim < 3:
        raise RuntimeError(
            f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{input.ndim} dimension(s)"
        )
    for axis, name in ((-2, "height"), (-1, "width")):
        if input.shape[axis] % r:
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({axis})={input.shape[axis]} is not divisible by {r}"
            )
    return PixelUnshuffle.apply(input, r=r)


def channel_shuffle(input, groups):
    """Interleave the channels of `groups` groups (ShuffleNet's shuffle)."""
    if input.shape[1] % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {input.shape[1]} channels and "
            f"{groups} groups."
        )
    return ChannelShuffle.apply(input, groups=int(groups))


native_channel_shuffle = channel_shuffle


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Every sliding kernel_size block of a (N, C, H, W) input as a column: (N, C·kh·kw, L)."""
    if input.ndim not in (3, 4):
        raise NotImplementedError(
            f"Input Error: Only 3D or 4D input Tensors are supported (got {input.ndim}D)"
        )
    unbatched = input.ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    out = Im2Col.apply(
        x,
        kernel=ntuple(kernel_size, 2),
        dilation=ntuple(dilation, 2),
        padding=ntuple(padding, 2),
        stride=ntuple(stride, 2),
    )
    return out.squeeze(0) if unbatched else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse of unfold: columns (N, C·kh·kw, L) added back into (N, C, *output_size)."""
    if input.ndim not in (2, 3):
        raise NotImplementedError(
            "Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got "
            f"{input.ndim}D)"
        )
    unbatched = input.ndim == 2
    x = input.unsqueeze(0) if unbatched else input
    kernel = ntuple(kernel_size, 2)
    if x.shape[1] % (kernel[0] * kernel[1]):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={x.shape[1]} and kernel_size={kernel}"
        )
    out = Col2Im.apply(
        x,
        size=ntuple(output_size, 2),
        kernel=kernel,
        dilation=ntuple(dilation, 2),
        padding=ntuple(padding, 2),
        stride=ntuple(stride, 2),
    )
    return out.squeeze(0) if unbatched else out


_MODES_BY_RANK = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode="nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias=False,
):
    """Resize the spatial axes to `size`, or by `scale_factor`, with PyTorch's sampling
    rules for each mode (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area)."""
    nd = input.ndim - 2
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | "
            "bilinear | bicubic | trilinear"
        )
    if mode not in ("nearest", "nearest-exact", "area", *_MODES_BY_RANK):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
            f"nearest-exact (got {mode})"
        )
    if mode in _MODES_BY_RANK and _MODES_BY_RANK[mode] != nd:
        raise NotImplementedError(
            f"Got {input.ndim}D input, but {mode} mode needs {_MODES_BY_RANK[mode] + 2}D input"
        )
    if antialias:
        raise NotImplementedError("autoviz: interpolate(antialias=True) is not in autoviz yet")
    if nd not in (1, 2, 3):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            f"the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
            f"nearest-exact (got {mode})"
        )
    spatial = tuple(input.shape[2:])
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        out = ntuple(size, nd, "size")
        factors = (None,) * nd
    else:
        factors = tuple(
            float(f)
            for f in (
                scale_factor if isinstance(scale_factor, (list, tuple)) else [scale_factor] * nd
            )
        )
        if len(factors) != nd:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {list(spatial)} and scale_factor of "
                f"shape {list(factors)}."
            )
        out = tuple(math.floor(n * f) for n, f in zip(spatial, factors, strict=True))
        if recompute_scale_factor:
            factors = (None,) * nd
    if mode == "area":
        from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

        pool = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}[nd]
        return pool(input, out if nd > 1 else out[0])
    corners = bool(align_corners)
    matrices = tuple(
        interpolation_matrix(mode, n, o, corners, f)
        for n, o, f in zip(spatial, out, factors, strict=True)
    )
    return UPSAMPLE[mode, nd].apply(input, matrices=matrices)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """The deprecated name of interpolate."""
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """The deprecated interpolate(mode='nearest')."""
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """The deprecated interpolate(mode='bilinear', align_corners=True)."""
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
