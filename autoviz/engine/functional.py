"""The functions PyTorch offers at top level (`torch.exp`, `torch.cat`, ...) over the ops."""

import builtins
from collections import namedtuple

import numpy as np

from . import linalg, ops, reductions, shape_ops
from .tensor import Tensor, make, tensor

sum_ = builtins.sum  # `sum` below is torch.sum


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
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{reductions._dtype_name(cond)}"
        )
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
    dim = shape_ops.wrap_dim(dim, a.ndim)
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
    dim = None if dim is None else shape_ops.wrap_dim(dim, a.ndim)
    idx = np.argmax(a._data) if dim is None else np.argmax(a._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def argmin(a, dim=None, keepdim=False):
    dim = None if dim is None else shape_ops.wrap_dim(dim, a.ndim)
    idx = np.argmin(a._data) if dim is None else np.argmin(a._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def softmax(a, dim=-1):
    return reductions.Softmax.apply(a, dim=shape_ops.wrap_dim(dim, a.ndim))


def log_softmax(a, dim=-1):
    return reductions.LogSoftmax.apply(a, dim=shape_ops.wrap_dim(dim, a.ndim))


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
    n = a.ndim
    return shape_ops.Transpose.apply(
        a, dim0=shape_ops.wrap_dim(dim0, n), dim1=shape_ops.wrap_dim(dim1, n)
    )


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
    if len(dims) != a.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{a.ndim} is not equal to len(dims) = {len(dims)}"
        )
    dims = tuple(shape_ops.wrap_dim(d, a.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return shape_ops.Permute.apply(a, dims=dims)


def unsqueeze(a, dim):
    return shape_ops.Unsqueeze.apply(a, dim=shape_ops.wrap_dim(dim, a.ndim + 1))


def squeeze(a, dim=None):
    if dim is None:
        return shape_ops.Squeeze.apply(a, dim=None)
    return shape_ops.SqueezeDim.apply(a, dim=shape_ops.wrap_dim(dim, a.ndim))


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
        return np.asarray(part) if part else np.zeros(0, dtype=np.int64)
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


def _is_mask(part) -> bool:
    return isinstance(part, np.ndarray) and part.dtype == np.bool_


def _dims_used(part) -> int:
    if part is None or part is Ellipsis:
        return 0
    return part.ndim if _is_mask(part) else 1  # a mask covers as many dims as it has


def _check_advanced(shape, key) -> None:
    """PyTorch's IndexError for a mask of the wrong shape or an index out of range."""
    dim = 0
    for part in key:
        if _is_mask(part):
            for j, (m, n) in enumerate(zip(part.shape, shape[dim:], strict=False)):
                if m != n:
                    raise IndexError(
                        f"The shape of the mask {list(part.shape)} at index {j} does not match "
                        f"the shape of the indexed tensor {list(shape)} at index {dim + j}"
                    )
            dim += part.ndim
            continue
        if not isinstance(part, slice) and np.result_type(part).kind not in "iu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if not isinstance(part, slice) and np.size(part):
            size = shape[dim]
            bad = np.asarray(part).ravel()
            bad = bad[(bad >= size) | (bad < -size)]
            if bad.size:
                raise IndexError(
                    f"index {bad[0]} is out of bounds for dimension {dim} with size {size}"
                )
        dim += 1


def index(a, key):
    """`a[key]` recorded as PyTorch records it: one Select, Slice or Unsqueeze per int, slice
    or None, left to right (full slices `:` skipped, AliasBackward0 if nothing is left), then
    one IndexBackward0 for the arrays, lists and masks, on the dims that are left."""
    key = index_key(key)
    parts = key if isinstance(key, tuple) else (key,)
    if any(isinstance(p, (bool, np.bool_)) or (np.ndim(p) == 0 and _is_mask(p)) for p in parts):
        return shape_ops.Index.apply(a, key=key)  # a[True]: numpy's meaning, one node
    shape = np.shape(a._data)
    used = sum_([_dims_used(p) for p in parts])
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    out, dim, src = a, 0, 0  # position in the output, and in a's shape
    advanced = []  # the key for the IndexBackward0 applied last, over `out`'s dims
    for part in parts:
        if part is Ellipsis:
            dim += len(shape) - used
            src += len(shape) - used
            advanced += [slice(None)] * (len(shape) - used)
        elif part is None:
            out = shape_ops.Unsqueeze.apply(out, dim=dim)
            dim += 1
            advanced.append(slice(None))
        elif isinstance(part, int):
            size = shape[src]
            if not -size <= part < size:
                raise IndexError(
                    f"index {part} is out of bounds for dimension {src} with size {size}"
                )
            out = shape_ops.Select.apply(out, key=(slice(None),) * dim + (part,))
            src += 1
        elif isinstance(part, slice):
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
            advanced.append(slice(None))
        else:  # an array, list or mask: indexed last, all together
            advanced.append(part)
            dim += _dims_used(part)
            src += _dims_used(part)
    if any(not isinstance(p, slice) for p in advanced):
        while isinstance(advanced[-1], slice):
            advanced.pop()
        _check_advanced(np.shape(out._data), advanced)
        return shape_ops.Index.apply(out, key=tuple(advanced))
    return shape_ops.Alias.apply(a) if out is a else out


def unbind(a, dim=0):
    dim = shape_ops.wrap_dim(dim, a.ndim)
    before = (slice(None),) * dim
    return tuple(shape_ops.Unbind.apply(a, key=(*before, i)) for i in range(a.shape[dim]))


def clone(a):
    return ops.Clone.apply(a)


def expand(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return shape_ops.Expand.apply(a, shape=tuple(shape))
