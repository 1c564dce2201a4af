"""Max, average, adaptive, power-average pooling and max unpooling, as PyTorch records them:
1-d pooling runs as 2-d pooling on an unsqueezed axis of one, then squeezes it away."""

from ...engine import functional as _F
from ...engine import shape_ops
from ...engine.tensor import make
from .. import pool_ops
from .common import ntuple, size_list

_MAX_OPS = {2: pool_ops.MaxPool2dWithIndices, 3: pool_ops.MaxPool3dWithIndices}
_AVG_OPS = {2: pool_ops.AvgPool2d, 3: pool_ops.AvgPool3d}
_ADAPTIVE_AVG = {2: pool_ops.AdaptiveAvgPool2d, 3: pool_ops.AdaptiveAvgPool3d}
_ADAPTIVE_MAX = {2: pool_ops.AdaptiveMaxPool2d, 3: pool_ops.AdaptiveMaxPool3d}
_UNPOOL = {2: pool_ops.MaxUnpool2d, 3: pool_ops.MaxUnpool3d}


def _check_input(input, nd: int) -> None:
    if input.ndim not in (nd + 1, nd + 2) or input.numel() == 0:
        raise RuntimeError(
            f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input"
        )


def _window_options(kernel_size, stride, padding, dilation, nd):
    kernel = ntuple(kernel_size, nd, "kernel_size")
    stride = kernel if stride is None or stride == [] or stride == () else ntuple(stride, nd)
    padding, dilation = ntuple(padding, nd), ntuple(dilation, nd)
    if any(k <= 0 for k in kernel):
        raise RuntimeError("kernel size should be greater than zero")
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    for k, p, d in zip(kernel, padding, dilation, strict=True):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}"
            )
    return kernel, stride, padding, dilation


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
    out = [
        pool_ops.pooled_size(n, k, s, p, d, ceil_mode)
        for n, k, s, p, d in zip(
            input.shape[input.ndim - nd :], kernel, stride, padding, dilation, strict=False
        )
    ]
    _check_output(input, out, nd)
    pooled = pool_ops.max_pool(input._data, kernel, stride, padding, dilation, ceil_mode)
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
    _check_input(input, 1)
    return _on_unsqueezed(
        input,
        lambda x: _max_pool(
            x,
            (1, _one(kernel_size)),
            (1, _one(stride or kernel_size)),
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
    out = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return out if return_indices else out[0]


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
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = [
        pool_ops.pooled_size(n, k, s, p, 1, ceil_mode)
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
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != nd:
            raise RuntimeError(f"{name}: output_size must be {nd}")
        sizes = output_size
    else:
        sizes = (output_size,) * nd
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {size_list(input.shape)}"
        )
    spatial = input.shape[input.ndim - nd :]
    return tuple(int(n if o is None else o) for o, n in zip(sizes, spatial, strict=True))


def adaptive_avg_pool2d(input, output_size):
    """The mean of each of output_size windows of near-equal size over the last two axes;
    (1, 1) is the global average, recorded as a mean over those axes (as PyTorch does)."""
    size = _output_size(input, output_size, 2, "adaptive_avg_pool2d")
    if size == (1, 1):
        return _F.mean(input, dim=(-1, -2), keepdim=True)
    return pool_ops.AdaptiveAvgPool2d.apply(input, output_size=size)


def adaptive_avg_pool3d(input, output_size):
    """Adaptive average pooling over the last three axes."""
    size = _output_size(input, output_size, 3, "adaptive_avg_pool3d")
    if size == (1, 1, 1):
        return _F.mean(input, dim=(-1, -2, -3), keepdim=True)
    return pool_ops.AdaptiveAvgPool3d.apply(input, output_size=size)


def adaptive_avg_pool1d(input, output_size):
    """Adaptive average pooling along the last axis."""
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got {size_list(input.shape)}"
        )
    size = _one(output_size)
    return _on_unsqueezed(
        input, lambda x: pool_ops.AdaptiveAvgPool2d.apply(x, output_size=(1, size))
    )


def _adaptive_max(input, output_size, nd, name):
    size = _output_size(input, output_size, nd, name)
    pooled = pool_ops.adaptive_max(input._data, size)
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
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"adaptive_max_pool1d(): Expected 2D or 3D tensor, but got {size_list(input.shape)}"
        )
    size = _one(output_size)
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
    return (_F.sign(out) * _F.relu(_F.abs(out))).mul(size).pow(1.0 / norm_type)


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
