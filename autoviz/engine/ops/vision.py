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

from ..fidelity.fma import fma32, fma64
from .arguments import ntuple
from .base import Op, type_word
from .convolution import pad_zeros, windows
from .linalg import product


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
_CUBIC_A = -0.75


def _scale(n_in, n_out, align_corners, factor, f):
    """PyTorch's area_pixel_compute_scale, in the input's float type `f`."""
    if align_corners:
        return f(n_in - 1) / f(n_out - 1) if n_out > 1 else f(0)
    return f(1.0 / factor) if factor is not None and factor > 0 else f(n_in) / f(n_out)


def _nearest_matrix(n_in, n_out, factor, exact, f):
    out = np.arange(n_out)
    if n_out == n_in and not exact:
        src = out
    elif n_out == 2 * n_in and not exact:
        src = out >> 1
    else:  # PyTorch's nearest indices are float32 arithmetic whatever the input's type
        f32 = np.float32
        scale = f32(1.0 / factor) if factor is not None and factor > 0 else f32(n_in) / f32(n_out)
        position = (out.astype(f32) + f32(0.5)) * scale if exact else out.astype(f32) * scale
        src = np.minimum(np.floor(position).astype(np.int64), n_in - 1)
    m = np.zeros((n_out, n_in), f)
    m[out, src] = 1
    return m


def _source(n_in, n_out, align_corners, factor, cubic, f):
    scale = _scale(n_in, n_out, align_corners, factor, f)
    out = np.arange(n_out).astype(f)
    if align_corners:
        return scale * out
    src = scale * (out + f(0.5)) - f(0.5)
    return src if cubic else np.maximum(src, f(0))


def _linear_matrix(n_in, n_out, align_corners, factor, f):
    if n_in == n_out:  # PyTorch's linear kernels copy an axis whose size stays, whatever the scale
        return np.eye(n_in, dtype=f)
    src = _source(n_in, n_out, align_corners, factor, False, f)
    i0 = np.floor(src).astype(np.int64)
    i1 = i0 + (i0 < n_in - 1)
    w1 = (src - i0.astype(f)).astype(f)
    w0 = f(1) - w1
    m = np.zeros((n_out, n_in), f)
    rows = np.arange(n_out)
    np.add.at(m, (rows, i0), w0)
    np.add.at(m, (rows, i1), w1)
    return m


def _cubic_weights(t, f):
    a = f(_CUBIC_A)

    def near(x):  # |x| ≤ 1
        return ((a + f(2)) * x - (a + f(3))) * x * x + f(1)

    def far(x):  # 1 < |x| < 2
        return ((a * x - f(5) * a) * x + f(8) * a) * x - f(4) * a

    return far(t + f(1)), near(t), near(f(1) - t), far(f(2) - t)


def _cubic_matrix(n_in, n_out, align_corners, factor, f):
    src = _source(n_in, n_out, align_corners, factor, True, f)
    i = np.floor(src).astype(np.int64)
    t = (src - i.astype(f)).astype(f)
    m = np.zeros((n_out, n_in), f)
    rows = np.arange(n_out)
    for k, w in zip(range(-1, 3), _cubic_weights(t, f), strict=True):
        np.add.at(m, (rows, np.clip(i + k, 0, n_in - 1)), w)
    return m


def interpolation_matrix(mode, n_in, n_out, align_corners, factor, dtype=np.float32):
    """The (n_out, n_in) matrix of one axis: output = matrix @ input along that axis, its
    positions and weights computed in `dtype` (PyTorch's opmath: float64 stays float64)."""
    f = np.float64 if np.dtype(dtype) == np.float64 else np.float32
    if mode in ("nearest", "nearest-exact"):
        return _nearest_matrix(n_in, n_out, factor, mode == "nearest-exact", f)
    if mode == "bicubic":
        return _cubic_matrix(n_in, n_out, align_corners, factor, f)
    return _linear_matrix(n_in, n_out, align_corners, factor, f)


def _fixed_point(m: np.ndarray) -> tuple[np.ndarray, int]:
    """m's weights as integers scaled by 2**precision, the largest precision (below 22) at
    which the biggest weight still fits in int16, rounded half away from zero."""
    precision = 0
    while precision < 22 and int(0.5 + m.max() * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    scaled = m * (1 << precision)
    return np.where(m < 0, -np.floor(0.5 - scaled), np.floor(0.5 + scaled)).astype(
        np.int64
    ), precision


def _resized_uint8(x: np.ndarray, matrices) -> np.ndarray:
    """PyTorch's bilinear and bicubic uint8 resize: one axis at a time (the last first) in
    fixed point, each pass rounded to the nearest integer and clamped to 0..255 before the
    next; an axis whose size stays is copied, whatever the scale."""
    y = x.astype(np.int64)
    for k in reversed(range(len(matrices))):
        axis = x.ndim - len(matrices) + k
        if matrices[k].shape[0] == matrices[k].shape[1]:
            continue
        weights, precision = _fixed_point(matrices[k])
        y = np.moveaxis(np.tensordot(y, weights, axes=([axis], [1])), -1, axis)
        y = np.clip((y + (1 << precision >> 1)) >> precision, 0, 255)
    return np.ascontiguousarray(y.astype(np.uint8))


class _Upsample(Op):
    """z = x resized along its last axes, each by its interpolation matrix M (PyTorch's
    source positions and weights);  dz/dx = the gradient through each Mᵀ in turn."""

    @staticmethod
    def forward(ctx, x, matrices=(), fixed_point=False):
        ctx.info = matrices
        if fixed_point:
            return _resized_uint8(x, matrices)
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


def _integer_kernel(mode: str, nd: int) -> str:
    """The PyTorch CPU kernel that refuses integer inputs for this mode."""
    if nd == 2 and mode in ("nearest", "nearest-exact", "bilinear"):
        return f"upsample_{mode.split('-')[0]}2d_channels_last"
    if mode == "bicubic":
        return "compute_indices_weights_cubic"
    return f"compute_indices_weights_{'nearest' if mode.startswith('nearest') else 'linear'}"


def _check_dtype(input, mode: str, nd: int) -> None:
    """PyTorch resizes floats, and uint8 images in every mode but linear and trilinear."""
    kind = input._data.dtype
    if kind.kind == "f" or mode == "area":  # area: adaptive pooling says it
        return
    if kind == np.uint8 and mode not in ("linear", "trilinear"):
        return
    kernel = _integer_kernel(mode, nd)
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{type_word(kind)}'")


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
    _check_dtype(input, mode, nd)
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
    weights = np.float64 if input._data.dtype == np.uint8 else input._data.dtype
    matrices = tuple(
        interpolation_matrix(mode, n, o, corners, f, weights)
        for n, o, f in zip(spatial, out, factors, strict=True)
    )
    fixed_point = input._data.dtype == np.uint8 and mode in ("bilinear", "bicubic")
    return UPSAMPLE[mode, nd].apply(input, matrices=matrices, fixed_point=fixed_point)


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


# -- spatial transformers: affine_grid and grid_sample ---------------------------------------------
class AffineGridGenerator(Op):
    """z = base · θᵀ: each output point's normalised (x, y, 1), or (x, y, z, 1), mapped by its
    batch's θ (2×3 or 3×4): (N, H, W, 2) or (N, D, H, W, 3);  dz/dθ = gradᵀ · base."""

    _backward_name = "AffineGridGeneratorBackward0"

    @staticmethod
    def forward(ctx, theta, base=None):
        ctx.info = base
        points = base[0, ..., 0].size
        flat = base.reshape(points, base.shape[-1]).astype(theta.dtype)
        # each batch item's product summed as torch's BLAS sums it (a point sitting on a pixel's
        # edge then samples the pixel torch's does)
        out = np.stack([product(flat, np.ascontiguousarray(t.T)) for t in theta])
        return out.reshape(theta.shape[0], *base.shape[1:-1], base.shape[-1] - 1)

    @staticmethod
    def backward(ctx, grad):
        base = ctx.info
        n, k = grad.shape[0], grad.shape[-1]
        flat = base.reshape(1, -1, k + 1).astype(grad.dtype)
        return np.swapaxes(np.matmul(np.swapaxes(flat, 1, 2), grad.reshape(n, -1, k)), 1, 2)


def _unit_range(steps, align_corners, dt):
    """PyTorch's linspace_from_neg_one: -1..1, shrunk by (steps - 1)/steps off the corners."""
    from ..creation import linspace_values

    if steps <= 1:
        return np.zeros(1, dt)
    r = linspace_values(-1, 1, steps, np.dtype(dt))
    return r if align_corners else (r * dt.type(steps - 1) / dt.type(steps)).astype(dt)


def _corners_default(align_corners, name):
    if align_corners is None:
        warnings.warn(
            "Default grid_sample and affine_grid behavior has changed to align_corners=False "
            "since 1.3.0. Please specify align_corners=True if the old behavior is desired. "
            f"See the documentation of {name} for details.",
            stacklevel=3,
        )
        return False
    return bool(align_corners)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of a batch of 2-D affine maps θ (N, 2, 3) for an output of `size`
    (N, C, H, W), or of 3-D maps (N, 3, 4) for (N, C, D, H, W): each point's normalised
    source (x, y) or (x, y, z), as the spatial transformer uses."""
    align_corners = _corners_default(align_corners, "grid_sample")
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    given, size = size, [int(s) for s in size]
    if len(size) not in (4, 5):
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {given}."
        )
    shape = (2, 3) if len(size) == 4 else (3, 4)
    if theta.ndim != 3 or tuple(theta.shape[-2:]) != shape:
        raise ValueError(
            f"Expected a batch of {len(size) - 2}D affine matrices of shape "
            f"Nx{shape[0]}x{shape[1]} for size {given}. Got {theta.shape}."
        )
    if align_corners and min(size[2:]) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {given}")
    spatial = size[2:]
    dt = theta._data.dtype
    base = np.ones((1, *spatial, len(spatial) + 1), dt)
    for axis, steps in enumerate(reversed(spatial)):  # x along W, then y along H, z along D
        view = [1] * len(spatial)
        view[len(spatial) - 1 - axis] = steps
        base[..., axis] = _unit_range(steps, align_corners, dt).reshape(view)
    return AffineGridGenerator.apply(theta, base=base)


def _clip_coordinates(x, size):
    """min(max(x, 0), size - 1), and where it is strictly inside (elsewhere its gradient is 0)."""
    return np.clip(x, 0, size - 1), (x > 0) & (x < size - 1)


def _reflect_coordinates(x, twice_low, twice_high):
    """x reflected off low and high until it lies between them; its gradient's sign."""
    f = x.dtype.type
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    low, span = f(twice_low) / f(2), f(twice_high - twice_low) / f(2)
    x = x - low
    sign = np.where(x < 0, f(-1), f(1))
    x = np.abs(x)
    extra = np.fmod(x, span)
    even = np.floor(x / span) % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _bounded(x, size, padding, align_corners):
    """An unnormalised coordinate moved inside the image by the padding mode, and its
    gradient's factor (PyTorch's compute_coordinates)."""
    one = np.ones_like(x)
    if padding == "border":
        x, inside = _clip_coordinates(x, size)
        return x, np.where(inside, one, x.dtype.type(0))
    if padding == "reflection":
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        x, sign = _reflect_coordinates(x, *twice)
        x, inside = _clip_coordinates(x, size)
        return x, np.where(inside, sign, x.dtype.type(0))  # +0 where clipped, as torch's mask
    return x, one


def _fma(a, b, c):
    """a·b + c rounded once: PyTorch's grid sampler kernel is compiled with its products and
    sums contracted into fused multiply-adds."""
    dt = np.result_type(a, b, c)
    return (fma64 if dt == np.float64 else fma32)(a, b, c).astype(dt)


def _unnormalize(coord, size, align_corners):
    """[-1, 1] → pixels: (c + 1)·(size - 1)/2, or (c + 1)·size/2 - 1/2; and that scale."""
    f = coord.dtype.type
    if align_corners:
        scale = f(size - 1) / f(2)
        return (coord + f(1)) * scale, scale
    scale = f(size) / f(2)
    return _fma(coord + f(1), scale, f(-0.5)), scale


def _gather(flat, iy, ix, h, w):
    """flat (N, C, H·W) read at integer (iy, ix) (N, P); 0 outside the image; and the mask."""
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    index = np.where(inside, iy * w + ix, 0)
    vals = np.take_along_axis(flat, index[:, None, :], axis=2)
    return np.where(inside[:, None, :], vals, flat.dtype.type(0)), index, inside


def _cubic_coefficients(t):
    """PyTorch's get_cubic_upsample_coefficients (A = -0.75) and their derivatives in t."""
    f = t.dtype.type
    a = f(_CUBIC_A)

    def near(x):  # ((A + 2)·x - (A + 3))·x·x + 1
        return _fma(_fma(a + f(2), x, -(a + f(3))) * x, x, f(1))

    def far(x):  # ((A·x - 5A)·x + 8A)·x - 4A, which the compiler leaves unfused
        return ((a * x - f(5) * a) * x + f(8) * a) * x - f(4) * a

    coeffs = (far(t + f(1)), near(t), near(f(1) - t), far(f(2) - t))
    x = (-f(1) - t, -t, f(1) - t, f(2) - t)
    grads = (  # the derivatives in -t, as PyTorch's get_cubic_coefficients_grad
        _fma(_fma(-f(3) * a, x[0], -(f(10) * a)), x[0], -(f(8) * a)),
        _fma(-f(3) * (a + f(2)), x[1], -(f(2) * (a + f(3)))) * x[1],
        _fma(f(3) * (a + f(2)), x[2], -(f(2) * (a + f(3)))) * x[2],
        _fma(_fma(f(3) * a, x[3], -(f(10) * a)), x[3], f(8) * a),
    )
    return coeffs, grads


def _cubic_sum(coeffs, values, fused):
    """c0·v0 + c1·v1 + c2·v2 + c3·v3 as PyTorch's compiled kernel rounds it: along x only the
    first product fused, along y every product after the first (found against torch)."""
    c = [k[:, None, :] for k in coeffs]
    if fused:
        return _fma(c[3], values[3], _fma(c[2], values[2], _fma(c[1], values[1], c[0] * values[0])))
    return _fma(c[0], values[0], c[1] * values[1]) + c[2] * values[2] + c[3] * values[3]


def _points(grid, h, w, mode, padding, align_corners):
    """Each output point's source (N, P) in pixels, moved inside by the padding (not for
    bicubic, whose taps are each moved), and the factors from grid units to pixels."""
    x, sx = _unnormalize(grid[..., 0], w, align_corners)
    y, sy = _unnormalize(grid[..., 1], h, align_corners)
    if mode == "bicubic":
        return x, y, sx, sy
    x, mx = _bounded(x, w, padding, align_corners)
    y, my = _bounded(y, h, padding, align_corners)
    f = x.dtype.type
    return x, y, np.where(mx != 0, mx * sx, f(0)), np.where(my != 0, my * sy, f(0))


def _bilinear(x, y):
    """The four neighbours as (iy, ix, weight) in PyTorch's order (nw, ne, sw, se), and the
    distances (w, n, e, s) to the west, north, east and south neighbours."""
    f = x.dtype.type
    x_w, y_n = np.floor(x), np.floor(y)
    dw, dn = x - x_w, y - y_n
    de, ds = f(1) - dw, f(1) - dn
    ix, iy = x_w.astype(np.int64), y_n.astype(np.int64)
    taps = [
        (iy, ix, ds * de),
        (iy, ix + 1, ds * dw),
        (iy + 1, ix, dn * de),
        (iy + 1, ix + 1, dn * dw),
    ]
    return taps, (dw, dn, de, ds)


def _bicubic(x, y, h, w, padding, align_corners):
    """The 4×4 taps as {(i, j): (iy, ix)} (i along x, j along y, each moved inside by the
    padding) and the coefficients along x and y with their derivatives."""
    f = x.dtype.type
    x0, y0 = np.floor(x), np.floor(y)
    cx, gx = _cubic_coefficients(x - x0)
    cy, gy = _cubic_coefficients(y - y0)
    taps = {}
    for i in range(4):
        xx = _bounded(x0 + f(i - 1), w, padding, align_corners)[0]
        for j in range(4):
            yy = _bounded(y0 + f(j - 1), h, padding, align_corners)[0]
            taps[i, j] = (yy.astype(np.int64), xx.astype(np.int64))
    return taps, cx, gx, cy, gy


class GridSampler2D(Op):
    """z[n, c, p] = Σ_taps weight · x[n, c, tap] at each grid point p's taps (bilinear: the 4
    neighbours, bicubic: 16, nearest: 1; 0 outside the image, or moved in by the padding);
    dz/dx = each gradient spread back over its taps by their weights; dz/dgrid = Σ_c
    gradient · Σ_taps x[tap] · dweight/dcoordinate · dcoordinate/dgrid."""

    _backward_name = "GridSampler2DBackward0"

    @staticmethod
    def forward(ctx, x, grid, mode="bilinear", padding="zeros", align_corners=False):
        n, c, h, w = x.shape
        ho, wo = grid.shape[1:3]
        ctx.info = (x, grid, mode, padding, align_corners)
        flat = x.reshape(n, c, h * w)
        px, py, _, _ = _points(grid.reshape(n, ho * wo, 2), h, w, mode, padding, align_corners)
        if mode == "nearest":
            out = _gather(flat, np.rint(py).astype(np.int64), np.rint(px).astype(np.int64), h, w)[0]
        elif mode == "bilinear":
            out = None
            for iy, ix, weight in _bilinear(px, py)[0]:
                v = _gather(flat, iy, ix, h, w)[0]
                out = v * weight[:, None, :] if out is None else _fma(v, weight[:, None, :], out)
        else:  # four interpolations along x, then one along y, as PyTorch's kernel
            taps, cx, _, cy, _ = _bicubic(px, py, h, w, padding, align_corners)
            rows = [
                _cubic_sum(cx, [_gather(flat, *taps[i, j], h, w)[0] for i in range(4)], False)
                for j in range(4)
            ]
            out = _cubic_sum(cy, rows, True)
        return out.reshape(n, c, ho, wo)

    @staticmethod
    def backward(ctx, grad):
        x, grid, mode, padding, align_corners = ctx.info
        n, c, h, w = x.shape
        ho, wo = grid.shape[1:3]
        flat = x.reshape(n, c, h * w)
        g = grad.reshape(n, c, ho * wo)
        px, py, sx, sy = _points(grid.reshape(n, ho * wo, 2), h, w, mode, padding, align_corners)
        if mode == "nearest":
            taps = [(np.rint(py).astype(np.int64), np.rint(px).astype(np.int64), None)]
            shares = [g]
        elif mode == "bilinear":
            taps, (dw, dn, de, ds) = _bilinear(px, py)
            shares = [g * weight[:, None, :] for _, _, weight in taps]
        else:
            cubic, cx, gcx, cy, gcy = _bicubic(px, py, h, w, padding, align_corners)
            order = [(i, j) for i in range(4) for j in range(4)]
            taps = [(*cubic[i, j], None) for i, j in order]
            shares = [g * cx[i][:, None, :] * cy[j][:, None, :] for i, j in order]
        # dz/dx: each tap's share added in PyTorch's order: a vector of points at a time, tap
        # by tap, lane by lane (its AVX2 kernel: 32 bytes a vector)
        vals, indices, insides = zip(
            *(_gather(flat, iy, ix, h, w) for iy, ix, _ in taps), strict=True
        )
        lanes = 32 // x.dtype.itemsize
        p, t = np.meshgrid(np.arange(ho * wo), np.arange(len(taps)), indexing="ij")
        sequence = np.lexsort(((p % lanes).ravel(), t.ravel(), (p // lanes).ravel()))
        index = np.stack(indices, -1).reshape(n, 1, -1)[:, :, sequence]
        share = np.where(np.stack(insides, -1)[:, None], np.stack(shares, -1), 0)
        gflat = np.zeros_like(flat)
        np.add.at(
            gflat,
            (np.arange(n)[:, None, None], np.arange(c)[None, :, None], index),
            share.reshape(n, c, -1)[:, :, sequence],
        )
        if mode == "nearest":
            return gflat.reshape(x.shape), np.zeros_like(grid)
        gx = np.zeros((n, ho * wo), grid.dtype)
        gy = np.zeros((n, ho * wo), grid.dtype)
        for k in range(c):
            go = g[:, k]
            if mode == "bilinear":
                nw, ne, sw, se = (v[:, k] for v in vals)
                gx = _fma(_fma(se - sw, dn, (ne - nw) * ds), go, gx)
                gy = _fma(_fma(se - ne, dw, (sw - nw) * de), go, gy)
            else:
                for (i, j), v in zip(order, vals, strict=True):
                    gx = _fma(-(v[:, k] * go * gcx[i]), cy[j], gx)
                    gy = _fma(-(v[:, k] * go * gcy[j]), cx[i], gy)
        ggrid = np.stack([gx * sx, gy * sy], -1).reshape(grid.shape)
        return gflat.reshape(x.shape), ggrid


# PyTorch's 3-D sampler is its plain scalar kernel (GridSampler.cpp): no fused multiply-adds, a
# product evaluated left to right, each output a sum from +0 in the corners' order.
_CORNERS_3D = tuple((dz, dy, dx) for dz in (0, 1) for dy in (0, 1) for dx in (0, 1))


def _source_3d(coord, size, padding, align_corners):
    """grid_sampler_compute_source_index_set_grad: pixels, and d pixels / d coordinate."""
    f = coord.dtype.type
    if align_corners:
        x, scale = ((coord + f(1)) / f(2)) * f(size - 1), f(size - 1) / f(2)
    else:
        x, scale = ((coord + f(1)) * f(size) - f(1)) / f(2), f(size) / f(2)
    factor = np.full_like(x, scale)
    if padding == "reflection":
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        x, sign = _reflect_coordinates(x, *twice)
        factor = factor * sign
    if padding != "zeros":
        x, inside = _clip_coordinates(x, size)  # the borders count as outside
        factor = factor * np.where(inside, f(1), f(0))
    return x, factor


def _trilinear(points):
    """The 8 corners around each (x, y, z) point in PyTorch's order (tnw, tne, tsw, tse, bnw,
    bne, bsw, bse) as ((iz, iy, ix), (wx, wy, wz)): its index and its weight's factor along
    each axis (the point's distance to the opposite corner's plane)."""
    floor = [np.floor(p) for p in points]
    taps = []
    for dz, dy, dx in _CORNERS_3D:
        offsets = (dx, dy, dz)
        index = tuple(floor[k].astype(np.int64) + offsets[k] for k in (2, 1, 0))
        parts = tuple(
            (p - v) if d else ((v + 1) - p) for p, v, d in zip(points, floor, offsets, strict=True)
        )
        taps.append((index, parts))
    return taps


def _gather_3d(flat, index, size):
    (iz, iy, ix), (d, h, w) = index, size
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h) & (iz >= 0) & (iz < d)
    at = np.where(inside, (iz * h + iy) * w + ix, 0)
    vals = np.take_along_axis(flat, at[:, None, :], axis=2)
    return np.where(inside[:, None, :], vals, flat.dtype.type(0)), at, inside


class GridSampler3D(Op):
    """z[n, c, p] = Σ over the 8 corners around grid point p of its trilinear weight ·
    x[n, c, corner] (nearest: the closest voxel; 0 outside, or moved in by the padding);
    dz/dx = each gradient spread back over the corners by their weights; dz/dgrid = Σ_c
    gradient · Σ_corners x[corner] · dweight/dcoordinate · dcoordinate/dgrid."""

    _backward_name = "GridSampler3DBackward0"

    @staticmethod
    def forward(ctx, x, grid, mode="bilinear", padding="zeros", align_corners=False):
        n, c, *size = x.shape
        out_size = grid.shape[1:4]
        ctx.info = (x, grid, mode, padding, align_corners)
        flat = x.reshape(n, c, -1)
        points = _points_3d(grid, size, padding, align_corners)[0]
        if mode == "nearest":
            index = tuple(np.rint(p).astype(np.int64) for p in reversed(points))
            return _gather_3d(flat, index, size)[0].reshape(n, c, *out_size)
        out = np.zeros((n, c, points[0].shape[1]), x.dtype)
        for index, (ax, ay, az) in _trilinear(points):
            out = out + _gather_3d(flat, index, size)[0] * (ax * ay * az)[:, None, :]
        return out.reshape(n, c, *out_size)

    @staticmethod
    def backward(ctx, grad):
        x, grid, mode, padding, align_corners = ctx.info
        n, c, *size = x.shape
        flat = x.reshape(n, c, -1)
        g = grad.reshape(n, c, -1)
        points, factors = _points_3d(grid, size, padding, align_corners)
        if mode == "nearest":
            corners = [(tuple(np.rint(p).astype(np.int64) for p in reversed(points)), None)]
        else:
            corners = _trilinear(points)
        gathered = [_gather_3d(flat, index, size) for index, _ in corners]
        shares = [g if parts is None else g * np.prod(parts, 0)[:, None, :] for _, parts in corners]
        # point by point, corner by corner: the order PyTorch's loop adds them in
        at = np.stack([a for _, a, _ in gathered], -1).reshape(n, 1, -1)
        inside = np.stack([i for _, _, i in gathered], -1)[:, None]
        share = np.where(inside, np.stack(shares, -1), x.dtype.type(0)).reshape(n, c, -1)
        gflat = np.zeros_like(flat)
        np.add.at(gflat, (np.arange(n)[:, None, None], np.arange(c)[None, :, None], at), share)
        if mode == "nearest":
            return gflat.reshape(x.shape), np.zeros_like(grid)
        sums = [np.zeros(points[0].shape, grid.dtype) for _ in range(3)]
        for k in range(c):
            go = g[:, k]
            for (_, corner_parts), (vals, _, _), corner in zip(
                corners, gathered, _CORNERS_3D, strict=True
            ):
                v = vals[:, k]
                ax, ay, az = corner_parts
                dz, dy, dx = corner
                for axis, (p, q), sign in (
                    (0, (ay, az), dx),
                    (1, (ax, az), dy),
                    (2, (ax, ay), dz),
                ):
                    term = v * p * q * go
                    sums[axis] = sums[axis] + term if sign else sums[axis] - term
        ggrid = np.stack([f * s for f, s in zip(factors, sums, strict=True)], -1)
        return gflat.reshape(x.shape), ggrid.reshape(grid.shape)


def _points_3d(grid, size, padding, align_corners):
    """Each grid point's (x, y, z) source in voxels (N, P) and d voxel / d coordinate."""
    d, h, w = size
    flat = grid.reshape(grid.shape[0], -1, 3)
    pairs = [_source_3d(flat[..., k], n, padding, align_corners) for k, n in enumerate((w, h, d))]
    return tuple(p for p, _ in pairs), tuple(f for _, f in pairs)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def _check_grid_sampler(input, grid, mode):
    """PyTorch's checks, in its order (GridSampler.cpp's check_grid_sampler_*)."""
    sizes = f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}"
        )
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, "
            f"but got grid with sizes {list(grid.shape)}"
        )
    for i in range(2, input.ndim):
        if input.shape[i] <= 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {i} being empty"
            )
    rank = 4 if input.ndim == 4 else 5
    if input.ndim != rank or grid.ndim != rank:
        raise RuntimeError(
            f"grid_sampler(): expected {rank}D input and grid with same number of dimensions, "
            f"but got {sizes}"
        )
    if rank == 5 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype != grid.dtype:
        raise RuntimeError(
            f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(grid.dtype)}"
        )


def _scalar_name(dtype):
    return {"float32": "Float", "float64": "Double", "float16": "Half"}.get(
        repr(dtype).removeprefix("torch."), repr(dtype)
    )


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample input (N, C, H, W) at grid's normalised (x, y) points (N, Ho, Wo, 2), or a
    volume (N, C, D, H, W) at (x, y, z) points (N, Do, Ho, Wo, 3): the spatial transformer's
    sampler, bilinear (trilinear for volumes), nearest or bicubic (images only)."""
    if mode not in _GRID_MODES:
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in _GRID_PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    align_corners = _corners_default(align_corners, "grid_sample")
    _check_grid_sampler(input, grid, mode)
    sampler = GridSampler2D if input.ndim == 4 else GridSampler3D
    return sampler.apply(input, grid, mode=mode, padding=padding_mode, align_corners=align_corners)
