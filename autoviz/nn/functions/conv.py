"""conv1d/2d/3d and conv_transpose1d/2d/3d, checked and recorded as PyTorch does."""

import warnings

from ...engine import shape_ops
from .. import conv_ops, pad_ops
from .common import dtype_word, ntuple, size_list


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
    for other in (weight, bias):
        if other is not None and other._data.dtype != input._data.dtype:
            # PyTorch names the input's type as the one expected.
            raise RuntimeError(
                f"expected scalar type {dtype_word(input)} but found {dtype_word(other)}"
            )


def _check_shapes(input, weight, bias, groups, transposed) -> None:
    w_shape = size_list(weight.shape)
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
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
        input = pad_ops.ConstantPadNd.apply(input, pad=tuple(flat), value=0)
    return input, tuple(left)


def _convolution(input, weight, bias, stride, padding, dilation, groups, nd, name):
    unbatched = _unbatched(input, nd, name)
    if unbatched:
        input = shape_ops.Unsqueeze.apply(input, dim=0)
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
    out = conv_ops.Convolution.apply(
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
    out = conv_ops.Convolution.apply(
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
