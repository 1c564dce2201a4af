"""The functions PyTorch offers at top level (`torch.exp`, `torch.cat`, ...) over the ops."""

from collections import namedtuple

import numpy as np

from . import linalg, ops, reductions, shape_ops
from .tensor import Tensor, make, tensor


def _t(x) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def add(a, b):
    return ops.binary(ops.Add, _t(a), b)


def sub(a, b):
    return ops.binary(ops.Sub, _t(a), b)


def mul(a, b):
    return ops.binary(ops.Mul, _t(a), b)


def div(a, b):
    return ops.binary(ops.Div, _t(a), b)


def pow(a, b):
    if not isinstance(a, Tensor):
        return ops.PowScalarBase.apply(b, c=a)
    if isinstance(b, Tensor):
        return ops.binary(ops.PowTensor, a, b)
    return ops.Pow.apply(a, p=b)


def neg(a):
    return ops.Neg.apply(a)


def exp(a):
    return ops.Exp.apply(_t(a))


def log(a):
    return ops.Log.apply(_t(a))


def sqrt(a):
    return ops.Sqrt.apply(_t(a))


def abs(a):
    return ops.Abs.apply(_t(a))


def sin(a):
    return ops.Sin.apply(_t(a))


def cos(a):
    return ops.Cos.apply(_t(a))


def tanh(a):
    return ops.Tanh.apply(_t(a))


def sigmoid(a):
    return ops.Sigmoid.apply(_t(a))


def relu(a):
    return ops.Relu.apply(_t(a))


def clamp(a, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return ops.Clamp.apply(a, lo=min, hi=max)


def clamp_min(a, min):
    return ops.ClampMin.apply(a, lo=min, hi=None)


def where(condition, a, b):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    return ops.Where.apply(a, b, cond=cond)


def maximum(a, b):
    return ops.binary(ops.Maximum, a, b)


def matmul(a, b):
    flags = (a._data, b._data, a.requires_grad, b.requires_grad)
    linalg.check_matmul(*flags)
    return linalg.matmul_op(*flags).apply(a, b)


def mm(a, b):
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    return matmul(a, b)


def sum(a, dim=None, keepdim=False):
    op = reductions.Sum if dim is None else reductions.SumDim
    return op.apply(a, dim=dim, keepdim=keepdim)


def mean(a, dim=None, keepdim=False):
    op = reductions.Mean if dim is None else reductions.MeanDim
    return op.apply(a, dim=dim, keepdim=keepdim)


class _ReturnType:
    """PyTorch's printing of `torch.return_types.max(values=..., indices=...)`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (
            f"torch.return_types.{type(self).__name__}(\nvalues={self.values!r},"
            f"\nindices={self.indices!r})"
        )


ReturnMax = type("max", (_ReturnType, namedtuple("max", ["values", "indices"])), {"__slots__": ()})
ReturnMin = type("min", (_ReturnType, namedtuple("min", ["values", "indices"])), {"__slots__": ()})


def _values_indices(kind, a, dim, keepdim):
    op, arg, result = {
        "max": (reductions.MaxDim, np.argmax, ReturnMax),
        "min": (reductions.MinDim, np.argmin, ReturnMin),
    }[kind]
    values = op.apply(a, dim=dim, keepdim=keepdim)
    idx = arg(a._data, axis=dim)
    return result(values, make(np.asarray(np.expand_dims(idx, dim) if keepdim else idx)))


def max(a, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return maximum(a, dim)
    if dim is None:
        return reductions.Amax.apply(a)
    return _values_indices("max", a, dim, keepdim)


def min(a, dim=None, keepdim=False):
    if dim is None:
        return reductions.Amin.apply(a)
    return _values_indices("min", a, dim, keepdim)


def argmax(a, dim=None, keepdim=False):
    idx = np.argmax(a._data) if dim is None else np.argmax(a._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def argmin(a, dim=None, keepdim=False):
    idx = np.argmin(a._data) if dim is None else np.argmin(a._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def softmax(a, dim=-1):
    return reductions.Softmax.apply(a, dim=dim)


def log_softmax(a, dim=-1):
    return reductions.LogSoftmax.apply(a, dim=dim)


def _shape_arg(shape) -> tuple:
    return tuple(shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)


def reshape(a, *shape):
    """A view when the memory layout allows one, else a copy, named as PyTorch names each."""
    shape = _shape_arg(shape)
    op = shape_ops.reshape_op(a._data, shape)
    if op is None:  # PyTorch copies to row-major order first: CloneBackward0, then the view
        return shape_ops.UnsafeView.apply(shape_ops.Contiguous.apply(a), shape=shape)
    return op.apply(a, shape=shape)


def view(a, *shape):
    """Always a view: PyTorch's error when the memory layout does not allow one."""
    shape = _shape_arg(shape)
    return shape_ops.reshape_op(a._data, shape, view=True).apply(a, shape=shape)


def contiguous(a):
    return a if shape_ops.is_contiguous(a._data) else shape_ops.Contiguous.apply(a)


def flatten(a):
    return a if a.ndim == 1 else reshape(a, -1)


def transpose(a, dim0, dim1):
    return shape_ops.Transpose.apply(a, dim0=dim0, dim1=dim1)


def t(a):
    if a.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return shape_ops.T.apply(a, dim0=0, dim1=a.ndim - 1 if a.ndim else 0)


def mT(a):
    if a.ndim < 2:
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. "
            f"Got {a.ndim}-D tensor."
        )
    return shape_ops.Transpose.apply(a, dim0=-2, dim1=-1)


def permute(a, *dims):
    dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    return shape_ops.Permute.apply(a, dims=tuple(d % a.ndim for d in dims))


def unsqueeze(a, dim):
    return shape_ops.Unsqueeze.apply(a, dim=dim)


def squeeze(a, dim=None):
    op = shape_ops.Squeeze if dim is None else shape_ops.SqueezeDim
    return op.apply(a, dim=dim)


def cat(tensors, dim=0):
    return shape_ops.Cat.apply(*map(_t, tensors), dim=dim)


def stack(tensors, dim=0):
    return shape_ops.Stack.apply(*map(_t, tensors), dim=dim)


def _index_part(part):
    """One part of an index with tensors turned into arrays (0-d integer tensors into ints)."""
    if isinstance(part, Tensor):
        data = part._data
        if np.ndim(data) == 0 and np.result_type(data).kind in "iu":
            return int(data)
        return np.asarray(data)
    if isinstance(part, list):
        return np.asarray(part)
    if isinstance(part, np.integer):
        return int(part)
    return part


def index_key(key):
    """`key` with tensors turned into arrays; a tuple stays a tuple."""
    if isinstance(key, tuple):
        return tuple(map(_index_part, key))
    return _index_part(key)


def _is_basic(part) -> bool:
    return part is None or part is Ellipsis or isinstance(part, slice) or type(part) is int


def index(a, key):
    """`a[key]` recorded as PyTorch records it: one Select, Slice or Unsqueeze per part of a
    basic index, left to right (full slices `:` skipped, AliasBackward0 if nothing is left),
    and one IndexBackward0 for an index with arrays, lists, masks or bools in it."""
    key = index_key(key)
    parts = key if isinstance(key, tuple) else (key,)
    if not all(map(_is_basic, parts)):
        return shape_ops.Index.apply(a, key=key)
    shape = np.shape(a._data)
    used = len([p for p in parts if p is not None and p is not Ellipsis])
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    out, dim, src = a, 0, 0  # position in the output, and in a's shape
    for part in parts:
        if part is Ellipsis:
            dim += len(shape) - used
            src += len(shape) - used
        elif part is None:
            out = shape_ops.Unsqueeze.apply(out, dim=dim)
            dim += 1
        elif isinstance(part, int):
            size = shape[src]
            if not -size <= part < size:
                raise IndexError(
                    f"index {part} is out of bounds for dimension {dim} with size {size}"
                )
            out = shape_ops.Select.apply(out, key=(slice(None),) * dim + (part,))
            src += 1
        else:
            if part.step is not None and part.step <= 0:
                raise ValueError("step must be greater than zero")
            full = (
                part.start in (None, 0)
                and (part.stop is None or part.stop >= shape[src])
                and part.step in (None, 1)
            )
            if not full or not isinstance(key, tuple):  # `a[:]` alone is still recorded
                out = shape_ops.Slice.apply(out, key=(slice(None),) * dim + (part,))
            dim += 1
            src += 1
    return shape_ops.Alias.apply(a) if out is a else out


def clone(a):
    return ops.Clone.apply(a)


def expand(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return shape_ops.Expand.apply(a, shape=tuple(shape))
