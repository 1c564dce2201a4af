"""`torch.nn.init`: fill tensors in place, with torch's random numbers and its arithmetic."""

import math
import warnings

import numpy as np

from ..engine import sampling
from ..engine.grad_mode import no_grad
from ..engine.tensor import make

_LINEAR = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    """The identity matrix (as much of it as fits) in a 2-d tensor."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor.copy_(np.eye(*tensor.shape, dtype=tensor._data.dtype))


def dirac_(tensor, groups=1):
    """The Dirac delta in a 3-, 4- or 5-d convolution weight: each group keeps its inputs."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    data = np.zeros(sizes, tensor._data.dtype)
    centre = tuple(n // 2 for n in sizes[2:])
    for g in range(groups):
        for d in range(min(per_group, sizes[1])):
            data[(g * per_group + d, d, *centre)] = 1
    with no_grad():
        return tensor.copy_(data)


def calculate_gain(nonlinearity, param=None):
    """The recommended scale of weights feeding into `nonlinearity`."""
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    shape = tensor.shape
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for n in shape[2:]:
        receptive *= n
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid = ["fan_in", "fan_out"]
    if mode not in valid:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _empty_warning(tensor) -> bool:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return True
    return False


# The bounds below are computed in the order torch computes them: one ulp of difference in a
# bound can change a float32 weight.
def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """Uniform in ±gain·√(3 / fan): keeps the activations' variance through the layers."""
    if _empty_warning(tensor):
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """Normal with std gain / √fan."""
    if _empty_warning(tensor):
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0, std, generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Uniform in ±gain·√(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Normal with std gain·√(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal values inside [a, b]: redrawn until inside, as torch draws them."""

    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            UserWarning,
            stacklevel=2,
        )
    with no_grad():
        if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
            _trunc_by_redrawing(tensor, mean, std, a, b, generator)
        else:
            _trunc_by_rejection(tensor, mean, std, a, b, generator)
    return tensor


def _trunc_by_redrawing(tensor, mean, std, a, b, generator) -> None:
    """Most of the mass is inside: draw normals, redraw a full tensor while any fall outside."""
    dt = tensor._data.dtype
    lo, hi = float(dt.type(a)), float(dt.type(b))
    tensor.normal_(mean, std, generator=generator)
    result = tensor._storage().copy()
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        fresh = _empty_like(tensor).normal_(mean, std, generator=generator)
        result = np.where(outside, fresh._data, result)
    tensor.copy_(result)


def _empty_like(tensor):
    return make(np.zeros(tensor.shape, tensor._data.dtype))


def _trunc_by_rejection(tensor, mean, std, a, b, generator) -> None:
    """Little mass inside: uniform candidates in [a, b], kept with the normal's density."""
    dt = tensor._data.dtype
    mode = max(a, min(mean, b))
    log_peak = dt.type(-0.5 * ((mode - mean) / std) ** 2)

    def log_density(x):
        z = (x - dt.type(mean)) / dt.type(std)
        return (z * z) * dt.type(-0.5) - log_peak

    def rejected():
        buf = _empty_like(tensor).uniform_(generator=generator)
        return np.log(buf._data) > log_density(candidates)

    tensor.uniform_(a, b, generator=generator)
    result = tensor._storage().copy()
    candidates = result
    pending = rejected()
    while pending.any():
        fresh = _empty_like(tensor).uniform_(a, b, generator=generator)
        candidates = fresh._data
        result = np.where(pending, candidates, result)
        pending = np.where(pending, rejected(), pending)
    tensor.copy_(result)


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR factorisation of a normal matrix (numpy's QR:
    equal to torch's to rounding, not always bit for bit)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = sampling.randn(rows, cols, dtype=tensor._data.dtype, generator=generator)._data
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.copy_(q.reshape(tensor.shape).astype(tensor._data.dtype))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal values with a fraction `sparsity` of each column set to zero (rows picked with
    randperm of the default generator, as torch picks them)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        data = tensor._storage()
        for col in range(cols):
            data[sampling.randperm(rows)._data[:zeros], col] = 0
    return tensor


def _deprecated(fn):
    old = fn.__name__[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{fn.__name__}`.",
            FutureWarning,
            stacklevel=2,
        )
        return fn(*args, **kwargs)

    deprecated_init.__name__ = old
    deprecated_init.__doc__ = f"Deprecated: use nn.init.{fn.__name__}."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
