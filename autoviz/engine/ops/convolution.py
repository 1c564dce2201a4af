"""Convolution as PyTorch records it: one ConvolutionBackward0 node for every rank (1-, 2-
and 3-d), stride, padding (numbers, "same", "valid"), dilation, groups, and the transposed
convolution; and padding (ConstantPadNd, reflection, replication, circular).

Patches are strided views of the padded input, so the forward is one matrix product per
group; its adjoint, the "col2im" that scatters patch gradients back, is one strided add per
kernel offset. Then the functions: conv1d ... conv_transpose3d and F.pad."""

import itertools
import warnings

import numpy as np

from ..dtypes import C_TYPE_NAMES
from ..fidelity import onednn
from . import shape as shape_ops
from .arguments import dtype_word, ntuple, size_list
from .base import Op


def windows(x, kernel, stride, dilation):
    """The (N, C, *out, *kernel) view of every patch of `x` (N, C, *spatial), without copying."""
    spatial = x.shape[2:]
    out = tuple(
        (n - d * (k - 1) - 1) // s + 1
        for n, k, s, d in zip(spatial, kernel, stride, dilation, strict=True)
    )
    steps = x.strides[2:]
    strides = (
        *x.strides[:2],
        *(st * s for st, s in zip(steps, stride, strict=True)),
        *(st * d for st, d in zip(steps, dilation, strict=True)),
    )
    return np.lib.stride_tricks.as_strided(
        x, (*x.shape[:2], *out, *kernel), strides, writeable=False
    )


def pad_zeros(x, padding):
    """x with `padding` zeros before and after each spatial axis."""
    if not any(padding):
        return np.ascontiguousarray(x)
    return np.pad(x, ((0, 0), (0, 0), *((p, p) for p in padding)))


def correlate(x, w, stride, padding, dilation, groups):
    """out[n, o, l] = Σ_c,k w[o, c, k] · x_padded[n, c, l·stride + k·dilation] per group."""
    patches = windows(pad_zeros(x, padding), w.shape[2:], stride, dilation)
    nd = w.ndim - 2
    n, c = patches.shape[:2]
    o = w.shape[0]
    per_in, per_out = c // groups, o // groups
    out_spatial = patches.shape[2 : 2 + nd]
    out = np.empty((n, o, *out_spatial), np.result_type(x, w))
    k_axes = list(range(2 + nd, 2 + 2 * nd))
    for g in range(groups):
        part = patches[:, g * per_in : (g + 1) * per_in]
        wg = w[g * per_out : (g + 1) * per_out]
        prod = np.tensordot(part, wg, axes=([1, *k_axes], [1, *range(2, 2 + nd)]))
        out[:, g * per_out : (g + 1) * per_out] = np.moveaxis(prod, -1, 1)
    return out


def scatter_patches(grad, w, spatial, stride, padding, dilation, groups):
    """The adjoint of `correlate` in its input: each output's gradient spread over the patch
    it came from; `spatial` is the unpadded input's spatial shape."""
    nd = w.ndim - 2
    kernel = w.shape[2:]
    n, o = grad.shape[:2]
    per_out = o // groups
    per_in = w.shape[1]
    out_spatial = grad.shape[2:]
    full = tuple(s + 2 * p for s, p in zip(spatial, padding, strict=True))
    dx = np.zeros((n, per_in * groups, *full), np.result_type(grad, w))
    for g in range(groups):
        gg = grad[:, g * per_out : (g + 1) * per_out]
        wg = w[g * per_out : (g + 1) * per_out]
        cols = np.tensordot(gg, wg, axes=([1], [0]))  # (N, *out, C/G, *kernel)
        cols = np.moveaxis(cols, 1 + nd, 1)  # (N, C/G, *out, *kernel)
        target = dx[:, g * per_in : (g + 1) * per_in]
        for offset in itertools.product(*(range(k) for k in kernel)):
            where = tuple(
                slice(i * d, i * d + s * (lo - 1) + 1, s)
                for i, d, s, lo in zip(offset, dilation, stride, out_spatial, strict=True)
            )
            target[(slice(None), slice(None), *where)] += cols[(Ellipsis, *offset)]
    crop = tuple(slice(p, p + s) for p, s in zip(padding, spatial, strict=True))
    return np.ascontiguousarray(dx[(slice(None), slice(None), *crop)])  # torch's is dense


def weight_grad(x, grad, w_shape, stride, padding, dilation, groups):
    """dout/dw of `correlate`: Σ_n,l grad[n, o, l] · x_padded[n, c, l·stride + k·dilation]."""
    nd = len(w_shape) - 2
    kernel = w_shape[2:]
    patches = windows(pad_zeros(x, padding), kernel, stride, dilation)
    out_spatial = grad.shape[2:]
    patches = patches[(slice(None), slice(None), *(slice(0, lo) for lo in out_spatial))]
    o = w_shape[0]
    per_in, per_out = w_shape[1], o // groups
    dw = np.empty(w_shape, np.result_type(x, grad))
    spatial_axes = list(range(2, 2 + nd))
    for g in range(groups):
        part = patches[:, g * per_in : (g + 1) * per_in]
        gg = grad[:, g * per_out : (g + 1) * per_out]
        dw[g * per_out : (g + 1) * per_out] = np.tensordot(
            gg, part, axes=([0, *spatial_axes], [0, *spatial_axes])
        )
    return dw


def bias_grad(grad):
    return np.sum(grad, axis=(0, *range(2, grad.ndim)))


class Convolution(Op):
    """z = conv(x, w) + b (a cross-correlation, as in every deep-learning library);
    dz/dx = the gradient spread back over each patch with w (a transposed convolution),
    dz/dw = Σ over batch and positions of the gradient times each patch, dz/db = Σ of the
    gradient over batch and positions. Transposed: the roles of x's forward and gradient swap.
    """

    _backward_name = "ConvolutionBackward0"

    @staticmethod
    def forward(
        ctx,
        x,
        w,
        b=None,
        stride=(1,),
        padding=(0,),
        dilation=(1,),
        transposed=False,
        output_padding=(0,),
        groups=1,
    ):
        ctx.save_for_backward(x, w)
        ctx.info = (stride, padding, dilation, transposed, output_padding, groups)
        if transposed:
            size = transposed_size(
                x.shape[2:], w.shape[2:], stride, padding, dilation, output_padding
            )
            out = scatter_patches(x, w, size, stride, padding, dilation, groups)
        else:
            out = onednn.forward(x, w, b, stride, padding, dilation, groups)
            if out is not None:
                return out
            out = correlate(x, w, stride, padding, dilation, groups)
        if b is not None:
            out += b.reshape(-1, *(1,) * (out.ndim - 2))
        return out

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        stride, padding, dilation, transposed, _, groups = ctx.info
        need = ctx.needs_input_grad
        gx = gw = None
        if transposed:
            if need[0]:
                gx = correlate(grad, w, stride, padding, dilation, groups)
            if need[1]:
                gw = weight_grad(grad, x, w.shape, stride, padding, dilation, groups)
        else:
            options = (stride, padding, dilation, groups)
            if need[0]:
                gx = onednn.input_grad(grad, w, x.shape, *options)
                if gx is None:
                    gx = scatter_patches(grad, w, x.shape[2:], *options)
            if need[1]:
                gw = onednn.weight_grad(x, grad, w.shape, *options)
                if gw is None:
                    gw = weight_grad(x, grad, w.shape, *options)
        gb = None
        if len(need) > 2 and need[2]:
            if not transposed:
                gb = onednn.bias_grad(grad, x.shape, w.shape, dilation, groups)
            if gb is None:
                gb = bias_grad(grad)
        return gx, gw, gb


def transposed_size(spatial, kernel, stride, padding, dilation, output_padding):
    """The output size of a transposed convolution, without its padding crop."""
    return tuple(
        (n - 1) * s - 2 * p + d * (k - 1) + op + 1
        for n, k, s, p, d, op in zip(
            spatial, kernel, stride, padding, dilation, output_padding, strict=True
        )
    )


def _pairs(pad, ndim):
    """F.pad's flat (left, right, top, bottom, ...) list as numpy's per-axis pairs, the last
    axis first in `pad`."""
    pairs = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        pairs[ndim - 1 - i] = (int(pad[2 * i]), int(pad[2 * i + 1]))
    return pairs


class ConstantPadNd(Op):
    """z = a with `value` added around it (a negative pad crops);  dz/da = the gradient with
    the padding cut off (zeros where a was cropped)."""

    _backward_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, a, pad=(), value=0):
        pairs = _pairs(pad, np.ndim(a))
        ctx.info = (pairs, np.shape(a))
        crop = tuple(
            slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pairs, a.shape, strict=False)
        )
        grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        return np.pad(a[crop], grow, constant_values=value)

    @staticmethod
    def backward(ctx, grad):
        pairs, _shape = ctx.info
        inner = tuple(
            slice(max(lo, 0), n - max(hi, 0))
            for (lo, hi), n in zip(pairs, grad.shape, strict=False)
        )
        back = [(max(-lo, 0), max(-hi, 0)) for lo, hi in pairs]
        return np.pad(grad[inner], back)


def source_indices(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """For each position of a padded axis, the position of the input it copies."""
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
        period = 2 * (n - 1) if n > 1 else 1
        pos = np.abs(pos) % period
        return np.where(pos >= n, period - pos, pos)
    return np.clip(pos, 0, n - 1)  # replicate


class _IndexPad(Op):
    """z = a padded by copying its own elements;  dz/da = each padded gradient added back to
    the element it was copied from."""

    mode = "replicate"

    @classmethod
    def forward(cls, ctx, a, pad=()):
        pairs = _pairs(pad, np.ndim(a))
        picks = [
            source_indices(n, lo, hi, cls.mode) for (lo, hi), n in zip(pairs, a.shape, strict=False)
        ]
        ctx.info = (picks, np.shape(a))
        out = a
        for axis, pick in enumerate(picks):
            if pairs[axis] != (0, 0):
                out = np.take(out, pick, axis=axis)
        return np.ascontiguousarray(out)

    @staticmethod
    def backward(ctx, grad):
        picks, shape = ctx.info
        for axis in reversed(range(len(shape))):
            if len(picks[axis]) == shape[axis] and (picks[axis] == np.arange(shape[axis])).all():
                continue
            moved = np.moveaxis(grad, axis, 0)
            back = np.zeros((shape[axis], *moved.shape[1:]), grad.dtype)
            np.add.at(back, picks[axis], moved)
            grad = np.moveaxis(back, 0, axis)
        return grad


def _pad_class(mode: str, dims: int):
    name = {"reflect": "Reflection", "replicate": "Replication"}[mode]
    return type(
        f"{name}Pad{dims}d",
        (_IndexPad,),
        {
            "mode": mode,
            "_backward_name": f"{name}Pad{dims}DBackward0",
            "__doc__": f"{mode} padding of the last {dims} axes.",
            "__module__": __name__,
        },
    )


INDEX_PADS = {(m, d): _pad_class(m, d) for m in ("reflect", "replicate") for d in (1, 2, 3)}


def _unbatched(input, nd: int, name: str) -> bool:
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got "
            f"input of size: {size_list(input.shape)}"
        )
    return input.ndim == nd + 1


def _check_options(stride, padding, dilation) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")


def _check_same_type(input, weight, bias) -> None:
    """torch's checks, the bias's first (an nn.Conv2d given float64 input names its bias)."""
    if bias is not None and bias._data.dtype != input._data.dtype:
        mine, its = (
            C_TYPE_NAMES.get(t.dtype.name, t.dtype.name) for t in (input._data, bias._data)
        )
        raise RuntimeError(f"Input type ({mine}) and bias type ({its}) should be the same")
    if weight._data.dtype != input._data.dtype:
        # PyTorch names the input's type as the one expected.
        raise RuntimeError(
            f"expected scalar type {dtype_word(input)} but found {dtype_word(weight)}"
        )


def _check_weight(input, weight) -> None:
    """A weight of (out, in / groups, *kernel), as many dims as the (batched) input."""
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if weight.ndim != input.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
            f"{size_list(weight.shape)}, but got {input.ndim}-dimensional input of size "
            f"{size_list(input.shape)} instead"
        )


def _check_shapes(input, weight, bias, groups, transposed) -> None:
    w_shape = size_list(weight.shape)
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, "
            f"but got weight of size {w_shape} instead"
        )
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension "
            f"0, but got weight of size [{w_shape}] instead"
        )
    channels = weight.shape[0] if transposed else weight.shape[1] * groups
    if input.shape[1] != channels:
        head = (
            "Given transposed=1, weight of size"
            if transposed
            else f"Given groups={groups}, weight of size"
        )
        raise RuntimeError(
            f"{head} {w_shape}, expected input{size_list(input.shape)} to have {channels} "
            f"channels, but got {input.shape[1]} channels instead"
        )
    out_channels = weight.shape[1] * groups if transposed else weight.shape[0]
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(
            f"Given weight of size {w_shape}, expected bias to be 1-dimensional with "
            f"{out_channels} elements, but got bias of size {size_list(bias.shape)} instead"
        )


def _check_kernel_fits(input, weight, padding, dilation) -> None:
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding, strict=True)]
    kernel = [d * (k - 1) + 1 for k, d in zip(weight.shape[2:], dilation, strict=True)]
    if any(k > n for k, n in zip(kernel, padded, strict=True)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than "
            "actual input size"
        )


def _same_padding(input, weight, dilation, stride, nd):
    """padding='same': each side gets half of dilation·(kernel - 1); an odd total puts the
    extra element on the right, as a ConstantPadNd before the convolution (as in PyTorch)."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    left, extra = [], []
    for k, d in zip(weight.shape[2:], dilation, strict=True):
        total = d * (k - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        warnings.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a "
            "zero-padded copy of the input be created",
            UserWarning,
            stacklevel=4,
        )
        flat = []
        for e in reversed(extra):
            flat += [0, e]
        input = ConstantPadNd.apply(input, pad=tuple(flat), value=0)
    return input, tuple(left)


def _convolution(input, weight, bias, stride, padding, dilation, groups, nd, name):
    unbatched = _unbatched(input, nd, name)
    if unbatched:
        input = shape_ops.Unsqueeze.apply(input, dim=0)
    _check_weight(input, weight)
    stride, dilation = ntuple(stride, nd, "stride"), ntuple(dilation, nd, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * nd
        elif padding == "same":
            _check_shapes(input, weight, bias, groups, False)
            input, padding = _same_padding(input, weight, dilation, stride, nd)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = ntuple(padding, nd, "padding")
    _check_options(stride, padding, dilation)
    _check_same_type(input, weight, bias)
    _check_shapes(input, weight, bias, groups, False)
    _check_kernel_fits(input, weight, padding, dilation)
    out = Convolution.apply(
        input, weight, bias, stride=stride, padding=padding, dilation=dilation, groups=groups
    )
    return shape_ops.SqueezeDim.apply(out, dim=0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution (a cross-correlation) over (N, C, L) or (C, L) input."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution (a cross-correlation) over (N, C, H, W) or (C, H, W) input."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d convolution (a cross-correlation) over (N, C, D, H, W) or (C, D, H, W) input."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, nd, name):
    unbatched = _unbatched(input, nd, name)
    if unbatched:
        input = shape_ops.Unsqueeze.apply(input, dim=0)
    stride, dilation = ntuple(stride, nd, "stride"), ntuple(dilation, nd, "dilation")
    padding = ntuple(padding, nd, "padding")
    output_padding = ntuple(output_padding, nd, "output_padding")
    _check_options(stride, padding, dilation)
    _check_same_type(input, weight, bias)
    _check_shapes(input, weight, bias, groups, True)
    for op, s, d in zip(output_padding, stride, dilation, strict=True):
        if op >= s and op >= d:
            raise RuntimeError(
                "output padding must be smaller than either stride or dilation, but got "
                f"output_padding_height: {op} output_padding_width: {op} stride_height: {s} "
                f"stride_width: {s} dilation_height: {d} dilation_width: {d}"
            )
    out = Convolution.apply(
        input,
        weight,
        bias,
        stride=stride,
        padding=padding,
        dilation=dilation,
        transposed=True,
        output_padding=output_padding,
        groups=groups,
    )
    return shape_ops.SqueezeDim.apply(out, dim=0) if unbatched else out


def conv_transpose1d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 1-d convolution (the gradient of conv1d in its input)."""
    return _transposed(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        1,
        "conv_transpose1d",
    )


def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 2-d convolution (the gradient of conv2d in its input)."""
    return _transposed(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        2,
        "conv_transpose2d",
    )


def conv_transpose3d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 3-d convolution (the gradient of conv3d in its input)."""
    return _transposed(
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
        3,
        "conv_transpose3d",
    )


_SUPPORTED = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 axes: pad = (left, right) for the last, then (top, bottom)
    for the one before, and so on."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension"
        )
    if mode == "constant":
        return ConstantPadNd.apply(input, pad=pad, value=0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    dims = len(pad) // 2
    if dims not in (1, 2, 3) or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor."
            f"\n{_SUPPORTED}"
        )
    if mode == "circular":
        return _circular(input, pad)
    if mode == "reflect":
        _check_reflect(input, pad)
    return INDEX_PADS[mode, dims].apply(input, pad=pad)


def _check_reflect(input, pad) -> None:
    for i in range(len(pad) // 2):
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if lo >= input.shape[dim] or hi >= input.shape[dim]:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({lo}, {hi}) at dimension {dim} of input "
                f"{size_list(input.shape)}"
            )


def _circular(input, pad):
    """The input wrapped around: the last `right` elements before it, the first `left`
    after it, axis by axis (built from slices and a concatenation)."""
    out = input
    for i in range(len(pad) // 2):
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = out.shape[dim]
        if lo > n or hi > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        lead = (slice(None),) * dim
        parts = [out[(*lead, slice(n - lo, n))]] if lo else []
        parts.append(out)
        if hi:
            parts.append(out[(*lead, slice(0, hi))])
        out = shape_ops.cat(parts, dim) if len(parts) > 1 else out
    return out
