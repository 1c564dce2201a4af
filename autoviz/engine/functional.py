"""The functions PyTorch offers at top level (`torch.exp`, `torch.cat`, ...) over the ops."""

import builtins
from collections import namedtuple

import numpy as np

from . import linalg, ops, reductions, shape_ops
from .keywords import into
from .tensor import Tensor, make, tensor

sum_ = builtins.sum  # `sum` below is torch.sum


def _t(x) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def add(input, other, *, alpha=1, out=None):
    result = ops.binary(ops.Add, _t(input), other if alpha == 1 else other * alpha)
    return result if out is None else into(out, result, "add")


def sub(input, other, *, alpha=1, out=None):
    result = ops.binary(ops.Sub, _t(input), other if alpha == 1 else other * alpha)
    return result if out is None else into(out, result, "sub")


def mul(input, other, *, out=None):
    result = ops.binary(ops.Mul, _t(input), other)
    return result if out is None else into(out, result, "mul")


def div(input, other, *, rounding_mode=None, out=None):
    result = ops.binary(ops.Div, _t(input), other)
    if rounding_mode is not None:
        result = _round_quotient(result, rounding_mode, input, other)
    return result if out is None else into(out, result, "div")


def _round_quotient(result, mode, a, b):
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    rounded = (ops.Trunc if mode == "trunc" else ops.Floor).apply(result)
    kinds = [np.result_type(getattr(x, "_data", x)).kind for x in (a, b)]
    ints = all(k in "biu" for k in kinds)
    return (
        rounded.to(np.result_type(*[getattr(x, "_data", x) for x in (a, b)])) if ints else rounded
    )


def pow(input, exponent, *, out=None):
    if not isinstance(input, Tensor):
        result = ops.PowScalarBase.apply(exponent, c=input)
    elif isinstance(exponent, Tensor):
        result = ops.binary(ops.PowTensor, input, exponent)
    else:
        result = ops.Pow.apply(input, p=exponent)
    return result if out is None else into(out, result, "pow")


def square(input, *, out=None):
    return pow(input, 2, out=out)


def neg(input, *, out=None):
    result = ops.Neg.apply(input)
    return result if out is None else into(out, result, "neg")


def _pointwise(op):
    """A one-input function of PyTorch's (`torch.exp(x, out=None)`) over op."""

    def function(input, *, out=None):
        result = op.apply(_t(input))
        return result if out is None else into(out, result, name)

    name = op.__name__.lower()
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


exp = _pointwise(ops.Exp)
log = _pointwise(ops.Log)
sqrt = _pointwise(ops.Sqrt)
abs = _pointwise(ops.Abs)
sin = _pointwise(ops.Sin)
cos = _pointwise(ops.Cos)
tan = _pointwise(ops.Tan)
tanh = _pointwise(ops.Tanh)
sigmoid = _pointwise(ops.Sigmoid)
relu = _pointwise(ops.Relu)
log10 = _pointwise(ops.Log10)
log2 = _pointwise(ops.Log2)
log1p = _pointwise(ops.Log1p)
expm1 = _pointwise(ops.Expm1)
exp2 = _pointwise(ops.Exp2)
rsqrt = _pointwise(ops.Rsqrt)
reciprocal = _pointwise(ops.Reciprocal)


def _rounding(op):
    """sign, floor, ceil, round, trunc: integer tensors come back unchanged in dtype."""
    pointwise = _pointwise(op)

    def function(input, *, out=None):
        if np.result_type(input._data).kind in "biu":
            data = input._data if op is not ops.Sign else np.sign(input._data)
            result = make(np.array(data))
            return result if out is None else into(out, result, pointwise.__name__)
        return pointwise(input, out=out)

    function.__name__ = function.__qualname__ = pointwise.__name__
    function.__doc__ = pointwise.__doc__
    return function


sign = _rounding(ops.Sign)
floor = _rounding(ops.Floor)
ceil = _rounding(ops.Ceil)
round = _rounding(ops.Round)
trunc = _rounding(ops.Trunc)


def clamp(input, min=None, max=None, *, out=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    result = ops.Clamp.apply(input, lo=_number(min), hi=_number(max))
    return result if out is None else into(out, result, "clamp")


clip = clamp


def _number(bound):
    return bound.item() if isinstance(bound, Tensor) else bound


def clamp_min(input, min):
    return ops.ClampMin.apply(input, lo=_number(min), hi=None)


def where(condition, input=None, other=None):
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if input is None and other is None:
        return tuple(make(i) for i in np.nonzero(cond))  # torch.where(c): nonzero's tuple
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{reductions._dtype_name(cond)}"
        )
    return ops.Where.apply(input, other, cond=cond)


def maximum(input, other, *, out=None):
    result = ops.binary(ops.Maximum, input, other)
    return result if out is None else into(out, result, "maximum")


def minimum(input, other, *, out=None):
    result = ops.binary(ops.Minimum, input, other)
    return result if out is None else into(out, result, "minimum")


def matmul(input, other, *, out=None):
    flags = (input._data, other._data, input.requires_grad, other.requires_grad)
    linalg.check_matmul(*flags)
    result = linalg.matmul_op(*flags).apply(input, other)
    return result if out is None else into(out, result, "matmul")


def mm(input, mat2, *, out=None):
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    return matmul(input, mat2, out=out)


def mv(input, vec, *, out=None):
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    return matmul(input, vec, out=out)


def dot(input, other, *, out=None):
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    return matmul(input, other, out=out)


def outer(input, vec2, *, out=None):
    result = mul(unsqueeze(input, 1), vec2)
    return result if out is None else into(out, result, "outer")


def _dim(dim, axis):
    """`dim`, or numpy's name for it, `axis`, which PyTorch accepts too."""
    return axis if axis is not None else dim


def sum(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim, keepdim = _dim(dim, axis), keepdims if keepdims is not None else keepdim
    if dtype is not None:
        input = input.to(dtype)
    elif input._data.dtype.kind in "biu":  # PyTorch sums integers and bools as int64
        input = input.to(np.int64)
    op = reductions.Sum if dim is None else reductions.SumDim
    result = op.apply(input, dim=dim, keepdim=keepdim)
    return result if out is None else into(out, result, "sum")


def mean(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim, keepdim = _dim(dim, axis), keepdims if keepdims is not None else keepdim
    if dtype is not None:
        input = input.to(dtype)
    op = reductions.Mean if dim is None else reductions.MeanDim
    result = op.apply(input, dim=dim, keepdim=keepdim)
    return result if out is None else into(out, result, "mean")


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


def max(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    dim, keepdim = _dim(dim, axis), keepdims if keepdims is not None else keepdim
    if isinstance(dim, Tensor):
        return maximum(input, dim, out=out)
    if dim is None:
        result = reductions.Amax.apply(input)
        return result if out is None else into(out, result, "max")
    return _values_indices("max", input, dim, keepdim)


def min(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    dim, keepdim = _dim(dim, axis), keepdims if keepdims is not None else keepdim
    if isinstance(dim, Tensor):
        return minimum(input, dim, out=out)
    if dim is None:
        result = reductions.Amin.apply(input)
        return result if out is None else into(out, result, "min")
    return _values_indices("min", input, dim, keepdim)


def _arg(find, input, dim, keepdim):
    dim = None if dim is None else shape_ops.wrap_dim(dim, input.ndim)
    idx = find(input._data) if dim is None else find(input._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def argmax(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    keepdim = keepdims if keepdims is not None else keepdim
    return _arg(np.argmax, input, _dim(dim, axis), keepdim)


def argmin(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    keepdim = keepdims if keepdims is not None else keepdim
    return _arg(np.argmin, input, _dim(dim, axis), keepdim)


def softmax(input, dim=-1):
    return reductions.Softmax.apply(input, dim=shape_ops.wrap_dim(dim, input.ndim))


def log_softmax(input, dim=-1):
    return reductions.LogSoftmax.apply(input, dim=shape_ops.wrap_dim(dim, input.ndim))


def _shape_arg(shape) -> tuple:
    return tuple(shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)


def reshape(input, *shape):
    """A view when the memory layout allows one, else a copy, named as PyTorch names each."""
    shape = _shape_arg(shape)
    op = shape_ops.reshape_op(input._data, shape)
    if op is None:  # PyTorch copies to row-major order first: CloneBackward0, then the view
        return shape_ops.UnsafeView.apply(shape_ops.Contiguous.apply(input), shape=shape)
    return op.apply(input, shape=shape)


def view(a, *shape):
    """Always a view: PyTorch's error when the memory layout does not allow one."""
    shape = _shape_arg(shape)
    return shape_ops.reshape_op(a._data, shape, view=True).apply(a, shape=shape)


def contiguous(a):
    return a if shape_ops.is_contiguous(a._data) else shape_ops.Contiguous.apply(a)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge the axes start_dim..end_dim into one; nothing is recorded when none merge."""
    n = input.ndim
    if n == 0:
        return reshape(input, 1)
    start, end = shape_ops.wrap_dim(start_dim, n), shape_ops.wrap_dim(end_dim, n)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = tuple(input.shape)
    return reshape(input, (*shape[:start], -1, *shape[end + 1 :]))


def transpose(input, dim0, dim1):
    n = input.ndim
    return shape_ops.Transpose.apply(
        input, dim0=shape_ops.wrap_dim(dim0, n), dim1=shape_ops.wrap_dim(dim1, n)
    )


def t(input):
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return shape_ops.T.apply(input, dim0=0, dim1=input.ndim - 1 if input.ndim else 0)


def mT(a):
    if a.ndim < 2:
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. "
            f"Got {a.ndim}-D tensor."
        )
    return shape_ops.Transpose.apply(a, dim0=-2, dim1=-1)


def permute(input, *dims):
    dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    if len(dims) != input.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{input.ndim} is not equal to len(dims) = {len(dims)}"
        )
    dims = tuple(shape_ops.wrap_dim(d, input.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return shape_ops.Permute.apply(input, dims=dims)


def unsqueeze(input, dim):
    return shape_ops.Unsqueeze.apply(input, dim=shape_ops.wrap_dim(dim, input.ndim + 1))


def squeeze(input, dim=None):
    if dim is None:
        return shape_ops.Squeeze.apply(input, dim=None)
    return shape_ops.SqueezeDim.apply(input, dim=shape_ops.wrap_dim(dim, input.ndim))


def cat(tensors, dim=0, *, out=None, axis=None):
    result = shape_ops.Cat.apply(*map(_t, tensors), dim=_dim(dim, axis))
    return result if out is None else into(out, result, "cat")


concat = concatenate = cat


def stack(tensors, dim=0, *, out=None, axis=None):
    result = shape_ops.Stack.apply(*map(_t, tensors), dim=_dim(dim, axis))
    return result if out is None else into(out, result, "stack")


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


def unbind(input, dim=0):
    dim = shape_ops.wrap_dim(dim, input.ndim)
    before = (slice(None),) * dim
    return tuple(shape_ops.Unbind.apply(input, key=(*before, i)) for i in range(input.shape[dim]))


def clone(input):
    return ops.Clone.apply(input)


def expand(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return shape_ops.Expand.apply(a, shape=tuple(shape))


def flip(input, dims):
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return shape_ops.Flip.apply(input, dims=tuple(shape_ops.wrap_dim(d, input.ndim) for d in dims))
