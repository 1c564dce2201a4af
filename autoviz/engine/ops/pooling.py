"""Pooling as PyTorch records it: max pooling with its indices, average pooling, adaptive
pooling over the last 2 or 3 axes (1-d pooling is 2-d on an unsqueezed axis of one), power-
average pooling and max unpooling.

Windows are visited in PyTorch's order (row-major within a window) and average sums are
added one element after another in the input's precision, as its CPU kernels add them, so
the numbers are torch's to the bit. The axes before the pooled ones may be any number."""

import itertools
import math

import numpy as np

from ..tensor import make
from . import pointwise, reductions
from . import shape as shape_ops
from .arguments import ntuple, size_list
from .base import Op, refuse_bool, type_word


def pooled_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's output length of a pooling window: a last, partial window counts in
    ceil_mode only if it starts inside the input or its left padding."""
    span = n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = span // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def _split(x, nd: int):
    """(the leading shape, x as (batch, *spatial)) for pooling over the last `nd` axes."""
    lead = x.shape[: x.ndim - nd]
    return lead, x.reshape(-1, *x.shape[x.ndim - nd :])


def _padded(x, kernel, stride, padding, dilation, out, fill):
    """x (batch, *spatial) padded with `fill`: `padding` before each axis, and after it as
    far as the last window reaches."""
    pads = [(0, 0)]
    for n, k, s, p, d, o in zip(x.shape[1:], kernel, stride, padding, dilation, out, strict=False):
        reach = (o - 1) * s + d * (k - 1) + 1
        pads.append((p, max(reach - n - p, 0)))
    return np.pad(x, pads, constant_values=fill)


def _windows(x, kernel, stride, dilation, out):
    """The (batch, *out, *kernel) view of every window of x (batch, *spatial)."""
    steps = x.strides[1:]
    strides = (
        x.strides[0],
        *(a * s for a, s in zip(steps, stride, strict=False)),
        *(a * d for a, d in zip(steps, dilation, strict=False)),
    )
    return np.lib.stride_tricks.as_strided(x, (x.shape[0], *out, *kernel), strides, writeable=False)


def _scatter(grad, index, shape, nd: int):
    """Each output's gradient added at the flat index (within its plane of the last `nd`
    axes of `shape`) that it came from."""
    plane = math.prod(shape[len(shape) - nd :])
    lead = math.prod(shape[: len(shape) - nd])
    full = np.zeros((lead, plane), grad.dtype)
    rows = np.repeat(np.arange(lead), index.size // lead if lead else 0)
    np.add.at(full, (rows, np.reshape(index, -1)), np.reshape(grad, -1))
    return full.reshape(shape)


def max_pool(x, kernel, stride, padding, dilation, ceil_mode):
    """The largest element of each window and its flat index in its plane (row-major, as
    PyTorch's return_indices gives it); the first of equal ones."""
    nd = len(kernel)
    lead, xb = _split(x, nd)
    out = tuple(
        pooled_size(n, k, s, p, d, ceil_mode)
        for n, k, s, p, d in zip(xb.shape[1:], kernel, stride, padding, dilation, strict=False)
    )
    padded = _padded(xb, kernel, stride, padding, dilation, out, _lowest(x.dtype))
    flat = _windows(padded, kernel, stride, dilation, out).reshape(len(xb), *out, math.prod(kernel))
    best = np.argmax(flat, axis=-1)
    values = np.take_along_axis(flat, best[..., None], -1)[..., 0]
    offsets = np.unravel_index(best, kernel)
    index = np.zeros(best.shape, np.int64)
    for axis in range(nd):
        start = np.arange(out[axis]) * stride[axis] - padding[axis]
        start = start.reshape((-1,) + (1,) * (nd - 1 - axis))
        index = index * xb.shape[1 + axis] + start + offsets[axis] * dilation[axis]
    return values.reshape(*lead, *out), index.reshape(*lead, *out)


class MaxPool2dWithIndices(Op):
    """z = the largest element of each window (`pooled`: the values and indices max_pool
    found);  dz/dx = the gradient at the element that was largest, zero elsewhere."""

    _backward_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, pooled=None, nd=2):
        values, index = pooled
        ctx.info = (np.shape(x), index, nd)
        return values

    @staticmethod
    def backward(ctx, grad):
        shape, index, nd = ctx.info
        return _scatter(grad, index, shape, nd)


class MaxPool3dWithIndices(MaxPool2dWithIndices):
    """Max pooling over three spatial axes."""

    _backward_name = "MaxPool3DWithIndicesBackward0"


def _divisors(spatial, out, kernel, stride, padding, count_include_pad):
    """Each output's divisor: its window's size within the padded input, or within the input
    itself when padding does not count (PyTorch's windows end at the padded input's end)."""
    divisor = np.ones((), np.int64)
    for n, o, k, s, p in zip(spatial, out, kernel, stride, padding, strict=False):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        length = end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0)
        divisor = np.multiply.outer(divisor, length)
    return divisor


def _truncated(total, divisor):
    """Integer division rounding toward zero, as C++ does in PyTorch's int64 average pooling."""
    return np.abs(total) // np.abs(divisor) * (np.sign(total) * np.sign(divisor))


class AvgPool2d(Op):
    """z = the mean of each window (its sum / its size, or / divisor_override);  dz/dx = each
    window's gradient divided by that size, spread over the window."""

    _backward_name = "AvgPool2DBackward0"

    @staticmethod
    def forward(
        ctx,
        x,
        kernel=(),
        stride=(),
        padding=(),
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        nd = len(kernel)
        ones = (1,) * nd
        lead, xb = _split(x, nd)
        out = tuple(
            pooled_size(n, k, s, p, 1, ceil_mode)
            for n, k, s, p in zip(xb.shape[1:], kernel, stride, padding, strict=False)
        )
        win = _windows(
            _padded(xb, kernel, stride, padding, ones, out, 0), kernel, stride, ones, out
        )
        total = np.zeros((len(xb), *out), x.dtype)
        for offset in itertools.product(*(range(k) for k in kernel)):
            total += win[(Ellipsis, *offset)]  # one element after another, as PyTorch adds
        divisor = _divisors(xb.shape[1:], out, kernel, stride, padding, count_include_pad)
        if divisor_override:
            divisor = np.full_like(divisor, divisor_override)
        divisor = divisor.astype(x.dtype)
        ctx.info = (np.shape(x), kernel, stride, padding, out, divisor)
        mean = total / divisor if x.dtype.kind == "f" else _truncated(total, divisor)
        return mean.reshape(*lead, *out)

    @staticmethod
    def backward(ctx, grad):
        shape, kernel, stride, padding, out, divisor = ctx.info
        nd = len(kernel)
        share = np.reshape(grad, (-1, *out)) / divisor
        reach = [(o - 1) * s + k for o, s, k in zip(out, stride, kernel, strict=False)]
        sizes = [
            max(r, n + p) for r, n, p in zip(reach, shape[len(shape) - nd :], padding, strict=False)
        ]
        full = np.zeros((len(share), *sizes), grad.dtype)
        for offset in itertools.product(*(range(k) for k in kernel)):
            where = tuple(
                slice(i, i + s * (o - 1) + 1, s)
                for i, s, o in zip(offset, stride, out, strict=False)
            )
            full[(slice(None), *where)] += share
        crop = tuple(
            slice(p, p + n) for p, n in zip(padding, shape[len(shape) - nd :], strict=False)
        )
        return np.ascontiguousarray(full[(slice(None), *crop)]).reshape(shape)


class AvgPool3d(AvgPool2d):
    """Average pooling over three spatial axes."""

    _backward_name = "AvgPool3DBackward0"


def adaptive_bounds(n: int, o: int):
    """The windows of adaptive pooling along one axis: [⌊i·n/o⌋, ⌈(i+1)·n/o⌉)."""
    return [((i * n) // o, -(-((i + 1) * n) // o)) for i in range(o)]


def _cells(spatial, out):
    """Every adaptive window: ((output position, (start, end)) per axis)."""
    return itertools.product(
        *(enumerate(adaptive_bounds(n, o)) for n, o in zip(spatial, out, strict=False))
    )


class AdaptiveAvgPool2d(Op):
    """z = the mean of each of `output_size` windows of near-equal size;  dz/dx = each
    window's gradient shared equally over it."""

    _backward_name = "AdaptiveAvgPool2DBackward0"

    @staticmethod
    def forward(ctx, x, output_size=()):
        lead, xb = _split(x, len(output_size))
        out = np.zeros((len(xb), *output_size), x.dtype)
        for cell in _cells(xb.shape[1:], output_size):
            block = xb[(slice(None), *(slice(a, b) for _, (a, b) in cell))]
            total = np.zeros(len(xb), x.dtype)
            for offset in itertools.product(*(range(n) for n in block.shape[1:])):
                total += block[(slice(None), *offset)]
            out[(slice(None), *(i for i, _ in cell))] = total / x.dtype.type(block[0].size)
        ctx.info = (np.shape(x), output_size)
        return out.reshape(*lead, *output_size)

    @staticmethod
    def backward(ctx, grad):
        shape, output_size = ctx.info
        nd = len(output_size)
        g = np.reshape(grad, (-1, *output_size))
        full = np.zeros((len(g), *shape[len(shape) - nd :]), grad.dtype)
        for cell in _cells(full.shape[1:], output_size):
            where = (slice(None), *(slice(a, b) for _, (a, b) in cell))
            count = math.prod(b - a for _, (a, b) in cell)
            part = g[(slice(None), *(i for i, _ in cell))] / grad.dtype.type(count)
            full[where] += part.reshape(-1, *(1,) * nd)
        return full.reshape(shape)


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """Adaptive average pooling over three spatial axes."""

    _backward_name = "AdaptiveAvgPool3DBackward0"


def adaptive_max(x, output_size):
    """The largest element of each adaptive window and its flat index in its plane."""
    nd = len(output_size)
    lead, xb = _split(x, nd)
    out = np.zeros((len(xb), *output_size), x.dtype)
    index = np.zeros(out.shape, np.int64)
    for cell in _cells(xb.shape[1:], output_size):
        block = xb[(slice(None), *(slice(a, b) for _, (a, b) in cell))]
        flat = block.reshape(len(xb), -1)
        best = np.argmax(flat, axis=-1)
        at = (slice(None), *(i for i, _ in cell))
        out[at] = np.take_along_axis(flat, best[:, None], -1)[:, 0]
        coords = np.unravel_index(best, block.shape[1:])
        position = np.zeros(best.shape, np.int64)
        for axis, (_, (start, _end)) in enumerate(cell):
            position = position * xb.shape[1 + axis] + coords[axis] + start
        index[at] = position
    return out.reshape(*lead, *output_size), index.reshape(*lead, *output_size)


class AdaptiveMaxPool2d(MaxPool2dWithIndices):
    """z = the largest element of each of `output_size` windows (`pooled`: what
    adaptive_max found);  dz/dx = the gradient at the element that was largest."""

    _backward_name = "AdaptiveMaxPool2DBackward0"


class AdaptiveMaxPool3d(MaxPool2dWithIndices):
    """Adaptive max pooling over three spatial axes."""

    _backward_name = "AdaptiveMaxPool3DBackward0"


class MaxUnpool2d(Op):
    """z = zeros of `size` with each input element put at its index (the inverse of max
    pooling);  dz/dx = the gradient read back at those indices."""

    _backward_name = "MaxUnpool2DBackward0"

    @staticmethod
    def forward(ctx, x, index=None, size=()):
        nd = len(size)
        lead = x.shape[: x.ndim - nd]
        plane = math.prod(size)
        flat_index = np.reshape(index, (math.prod(lead), -1))
        out = np.zeros((math.prod(lead), plane), x.dtype)
        np.put_along_axis(out, flat_index, np.reshape(x, flat_index.shape), axis=1)
        ctx.info = (np.shape(x), flat_index)
        return out.reshape(*lead, *size)

    @staticmethod
    def backward(ctx, grad):
        shape, flat_index = ctx.info
        flat = np.reshape(grad, (len(flat_index), -1))
        return np.take_along_axis(flat, flat_index, axis=1).reshape(shape)


class MaxUnpool3d(MaxUnpool2d):
    """Max unpooling over three spatial axes."""

    _backward_name = "MaxUnpool3DBackward0"


_MAX_OPS = {2: MaxPool2dWithIndices, 3: MaxPool3dWithIndices}


_AVG_OPS = {2: AvgPool2d, 3: AvgPool3d}


_ADAPTIVE_AVG = {2: AdaptiveAvgPool2d, 3: AdaptiveAvgPool3d}


_ADAPTIVE_MAX = {2: AdaptiveMaxPool2d, 3: AdaptiveMaxPool3d}


_UNPOOL = {2: MaxUnpool2d, 3: MaxUnpool3d}


def _check_input(input, nd: int) -> None:
    """One sample or a batch of them (torch's first check)."""
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input"
        )


_AXIS_LETTERS = {2: "HW", 3: "THW"}


def _per_axis(prefix: str, values, nd: int) -> str:
    return " ".join(
        f"{prefix}{axis}: {v}" for axis, v in zip(_AXIS_LETTERS[nd], values, strict=True)
    )


def _window_options(kernel_size, stride, padding, dilation, nd):
    """The window's sizes, checked in ATen's order: the output shape's checks, then the
    pool's shape checks."""
    kernel = ntuple(kernel_size, nd, "kernel_size")
    stride = kernel if stride is None or stride == [] or stride == () else ntuple(stride, nd)
    padding, dilation = ntuple(padding, nd), ntuple(dilation, nd)
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    for k, p, d in zip(kernel, padding, dilation, strict=True):
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}"
            )
    for word, prefix, values in (("kernel size", "k", kernel), ("stride", "d", stride)):
        if any(v <= 0 for v in values):
            got = _per_axis(prefix, values, nd)
            raise RuntimeError(f"{word} should be greater than zero, but got {got}")
    if any(d <= 0 for d in dilation):
        got = _per_axis("dilation", dilation, nd)
        raise RuntimeError(f"dilation should be greater than zero, but got {got}")
    return kernel, stride, padding, dilation


def _check_planes(input, nd: int) -> None:
    """Every dim but a batch's non-empty (a batch of none is allowed; one sample has no batch
    dim)."""
    if not all(input.shape[input.ndim - nd - 1 :]):
        raise RuntimeError(
            f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with optional 0 dim "
            f"batch size for input, but got:{size_list(input.shape)}"
        )


def _check_output(input, out, nd) -> None:
    if any(o < 1 for o in out):
        planes = "x".join(str(n) for n in input.shape[input.ndim - nd - 1 :])
        result = "x".join(str(n) for n in (input.shape[input.ndim - nd - 1], *out))
        raise RuntimeError(
            f"Given input size: ({planes}). Calculated output size: ({result}). Output size "
            "is too small"
        )


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, nd):
    _check_input(input, nd)
    kernel, stride, padding, dilation = _window_options(kernel_size, stride, padding, dilation, nd)
    _check_planes(input, nd)
    refuse_bool(input, f"\"max_pool{nd}d\" not implemented for 'Bool'", NotImplementedError)
    out = [
        pooled_size(n, k, s, p, d, ceil_mode)
        for n, k, s, p, d in zip(
            input.shape[input.ndim - nd :], kernel, stride, padding, dilation, strict=False
        )
    ]
    _check_output(input, out, nd)
    pooled = max_pool(input._data, kernel, stride, padding, dilation, ceil_mode)
    return _MAX_OPS[nd].apply(input, pooled=pooled, nd=nd), make(pooled[1])


def _on_unsqueezed(input, pool):
    """A 1-d pooling as the 2-d one on input.unsqueeze(-2), squeezed back."""
    out = pool(shape_ops.Unsqueeze.apply(input, dim=input.ndim - 1))
    if isinstance(out, tuple):
        values, index = out
        return shape_ops.SqueezeDim.apply(values, dim=values.ndim - 2), make(
            index._data.squeeze(-2)
        )
    return shape_ops.SqueezeDim.apply(out, dim=out.ndim - 2)


def max_pool1d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    _check_1d(input, "max_pool1d")
    return _on_unsqueezed(
        input,
        lambda x: _max_pool(
            x,
            (1, _one(kernel_size)),
            (1, _one(kernel_size if stride in (None, [], ()) else stride)),
            (0, _one(padding)),
            (1, _one(dilation)),
            ceil_mode,
            2,
        ),
    )


def _one(value) -> int:
    return int(value[0]) if isinstance(value, (list, tuple)) else int(value)


def max_pool1d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """The largest value of each window along the last axis."""
    if not return_indices:
        _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    out = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return out if return_indices else out[0]


def _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode) -> None:
    """The checks of torch's own max_pool1d, made when no index is asked for (with indices,
    it pools in 2-d, with that path's checks)."""
    if input.ndim not in (2, 3) or not all(input.shape[-2:]):
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{size_list(input.shape)}"
        )
    k, p, d = _one(kernel_size), _one(padding), _one(dilation)
    s = k if stride in (None, [], ()) else _one(stride)
    for ok, says in (
        (k > 0, f"kernel_size must be greater than zero, but got {k}"),
        (s > 0, f"stride must be greater than zero, but got {s}"),
        (p >= 0, f"padding must be non-negative, but got {p}"),
        (
            p <= k // 2,
            f"padding should be at most half of kernel size, but got padding={p} "
            f"and kernel_size={k}",
        ),
        (d > 0, f"dilation must be greater than zero, but got {d}"),
    ):
        if not ok:
            raise RuntimeError(f"max_pool1d() {says}")
    out = pooled_size(input.shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    _floats_only(input, "max_pool1d_impl")


def max_pool2d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2)


def max_pool2d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """The largest value of each kernel_size window over the last two axes."""
    out = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2)
    return out if return_indices else out[0]


def max_pool3d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3)


def max_pool3d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """The largest value of each kernel_size window over the last three axes."""
    out = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3)
    return out if return_indices else out[0]


def _avg_pool(
    input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd
):
    _check_input(input, nd)
    kernel, stride, padding, _ = _window_options(kernel_size, stride, padding, 1, nd)
    _check_planes(input, nd)
    if input._data.dtype.kind in "biu" and input._data.dtype != np.int64:
        kernel_name = "avg_pool2d" if nd == 2 else "avg_pool3d_out_frame"
        raise NotImplementedError(
            f"\"{kernel_name}\" not implemented for '{type_word(input._data)}'"
        )
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = [
        pooled_size(n, k, s, p, 1, ceil_mode)
        for n, k, s, p in zip(input.shape[input.ndim - nd :], kernel, stride, padding, strict=False)
    ]
    _check_output(input, out, nd)
    return _AVG_OPS[nd].apply(
        input,
        kernel=kernel,
        stride=stride,
        padding=padding,
        ceil_mode=ceil_mode,
        count_include_pad=count_include_pad,
        divisor_override=divisor_override,
    )


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window along the last axis."""
    _check_input(input, 1)
    return _on_unsqueezed(
        input,
        lambda x: _avg_pool(
            x,
            (1, _one(kernel_size)),
            (1, _one(stride or kernel_size)),
            (0, _one(padding)),
            ceil_mode,
            count_include_pad,
            None,
            2,
        ),
    )


def avg_pool2d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    """The mean of each kernel_size window over the last two axes."""
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2
    )


def avg_pool3d(
    input,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    count_include_pad=True,
    divisor_override=None,
):
    """The mean of each kernel_size window over the last three axes."""
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3
    )


def _output_size(input, output_size, nd: int, name: str) -> tuple:
    """The output's spatial size (None: the input's), after torch's checks in its order:
    nn.functional's, then the kernel's (whose words differ for max and avg)."""
    is_max = "max" in name
    if isinstance(output_size, (list, tuple)):
        if input.ndim <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        if len(output_size) != nd:
            says = (
                f"internal error: output_size.size() must be {nd}"
                if is_max
                else (f"output_size must be {nd}")
            )
            raise RuntimeError(f"{name}{'()' if is_max else ''}: {says}")
        sizes = output_size
    else:
        sizes = (output_size,) * nd
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got{':' if is_max else ''} "
            f"{size_list(input.shape)}"
        )
    spatial = input.shape[input.ndim - nd :]
    size = tuple(int(n if o is None else o) for o, n in zip(sizes, spatial, strict=True))
    if any(o < 0 for o in size):
        _negative_size(input, size, name, is_max)
    return size


def _negative_size(input, size: tuple, name: str, is_max: bool) -> None:
    if is_max:  # torch makes the output tensor first
        shape = size_list((*input.shape[: input.ndim - len(size)], *size))
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {shape}")
    received = ", ".join(map(str, size[:2])) + "".join(f",{o}" for o in size[2:])
    raise RuntimeError(
        f"{name}: elements of output_size must be greater than or equal to 0 but received "
        f"{{{received}}}"
    )


def _one_size(output_size, name: str) -> int:
    if isinstance(output_size, (list, tuple)) and len(output_size) != 1:
        raise RuntimeError(
            f"{name}() argument 'output_size' should contain one int (got {len(output_size)})"
        )
    return _one(output_size)


def _check_1d(input, name: str) -> None:
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            f"#1 'self' (while checking arguments for {name})"
        )


def _floats_only(input, kernel: str) -> None:
    """PyTorch's refusal of integer and bool inputs by its float-only CPU kernels."""
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{type_word(input._data)}'")


def adaptive_avg_pool2d(input, output_size):
    """The mean of each of output_size windows of near-equal size over the last two axes;
    (1, 1) is the global average, recorded as a mean over those axes (as PyTorch does)."""
    size = _output_size(input, output_size, 2, "adaptive_avg_pool2d")
    if size == (1, 1):
        return reductions.mean(input, dim=(-1, -2), keepdim=True)
    _floats_only(input, "adaptive_avg_pool2d")
    return AdaptiveAvgPool2d.apply(input, output_size=size)


def adaptive_avg_pool3d(input, output_size):
    """Adaptive average pooling over the last three axes."""
    size = _output_size(input, output_size, 3, "adaptive_avg_pool3d")
    if size == (1, 1, 1):
        return reductions.mean(input, dim=(-1, -2, -3), keepdim=True)
    _floats_only(input, "adaptive_avg_pool3d_cpu")
    return AdaptiveAvgPool3d.apply(input, output_size=size)


def adaptive_avg_pool1d(input, output_size):
    """Adaptive average pooling along the last axis."""
    _check_1d(input, "adaptive_avg_pool1d")
    size = (1, _one_size(output_size, "adaptive_avg_pool1d"))
    size = _output_size(input.unsqueeze(-2), size, 2, "adaptive_avg_pool2d")
    _floats_only(input, "adaptive_avg_pool2d")
    return _on_unsqueezed(input, lambda x: AdaptiveAvgPool2d.apply(x, output_size=size))


def _adaptive_max(input, output_size, nd, name):
    size = _output_size(input, output_size, nd, name)
    _floats_only(input, name if nd == 2 else f"{name}_cpu")
    pooled = adaptive_max(input._data, size)
    return _ADAPTIVE_MAX[nd].apply(input, pooled=pooled, nd=nd), make(pooled[1])


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 2, "adaptive_max_pool2d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest value of each of output_size windows over the last two axes."""
    out = _adaptive_max(input, output_size, 2, "adaptive_max_pool2d")
    return out if return_indices else out[0]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 3, "adaptive_max_pool3d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Adaptive max pooling over the last three axes."""
    out = _adaptive_max(input, output_size, 3, "adaptive_max_pool3d")
    return out if return_indices else out[0]


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    _check_1d(input, "adaptive_max_pool1d")
    size = _one_size(output_size, "adaptive_max_pool1d")
    return _on_unsqueezed(input, lambda x: _adaptive_max(x, (1, size), 2, "adaptive_max_pool2d"))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Adaptive max pooling along the last axis."""
    out = adaptive_max_pool1d_with_indices(input, output_size)
    return out if return_indices else out[0]


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd):
    """(Σ x^p over each window)^(1/p), as PyTorch composes it from average pooling:
    (sign(a) · relu(|a|) · k)^(1/p) for a = avg_pool(x^p)."""
    pool = {1: avg_pool1d, 2: avg_pool2d, 3: avg_pool3d}[nd]
    kernel = ntuple(kernel_size, nd)
    if stride is not None:
        out = pool(input.pow(norm_type), kernel if nd > 1 else kernel[0], stride, 0, ceil_mode)
    else:
        out = pool(
            input.pow(norm_type), kernel if nd > 1 else kernel[0], padding=0, ceil_mode=ceil_mode
        )
    size = 1
    for k in kernel:
        size *= k
    return (pointwise.sign(out) * pointwise.relu(pointwise.abs(out))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window along the last axis."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window over the last two axes."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window over the last three axes."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _unpool(input, indices, kernel_size, stride, padding, output_size, nd):
    kernel = ntuple(kernel_size, nd)
    stride = kernel if stride is None else ntuple(stride, nd)
    padding = ntuple(padding, nd)
    spatial = input.shape[input.ndim - nd :]
    default = tuple(
        (n - 1) * s - 2 * p + k for n, s, p, k in zip(spatial, stride, padding, kernel, strict=True)
    )
    size = default if output_size is None else tuple(int(n) for n in tuple(output_size)[-nd:])
    index = indices._data
    plane = 1
    for n in size:
        plane *= n
    if index.size and (index.max() >= plane or index.min() < 0):
        bad = int(index.max() if index.max() >= plane else index.min())
        raise RuntimeError(
            f"Found an invalid max index: {bad} (output volumes are of size "
            f"{'x'.join(map(str, size))}"
        )
    return _UNPOOL[max(nd, 2)].apply(input, index=index, size=size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d: each value put back at its index, zeros elsewhere."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d: each value put back at its index, zeros elsewhere."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool3d: each value put back at its index, zeros elsewhere."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 3)


# -- fractional max pooling ------------------------------------------------------------------------
def fractional_intervals(sample, n_in, n_out, pool):
    """The window starts PyTorch's generate_intervals draws from u in [0, 1): with α = (n_in -
    pool)/(n_out - 1) in the input's precision, ⌊(i + u)·α⌋ - ⌊u·α⌋, the last at n_in - pool."""
    t = sample.dtype.type
    starts = np.zeros((*sample.shape, n_out), np.int64)
    if n_out > 1:
        alpha = t(n_in - pool) / t(n_out - 1)
        i = np.arange(n_out - 1).astype(sample.dtype)
        u = sample[..., None]
        starts[..., :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    if n_out > 0:
        starts[..., -1] = n_in - pool
    return starts


def fractional_max(x, kernel, out, samples):
    """Each window's largest element and its flat index in its plane (the first of equal
    ones), the windows at pseudo-random starts from samples (N, C, nd), one per plane and axis:
    PyTorch reads a 2-d plane's pair as (w, h), a 3-d one's as (t, h, w)."""
    nd = len(kernel)
    spatial = x.shape[-nd:]
    order = (1, 0) if nd == 2 else (0, 1, 2)  # which sample drives each axis
    starts = [
        fractional_intervals(samples[..., order[a]], spatial[a], out[a], kernel[a])
        for a in range(nd)
    ]  # each (N, C, out[a])
    n, c = x.shape[:2]
    best = np.full((n, c, *out), -np.inf, x.dtype)
    index = np.zeros((n, c, *out), np.int64)
    first = True
    rows, chans = np.arange(n)[:, None], np.arange(c)[None, :]
    for offset in itertools.product(*(range(k) for k in kernel)):
        coords = []
        for a in range(nd):
            shape = [n, c] + [1] * nd
            shape[2 + a] = out[a]
            coords.append((starts[a] + offset[a]).reshape(shape))
        lead = (rows.reshape(n, 1, *[1] * nd), chans.reshape(1, c, *[1] * nd))
        values = x[(*lead, *coords)]
        flat = np.zeros_like(index)
        for a in range(nd):
            flat = flat * spatial[a] + coords[a]
        take = first | (values > best) | np.isnan(values)
        best = np.where(take, values, best)
        index = np.where(take, flat, index)
        first = False
    return best, index


class FractionalMaxPool2d(MaxPool2dWithIndices):
    """z = the largest element of each pseudo-randomly placed window;  dz/dx = the gradient
    at the element that was largest, zero elsewhere (max pooling's rule)."""

    _backward_name = "FractionalMaxPool2DBackward0"


class FractionalMaxPool3d(FractionalMaxPool2d):
    """Fractional max pooling over three spatial axes."""

    _backward_name = "FractionalMaxPool3DBackward0"


_AXES = {2: ("height", "width"), 3: ("time", "height", "width")}


def ratios(value, nd):
    """A ratio for each of nd axes (one number repeated), kept as given (not made ints)."""
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * nd


def _fractional(input, kernel_size, output_size, output_ratio, _random_samples, nd):
    from ..sampling import rand

    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:  # a lone float fails here too, as in PyTorch
            raise ValueError(
                f"{name} requires output_ratio to either be a single Int or tuple of Ints."
            )
        ratio = ratios(output_ratio, nd)
        output_size = [int(input.size(a - nd) * ratio[a]) for a in range(nd)]
    kernel, out = ntuple(kernel_size, nd), ntuple(output_size, nd)
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {size_list(input.shape)}"
        )
    if _random_samples is None:
        n_batch = 1 if input.ndim == nd + 1 else input.size(0)
        _random_samples = rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype)
    where = name if nd == 2 else f"{name}_out"
    for a, axis in enumerate(_AXES[nd]):
        if out[a] + kernel[a] - 1 > input.size(a - nd):
            raise RuntimeError(
                f"{where}(): pool {axis} {kernel[a]} too large relative to input {axis} "
                f"{input.size(a - nd)}"
            )
    unbatched = input.ndim == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    samples = np.asarray(_random_samples._data, x._data.dtype)
    pooled = fractional_max(x._data, kernel, out, samples)
    op = FractionalMaxPool2d if nd == 2 else FractionalMaxPool3d
    values, index = op.apply(x, pooled=pooled, nd=nd), make(pooled[1])
    if unbatched:
        return values.squeeze(0), index.squeeze(0)
    return values, index


def fractional_max_pool2d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None,
):  # fmt: skip
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)


def fractional_max_pool2d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None,
):  # fmt: skip
    """Max pooling over pseudo-randomly placed windows of kernel_size (Graham, 2014), to
    output_size or output_ratio of the input; the windows from torch.rand's draws."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return out if return_indices else out[0]


def fractional_max_pool3d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None,
):  # fmt: skip
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)


def fractional_max_pool3d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None,
):  # fmt: skip
    """Fractional max pooling over the last three axes."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return out if return_indices else out[0]
