"""Making tensors: zeros, ones, ranges, from numpy (random ones: `sampling`)."""

import numpy as np

from .dtypes import to_numpy_dtype
from .tensor import Tensor, make, new_leaf


def _shape(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _dt(dtype, default="float32"):
    return to_numpy_dtype(dtype) if dtype is not None else np.dtype(default)


def zeros(*size, dtype=None, requires_grad=False, name=None) -> Tensor:
    return new_leaf(np.zeros(_shape(size), _dt(dtype)), requires_grad, name)


def ones(*size, dtype=None, requires_grad=False, name=None) -> Tensor:
    return new_leaf(np.ones(_shape(size), _dt(dtype)), requires_grad, name)


def full(size, fill_value, dtype=None, requires_grad=False, name=None) -> Tensor:
    default = "int64" if isinstance(fill_value, int) and not isinstance(fill_value, bool) else None
    kind = dtype if dtype is not None else default
    arr = np.full(
        tuple(size), fill_value, _dt(kind, "bool" if isinstance(fill_value, bool) else "float32")
    )
    return new_leaf(arr, requires_grad, name)


def zeros_like(t, dtype=None, requires_grad=False) -> Tensor:
    return new_leaf(np.zeros(t.shape, _dt(dtype, t._data.dtype)), requires_grad)


def ones_like(t, dtype=None, requires_grad=False) -> Tensor:
    return new_leaf(np.ones(t.shape, _dt(dtype, t._data.dtype)), requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False) -> Tensor:
    if end is None:
        start, end = 0, start
    ints = all(isinstance(v, int) for v in (start, end, step))
    arr = np.arange(start, end, step, dtype=_dt(dtype, "int64" if ints else "float32"))
    return new_leaf(arr, requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False) -> Tensor:
    return new_leaf(np.linspace(start, end, steps, dtype=_dt(dtype)), requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False) -> Tensor:
    return new_leaf(np.eye(n, m, dtype=_dt(dtype)), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with `array`."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return make(array)


def as_tensor(data, dtype=None) -> Tensor:
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and dtype is None:
        return make(data)
    from .tensor import tensor

    return tensor(data, dtype=dtype)
