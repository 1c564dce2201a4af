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


def where(condition, a, b):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    return ops.Where.apply(a, b, cond=cond)


def maximum(a, b):
    return ops.binary(ops.Maximum, a, b)


def matmul(a, b):
    linalg.check_matmul(a._data, b._data)
    return linalg.matmul_op(a._data, b._data).apply(a, b)


def mm(a, b):
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"self must be a matrix (mm of shapes {list(a.shape)}, {list(b.shape)})")
    return matmul(a, b)


def sum(a, dim=None, keepdim=False):
    op = reductions.Sum if dim is None else reductions.SumDim
    return op.apply(a, dim=dim, keepdim=keepdim)


def mean(a, dim=None, keepdim=False):
    op = reductions.Mean if dim is None else reductions.MeanDim
    return op.apply(a, dim=dim, keepdim=keepdim)


ReturnMax = namedtuple("max", ["values", "indices"])
ReturnMin = namedtuple("min", ["values", "indices"])


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


def reshape(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return shape_ops.View.apply(a, shape=tuple(shape))


def flatten(a):
    return reshape(a, -1)


def transpose(a, dim0, dim1):
    return shape_ops.Transpose.apply(a, dim0=dim0, dim1=dim1)


def t(a):
    if a.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return shape_ops.T.apply(a, dim0=0, dim1=a.ndim - 1) if a.ndim == 2 else a


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


def index(a, key):
    """`a[key]`, with tensor keys turned into arrays."""
    if isinstance(key, Tensor):
        key = key._data
    elif isinstance(key, tuple):
        key = tuple(k._data if isinstance(k, Tensor) else k for k in key)
    elif isinstance(key, list):
        key = np.asarray(key)
    return shape_ops.index_op(key).apply(a, key=key)


def clone(a):
    return ops.Clone.apply(a)


def expand(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return shape_ops.Expand.apply(a, shape=tuple(shape))
