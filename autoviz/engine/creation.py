"""Making tensors: zeros, ones, ranges, from numpy (random ones: `sampling`)."""

import math

import numpy as np

from .device import check_device
from .dtypes import default_float, to_numpy_dtype
from .fidelity.fma import fma32, fma64
from .ops.base import into, shape_arg
from .tensor import Tensor, make, new_leaf


def _shape(size, name: str = "") -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = tuple(size)
    if any(n < 0 for n in shape):
        if name == "zeros":  # PyTorch's zeros checks the sizes itself, in its own words
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}"
        )
    return shape


def _size_keyword(size: tuple, keywords: dict, name: str) -> tuple:
    """`torch.zeros(size=(2, 3))`: the shape given by keyword, as PyTorch allows."""
    if set(keywords) - {"size", "layout", "pin_memory", "memory_format"}:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(keywords))}'")
    if "size" in keywords:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        return (keywords["size"],)
    return size


def _dt(dtype, default=None):
    """`dtype` as numpy's, else `default`, else the default float dtype."""
    if dtype is not None:
        return to_numpy_dtype(dtype)
    return default_float() if default is None else np.dtype(default)


def _made(arr, requires_grad, name, device, out, what):
    check_device(device)
    result = new_leaf(arr, requires_grad, name)
    return result if out is None else into(out, result, what)


def zeros(*size, out=None, dtype=None, device=None, requires_grad=False, name=None, **kw):
    size = _size_keyword(size, kw, "zeros")
    arr = np.zeros(_shape(size, "zeros"), _dt(dtype))
    return _made(arr, requires_grad, name, device, out, "zeros")


def ones(*size, out=None, dtype=None, device=None, requires_grad=False, name=None, **kw):
    size = _size_keyword(size, kw, "ones")
    arr = np.ones(_shape(size), _dt(dtype))
    return _made(arr, requires_grad, name, device, out, "ones")


def empty(*size, out=None, dtype=None, device=None, requires_grad=False, name=None, **kw):
    """Like zeros: PyTorch leaves the memory uninitialised, autoviz fills it with zeros."""
    size = _size_keyword(size, kw, "empty")
    arr = np.zeros(_shape(size), _dt(dtype))
    return _made(arr, requires_grad, name, device, out, "empty")


def _fill_dtype(fill_value):
    if isinstance(fill_value, bool):
        return "bool"
    return "int64" if isinstance(fill_value, int) else None


def _filled(shape, fill_value, dtype) -> np.ndarray:
    """np.full, converting fill_value as PyTorch does: -9 in uint8 wraps to 247, 2.7 in int64
    truncates to 2, and a value out of the dtype's range is refused."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu" and not isinstance(fill_value, bool):
        info = np.iinfo(dtype)
        low = -int(info.max) if isinstance(fill_value, int) and dtype.kind == "u" else info.min
        if not low <= fill_value <= info.max:
            raise RuntimeError(f"value cannot be converted to type {dtype.name}_t without overflow")
    return np.full(shape, np.array(fill_value).astype(dtype), dtype)


def full(size, fill_value, *, out=None, dtype=None, device=None, requires_grad=False, name=None):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    arr = _filled(_shape((size,)), fill_value, _dt(dtype, _fill_dtype(fill_value)))
    return _made(arr, requires_grad, name, device, out, "full")


def _like(t, dtype, device, memory_format=None):
    """The dtype of a *_like result and numpy's memory order for it: the input's own layout
    (torch's default, preserve_format), or row-major for contiguous_format."""
    check_device(device)
    contiguous = memory_format is not None and repr(memory_format) == "torch.contiguous_format"
    return _dt(dtype, t._data.dtype), "C" if contiguous else "K"


def _laid_out(t, dt, order, values):
    """`values` (a number or an array of t's shape) in memory laid out as t's, or row-major."""
    out = np.empty_like(np.asarray(t._data), dtype=dt, order=order)
    out[...] = values
    return out


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dt, order = _like(input, dtype, device, memory_format)
    return new_leaf(_laid_out(input, dt, order, 0), requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dt, order = _like(input, dtype, device, memory_format)
    return new_leaf(_laid_out(input, dt, order, 1), requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dt, order = _like(input, dtype, device, memory_format)
    return new_leaf(_laid_out(input, dt, order, 0), requires_grad)


def full_like(
    input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None
):
    dt, order = _like(input, dtype, device, memory_format)
    values = _filled(input.shape, fill_value, dt)
    return new_leaf(_laid_out(input, values.dtype, order, values), requires_grad)


def _number(value):
    return value.item() if isinstance(value, Tensor) else value


def _endpoints(op: str, start, end):
    """start and end as numbers: tensors must be 0-d, as torch's linspace and logspace say."""
    shaped = [t for t in (start, end) if isinstance(t, Tensor)]
    if any(t.dim() for t in shaped):
        dims = [t.dim() if isinstance(t, Tensor) else 0 for t in (start, end)]
        raise RuntimeError(
            f"{op} only supports 0-dimensional start and end tensors, but got start with "
            f"{dims[0]} dimension(s) and end with {dims[1]} dimension(s)."
        )
    return _number(start), _number(end)


def _check_steps(op: str, start, end, steps) -> int:
    if isinstance(steps, Tensor):  # a one-element integer tensor, read as an int
        steps = steps.__index__()
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(
            f"{op}() received an invalid combination of arguments - got "
            f"({type(start).__name__}, {type(end).__name__}, {type(steps).__name__}), but expected "
            "one of:\n * (Number start, Number end, int steps, *, Tensor out = None, torch.dtype "
            "dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory "
            "= False, bool requires_grad = False)"
        )
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return steps


def arange(start, end=None, step=1, *, out=None, dtype=None, device=None, requires_grad=False):
    """start, start + step, ... below end, with the values PyTorch's CPU kernel computes."""
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not all(map(math.isfinite, (start, end))):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    ints = all(isinstance(v, int) for v in (start, end, step))
    dt = _dt(dtype, "int64" if ints else None)
    count = math.ceil((end - start) / step) if not ints else len(range(start, end, step))
    arr = arange_values(start, step, count, dt)
    return _made(arr, requires_grad, None, device, out, "arange")


def arange_values(start, step, count: int, dt) -> np.ndarray:
    """The CPU kernel: in double precision, vectors of 8 floats (4 doubles) two at a time,
    each from its first element start + step·i (a fused multiply-add) plus j·step; the rest
    one by one."""
    i = np.arange(count)
    if dt.kind != "f":
        return (start + step * i).astype(dt)
    width = 32 // dt.itemsize  # elements in an AVX2 register
    vectored = count - count % (2 * width)
    # The kernel works in double for float32 too, then rounds to float: a plain double
    # multiply-add is that but for the last double bit, which a float cannot see.
    fused = fma64 if dt.itemsize == 8 else _madd
    base = fused(step, i - i % width, start).astype(dt)  # each vector's first element
    values = np.where(i < vectored, fused(i % width, step, base), fused(step, i, start))
    return values.astype(dt)


def _madd(a, b, c):
    return np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)


def linspace(start, end, steps, *, out=None, dtype=None, device=None, requires_grad=False):
    """`steps` values from start to end, as PyTorch's CPU kernel computes them: the first half
    counts up from start, the second half down from end, each with one fused multiply-add."""
    steps = _check_steps("linspace", start, end, steps)
    start, end = _endpoints("linspace", start, end)
    dt = _dt(dtype)
    arr = linspace_values(start, end, steps, dt)
    return _made(arr, requires_grad, None, device, out, "linspace")


def linspace_values(start, end, steps: int, dt) -> np.ndarray:
    """start + step·i for the first half, end - step·(steps - 1 - i) for the rest, each one
    fused multiply-add; the step in the tensor's precision (a double for integers)."""
    work = dt if dt.kind == "f" else np.dtype(np.float64)
    lo, hi = np.asarray(start).astype(dt).astype(work), np.asarray(end).astype(dt).astype(work)
    if steps <= 1:
        return np.full(steps, lo).astype(dt)
    step = (hi - lo) / work.type(steps - 1)
    i = np.arange(steps)
    fused = fma64 if work.itemsize == 8 else fma32  # each rounded once, to the work precision
    values = np.where(i < steps // 2, fused(step, i, lo), fused(-step, steps - i - 1, hi))
    return values.astype(work).astype(dt) if dt.kind == "f" else np.trunc(values).astype(dt)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    steps = _check_steps("logspace", start, end, steps)
    start, end = _endpoints("logspace", start, end)
    dt = _dt(dtype)
    exponents = linspace_values(start, end, steps, np.dtype(np.float64))
    return _made(np.power(base, exponents).astype(dt), requires_grad, None, device, None, "")


def eye(n, m=None, *, out=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    for size in (n, m):
        if size is not None and size < 0:
            raise RuntimeError(
                f"{'n' if size is n else 'm'} must be greater or equal to 0, got {size}"
            )
    return _made(np.eye(n, m, dtype=_dt(dtype)), requires_grad, None, device, out, "eye")


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with `array`."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return make(_forward_strides(array))


def _forward_strides(array: np.ndarray) -> np.ndarray:
    """`array`, or torch's refusal of memory walked backwards (tensors share it as it is)."""
    if any(s < 0 for s in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making "
            "a copy of your array  with array.copy().) "
        )
    return array


def as_tensor(data, dtype=None, device=None) -> Tensor:
    check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and dtype is None:
        return make(_forward_strides(data))
    from .tensor import tensor

    return tensor(data, dtype=dtype)


# -- Tensor.new_*: a new tensor with this one's dtype ---------------------------------------------
def _new_filled(fill):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        return full(shape_arg(size), fill, dtype=dtype or self.dtype, requires_grad=requires_grad)

    return method


new_zeros, new_ones, new_empty = _new_filled(0), _new_filled(1), _new_filled(0)


def new(self, *args, device=None):
    """The legacy `x.new(...)`: sizes (ints or a torch.Size) give an uninitialised tensor of
    x's dtype, a list or tuple gives a tensor of that data, a tensor of x's dtype is returned."""
    from .tensor import Size, tensor

    check_device(device)
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype is not self.dtype:
            raise TypeError(f"expected {self.dtype} (got {args[0].dtype})")
        return args[0]
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
        return tensor(args[0], dtype=self.dtype)
    return new_empty(self, *(args or (0,)))


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    from .tensor import tensor

    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return full(tuple(size), fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


RANGE_WARNING = (
    "torch.range is deprecated and will be removed in a future release because its behavior is "
    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
    "in [start, end)."
)


def torch_range(
    start=0, end=None, step=1, *, out=None, dtype=None, device=None, requires_grad=False
):
    """start to end *inclusive* (torch.range, deprecated, as PyTorch warns), in the default
    float dtype unless told."""
    import warnings

    warnings.warn(RANGE_WARNING, UserWarning, stacklevel=2)
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    count = math.floor((end - start) / step) + 1
    dt = _dt(dtype)
    arr = (start + step * np.arange(max(count, 0), dtype=np.float64)).astype(dt)
    return _made(arr, requires_grad, None, device, out, "range")


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    arr = _filled((), s, _dt(dtype))
    return _made(arr, requires_grad, None, device, None, "scalar_tensor")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor over obj's data where it can share it (numpy arrays, tensors), else a copy."""
    out = as_tensor(obj, dtype=dtype, device=device)
    if copy:
        out = out.clone()
    return out.requires_grad_(True) if requires_grad else out


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A tensor over a Python buffer's bytes (shared, as torch.frombuffer)."""
    out = from_numpy(np.frombuffer(buffer, dtype=dtype.numpy, count=count, offset=offset))
    return out.requires_grad_(True) if requires_grad else out
