"""Picking elements: `a[key]` as PyTorch records it, assignment into slices, masked_fill,
gather, sort, argsort, topk, and the pieces of unbind, split and chunk."""

import builtins
import itertools

import numpy as np

from .. import views
from ..fidelity.topk import keys, sort_row, topk_row
from ..higher import mask, rule, sum_to
from ..tensor import Tensor, make
from .arguments import int_arg
from .base import (
    Op,
    SeveralOutputs,
    check_broadcast,
    into,
    parts,
    refuse_bool,
    return_type,
    unbroadcast,
    warn_once,
    wrap_dim,
    writes_out,
)
from .shape import Alias, Unsqueeze


class Index(Op):
    """z = a[key];  dz/da = zeros with the gradient scattered back at key."""

    _backward_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key=None):
        ctx.info = (np.shape(a), np.result_type(a), key)
        return np.asarray(np.asarray(a)[key], order="C")  # a copy, row-major as in PyTorch

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, key = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad, dtype))
        np.add.at(full, key, grad)
        return full


class Select(Index):
    """z = a[i] along one axis;  dz/da = zeros with the gradient at i."""

    _backward_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, a, key=None):
        ctx.info = (np.shape(a), np.result_type(a), key)
        # a basic index: a view, strides and all; one element too (a 0-d view, where numpy's
        # a[i] would copy it out), so p[0].add_(1) changes p as in torch
        return np.asarray(a)[(*key, Ellipsis)]

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, key = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad, dtype))
        full[key] = grad  # a basic index touches each element once: no need for np.add.at
        return full


class Slice(Select):
    """z = a[start:stop:step];  dz/da = zeros with the gradient in the slice."""

    _backward_name = "SliceBackward0"


class AsStrided(Index):
    """z = the view a tensor was of a base changed in place since, at its elements' places
    there (PyTorch remakes such a view's node this way);  dz/da = zeros with the gradient
    scattered back at those places."""

    _backward_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, a, key=None, view=None):
        ctx.info = (np.shape(a), np.result_type(a), key)
        return view  # the view of a's new memory itself: it reads and writes a's elements

    @staticmethod
    def backward(ctx, grad):
        _, dtype, key = ctx.info
        if key is None:  # a view of a 0-d base: its one element, as often as the view has it
            return np.asarray(np.sum(grad), dtype=np.result_type(grad, dtype))
        return Index.backward(ctx, grad)


class InvalidView(Index):
    """A piece of split, chunk or unbind after its base changed in place: PyTorch refuses to
    differentiate through it."""

    _backward_name = "Invalid"

    @staticmethod
    def forward(ctx, a, key=None, view=None, piece=None):
        ctx.info = piece
        return view

    @staticmethod
    def backward(ctx, grad):
        name, number = ctx.info
        raise RuntimeError(
            f"Output {number} of {name} is a view and its base or another view of its base "
            "has been modified inplace. This view is the output of a function that returns "
            "multiple views. Such functions do not allow the output views to be modified "
            "inplace. You should replace the inplace operation by an out-of-place one."
        )


class Pieces(SeveralOutputs):
    """z_k = a[key_k], the pieces `split` and `chunk` give, one node with an output per piece;
    dz/da = the pieces' gradients side by side, zeros for a piece none reached."""

    _backward_name = "SplitBackward0"

    @staticmethod
    def forward(ctx, a, keys=(), dim=0):
        ctx.info = (np.shape(a), np.result_type(a), keys, dim)
        a = np.asarray(a)
        return tuple(a[(*key, Ellipsis)] for key in keys)  # views, as torch's pieces are

    @staticmethod
    def backward(ctx, grads):
        shape, dtype, keys, _ = ctx.info
        full = np.zeros(shape, dtype=dtype)
        for key, grad in zip(keys, parts(grads), strict=True):
            if grad is not None:
                full[key] = grad
        return full


class SplitWithSizes(Pieces):
    """The pieces of split with a list of sizes."""

    _backward_name = "SplitWithSizesBackward0"


class Unbind(Pieces):
    """z_k = a.select(dim, k), the slices `a.unbind(dim)` (and iterating over a) gives;
    dz/da = the slices' gradients stacked, zeros for a slice none reached."""

    _backward_name = "UnbindBackward0"


class CopySlices(Op):
    """a[key] = v recorded:  dz/da = the gradient with zeros at key, dz/dv = its part at key."""

    _backward_name = "CopySlices"
    _cpp_name = "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, a, v, key=None):
        ctx.info = (key, np.shape(v))
        out = np.array(a, copy=True)
        out[key] = v
        return out

    @staticmethod
    def backward(ctx, grad):
        key, v_shape = ctx.info
        ga = np.array(grad, copy=True)
        ga[key] = 0
        gv = np.asarray(grad[key])
        if gv.ndim < len(v_shape):  # v had leading 1s that the assignment dropped
            gv = gv.reshape((1,) * (len(v_shape) - gv.ndim) + gv.shape)
        return ga, unbroadcast(gv, v_shape)


class IndexPut(CopySlices):
    """a[indices] = v recorded (a list, tensor or mask among the indices, the rest `:`):
    dz/da = the gradient with zeros at the indices, dz/dv = its part there."""

    _backward_name = "IndexPutBackward0"


class MaskedFill(Op):
    """z = value where mask, else a;  dz/da = 1 where the mask is False, else 0."""

    _backward_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, a, cond=None, value=0):
        ctx.info = (cond, np.shape(a))
        return np.asarray(np.where(cond, np.asarray(value, np.result_type(a)), a), order="C")

    @staticmethod
    def backward(ctx, grad):
        cond, shape = ctx.info
        return unbroadcast(np.where(cond, np.zeros((), np.result_type(grad)), grad), shape)


class MaskedFillTensor(Op):
    """z = v where mask, else a, for a 0-d tensor v;  dz/da = 1 where the mask is False,
    dz/dv = Σ g where it is True."""

    _backward_name = "MaskedFillBackward1"

    @staticmethod
    def forward(ctx, a, v, cond=None):
        ctx.info = (cond, np.shape(a))
        return np.asarray(np.where(cond, np.asarray(v, np.result_type(a)), a), order="C")

    @staticmethod
    def backward(ctx, grad):
        cond, shape = ctx.info
        zero = np.zeros((), np.result_type(grad))
        kept = np.where(cond, zero, grad)
        return unbroadcast(kept, shape), unbroadcast(np.where(cond, grad, zero), ())


ReturnSort = return_type("sort")


ReturnTopk = return_type("topk")


class _Picked(Op):
    """z = a's elements at `index` along `dim`;  dz/da = the gradient put back at index."""

    @staticmethod
    def forward(ctx, a, index=None, dim=0):
        ctx.info = (np.shape(a), index, dim)
        if not np.ndim(a):
            return np.array(a)
        return np.asarray(np.asarray(a)[_full_index(index, dim)])  # shaped as index is

    @staticmethod
    def backward(ctx, grad):
        shape, index, dim = ctx.info
        if not shape:
            return np.array(grad)
        full = np.zeros(shape, np.result_type(grad))
        # add.at: gather may pick an element twice; its gradients add up
        np.add.at(full, _full_index(index, dim), grad)
        return full


def _full_index(index, dim):
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


class _Selected(_Picked):
    """Values picked once each (sort, topk): PyTorch writes the gradient back (a scatter),
    so a -0.0 stays -0.0 where adding into zeros would make it 0.0."""

    @staticmethod
    def backward(ctx, grad):
        shape, index, dim = ctx.info
        if not shape:
            return np.array(grad)
        full = np.zeros(shape, np.result_type(grad))
        full[_full_index(index, dim)] = grad
        return full


class SortValues(_Selected):
    _backward_name = "SortBackward0"


class TopkValues(_Selected):
    _backward_name = "TopkBackward0"


class Gathered(_Picked):
    _backward_name = "GatherBackward0"


class IndexSelect(Index):
    """z = a's slices at `index` along dim;  dz/da = zeros with the gradient added back there."""

    _backward_name = "IndexSelectBackward0"


class MaskedSelect(Index):
    """z = a's elements where mask is True, as one row;  dz/da = the gradient put back there."""

    _backward_name = "MaskedSelectBackward0"

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, key = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad, dtype))
        full[key] = grad  # PyTorch's masked_scatter: written, not added (a -0.0 stays)
        return full


class Take(Op):
    """z = a.flatten()[index];  dz/da = zeros with the gradient added back at index."""

    _backward_name = "TakeBackward0"

    @staticmethod
    def forward(ctx, a, index=None):
        ctx.info = (np.shape(a), index)
        return np.asarray(np.asarray(a).reshape(-1)[index])

    @staticmethod
    def backward(ctx, grad):
        shape, index = ctx.info
        full = np.zeros(int(np.prod(shape)), np.result_type(grad))
        np.add.at(full, index, grad)
        return full.reshape(shape)


def _along_key(index, dim):
    """The numpy key that reaches, for each element of `index`, its place along dim."""
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


def _part(src, index):
    """The leading block of `src` that `index` covers (scatter reads only that much)."""
    return np.asarray(src)[tuple(slice(0, n) for n in index.shape)]


class ScatterSrc(Op):
    """z = a with src's values written at index along dim;  dz/da = the gradient, zero where
    written; dz/dsrc = the gradient gathered from where each value went."""

    _backward_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, a, src, index=None, dim=0):
        key = _along_key(index, dim)
        ctx.info = (key, index, np.shape(src))
        out = np.array(a, copy=True)
        out[key] = _part(src, index)
        return out

    @staticmethod
    def backward(ctx, grad):
        key, index, src_shape = ctx.info
        ga = np.array(grad, copy=True)
        ga[key] = 0
        gs = np.zeros(src_shape, np.result_type(grad))
        gs[tuple(slice(0, n) for n in index.shape)] = grad[key]
        return ga, gs


class ScatterValue(Op):
    """z = a with `value` written at index along dim;  dz/da = the gradient, zero there."""

    _backward_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx, a, index=None, dim=0, value=0):
        key = _along_key(index, dim)
        ctx.info = key
        out = np.array(a, copy=True)
        out[key] = value
        return out

    @staticmethod
    def backward(ctx, grad):
        ga = np.array(grad, copy=True)
        ga[ctx.info] = 0
        return ga


class ScatterAdd(Op):
    """z = a with src's values added at index along dim;  dz/da = the gradient, dz/dsrc = the
    gradient gathered from where each value was added."""

    _backward_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, a, src, index=None, dim=0):
        key = _along_key(index, dim)
        ctx.info = (key, index, np.shape(src))
        out = np.array(a, copy=True)
        np.add.at(out, key, _part(src, index))
        return out

    @staticmethod
    def backward(ctx, grad):
        key, index, src_shape = ctx.info
        gs = np.zeros(src_shape, np.result_type(grad))
        gs[tuple(slice(0, n) for n in index.shape)] = grad[key]
        return grad, gs


_REDUCE_AT = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum}
_REDUCE_AT["amin"] = np.minimum
_IDENTITY = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}


def _reduced(a, src, key, index, reduce, include_self):
    """a with src reduced into the places key reaches (PyTorch's scatter_reduce)."""
    out = np.array(a, copy=True)
    part = _part(src, index)
    hit = np.zeros(np.shape(a), bool)
    hit[key] = True
    if not include_self:
        fill = _IDENTITY[reduce]
        if out.dtype.kind == "b":
            fill = bool(fill > 0)
        elif out.dtype.kind in "iu" and np.isinf(fill):
            info = np.iinfo(out.dtype)
            fill = info.min if fill < 0 else info.max
        out[hit] = fill
    _REDUCE_AT[reduce].at(out, key, part)
    if reduce == "mean":
        count = np.full(np.shape(a), 1 if include_self else 0, np.int64)
        np.add.at(count, key, 1)
        count = np.maximum(count, 1)
        out = (out // count if out.dtype.kind in "iu" else out / count).astype(out.dtype)
    return out, hit


class ScatterReduce(Op):
    """z = a with src's values reduced (sum, prod, mean, amax, amin) into the places index
    points to along dim;  dz/da, dz/dsrc: PyTorch's rules (the gradient, divided by the count
    for mean, shared among the elements equal to an amax/amin, the others' product for prod)."""

    _backward_name = "ScatterReduceBackward0"

    @staticmethod
    def forward(ctx, a, src, index=None, dim=0, reduce="sum", include_self=True):
        key = _along_key(index, dim)
        out, hit = _reduced(a, src, key, index, reduce, include_self)
        ctx.save_for_backward(a, src, out)
        ctx.info = (key, index, dim, reduce, include_self, hit)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, src, out = ctx.saved_tensors
        key, index, _, reduce, include_self, hit = ctx.info
        part = _part(src, index)
        with np.errstate(divide="ignore", invalid="ignore"):
            g_self, g_part = _REDUCE_GRADS[reduce](grad, a, part, out, key, index, include_self)
        if not include_self:
            g_self = np.where(hit, np.zeros((), g_self.dtype), g_self)
        g_src = np.zeros(np.shape(src), np.result_type(grad))
        g_src[tuple(slice(0, n) for n in index.shape)] = g_part
        return g_self, g_src


def _sum_grads(grad, a, part, out, key, index, include_self):
    return np.array(grad), grad[key]


def _mean_grads(grad, a, part, out, key, index, include_self):
    count = np.full(np.shape(a), 1 if include_self else 0, grad.dtype)
    np.add.at(count, key, 1)
    count[count == 0] = 1
    share = grad / count
    return share, share[key]


def _extreme_grads(grad, a, part, out, key, index, include_self):
    value = out[key]
    self_is = (a == out).astype(grad.dtype)
    src_is = (part == value).astype(grad.dtype)
    count = self_is.copy()
    np.add.at(count, key, src_is)
    spread = grad / count
    return self_is * spread, src_is * spread[key]


def _prod_grads(grad, a, part, out, key, index, include_self):
    """PyTorch's: zeros in self or src get the product of the others, not 0/0."""
    masked_self = np.where(a == 0, 1, a).astype(a.dtype)
    masked_out, _ = _reduced(masked_self, part, key, index, "prod", include_self)
    g_self = grad * masked_out / masked_self
    zero = part == 0
    zeros_at = np.zeros(np.shape(a), grad.dtype)
    np.add.at(zeros_at, key, zero.astype(grad.dtype))
    single = zero & (zeros_at[key] == 1)
    masked_part = np.where(single, 1, part).astype(part.dtype)
    masked_src_out, _ = _reduced(a, masked_part, key, index, "prod", include_self)
    g_part = np.where(
        single,
        (grad * masked_src_out)[key],
        (grad * out)[key] / np.where(zero, 1, part),
    )
    return g_self, g_part


_REDUCE_GRADS = {
    "sum": _sum_grads,
    "mean": _mean_grads,
    "prod": _prod_grads,
    "amax": _extreme_grads,
    "amin": _extreme_grads,
}


class IndexReduce(ScatterReduce):
    """z = a with source's slices reduced (prod, mean, amax, amin) into the slices at index
    along dim;  the gradients as scatter_reduce's."""

    _backward_name = "IndexReduceBackward0"


class IndexAdd(Op):
    """z = a with alpha·source added at the index slices along dim;  dz/da = the gradient,
    dz/dsource = alpha times the gradient's slices at index."""

    _backward_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, a, source, key=None, alpha=1):
        ctx.info = (key, alpha)
        out = np.array(a, copy=True)
        np.add.at(out, key, np.asarray(source) * alpha if alpha != 1 else source)
        return out

    @staticmethod
    def backward(ctx, grad):
        key, alpha = ctx.info
        part = np.asarray(grad[key])
        return grad, part * alpha if alpha != 1 else part


class IndexCopy(Op):
    """z = a with source copied into the index slices along dim;  dz/da = the gradient, zero
    there; dz/dsource = the gradient's slices at index."""

    _backward_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, a, source, key=None):
        ctx.info = key
        out = np.array(a, copy=True)
        out[key] = source
        return out

    @staticmethod
    def backward(ctx, grad):
        ga = np.array(grad, copy=True)
        ga[ctx.info] = 0
        return ga, np.asarray(grad[ctx.info])


class IndexFill(ScatterValue):
    """z = a with `value` in the index slices along dim;  dz/da = the gradient, zero there."""

    _backward_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, a, key=None, value=0):
        ctx.info = key
        out = np.array(a, copy=True)
        out[key] = value
        return out


# -- the functions ---------------------------------------------------------------------------


UINT8_INDEX = (
    "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead."
)


def _index_part(part):
    """One part of an index with tensors turned into arrays (0-d integer tensors into ints)."""
    if isinstance(part, Tensor):
        data = part._data
        if np.result_type(data) == np.uint8:  # torch reads a uint8 index as a mask
            import warnings

            warnings.warn(UINT8_INDEX, UserWarning, stacklevel=4)
            return np.asarray(data).astype(np.bool_)
        if np.ndim(data) == 0 and np.result_type(data).kind in "iu":
            return int(data)
        return np.asarray(data)
    if isinstance(part, (list, range)):  # x[range(n), y]: a range indexes as its list does
        if part and all(isinstance(p, Tensor) for p in part):
            return np.asarray([np.asarray(p._data) for p in part])
        return np.asarray(part) if len(part) else np.zeros(0, dtype=np.int64)
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
    """PyTorch's IndexError for a mask of the wrong shape, an index out of range, or index
    tensors that do not broadcast together."""
    arrays = [p for p in key if not isinstance(p, slice)]
    sizes = [(int(np.count_nonzero(p)),) * p.ndim if _is_mask(p) else np.shape(p) for p in arrays]
    try:
        np.broadcast_shapes(*sizes)
    except ValueError:
        shapes = ", ".join(str(list(size)) for size in sizes)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}"
        ) from None
    dim = 0
    for position, part in enumerate(key):
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
            if bad.size:  # torch numbers the index among the index tensors, not the dims
                number = sum(not isinstance(p, slice) for p in key[:position])
                raise IndexError(
                    f"index {bad[0]} is out of bounds for dimension {number} with size {size}"
                )
        dim += 1


def _full(part) -> bool:
    return part is Ellipsis or (isinstance(part, slice) and part == slice(None))


def whole(key) -> bool:
    """Whether `key` (from index_key) selects the whole tensor as it is: `:`, `...`, `:, :`."""
    return all(map(_full, key if isinstance(key, tuple) else (key,)))


def put_class(key):
    """The node `a[key] = v` records on `a`: IndexPut for indices (lists, tensors, masks)
    beside only `:` and `...`, as torch's index_put_ on the tensor itself; else CopySlices."""
    parts = key if isinstance(key, tuple) else (key,)
    basic = [p for p in parts if _is_basic(p)]
    return IndexPut if len(basic) < len(parts) and all(map(_full, basic)) else CopySlices


def check_key(shape: tuple, raw, key) -> int:
    """How many of the tensor's dims `key` (index_key of `raw`, the user's) uses, or PyTorch's
    IndexError for a key with too many indices, or an int or a slice alone on a 0-dim tensor."""
    if not shape and not isinstance(raw, tuple):
        if type(raw) is int:
            if key == 0:
                raise IndexError(
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
                )
            raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
        if isinstance(key, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    parts = key if isinstance(key, tuple) else (key,)
    used = builtins.sum([_dims_used(p) for p in parts])
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    return used


def index(a, key):
    """`a[key]` recorded as PyTorch records it: one Select, Slice or Unsqueeze per int, slice
    or None, left to right (full slices `:` skipped, AliasBackward0 if nothing is left), then
    one IndexBackward0 for the arrays, lists and masks, on the dims that are left."""
    raw, key = key, index_key(key)
    parts = key if isinstance(key, tuple) else (key,)
    if any(isinstance(p, (bool, np.bool_)) or (np.ndim(p) == 0 and _is_mask(p)) for p in parts):
        return Index.apply(a, key=key)  # a[True]: numpy's meaning, one node
    shape = np.shape(a._data)
    used = check_key(shape, raw, key)
    out, dim, src = a, 0, 0  # position in the output, and in a's shape
    advanced = []  # the key for the IndexBackward0 applied last, over `out`'s dims
    for part in parts:
        if part is Ellipsis:
            dim += len(shape) - used
            src += len(shape) - used
            advanced += [slice(None)] * (len(shape) - used)
        elif part is None:
            out = Unsqueeze.apply(out, dim=dim)
            dim += 1
            advanced.append(slice(None))
        elif isinstance(part, int):
            size = shape[src]
            if not -size <= part < size:
                raise IndexError(
                    f"index {part} is out of bounds for dimension {src} with size {size}"
                )
            out = Select.apply(out, key=(slice(None),) * dim + (part,))
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
                out = Slice.apply(out, key=(slice(None),) * dim + (part,))
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
        return Index.apply(out, key=tuple(advanced))
    if out is a:
        return Alias.apply(a)
    views.mark(out, a, key)  # an in-place op on out is written back into a, and told
    return out


def unbind(input, dim=0):
    if not input.ndim:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    dim = wrap_dim(dim, input.ndim)
    before = (slice(None),) * dim
    pieces = Unbind.apply(input, keys=[(*before, i) for i in range(input.shape[dim])], dim=dim)
    for i, piece in enumerate(pieces):
        views.mark(piece, input, (*before, i), ("Unbind", i))  # torch refuses in-place ops here
    return pieces


# c10's names of the dtypes in some messages ("got mask with dtype float")
_C_WORDS = {"int64": "long int", "float32": "float", "float64": "double", "int32": "int"}


def masked_fill(input, mask, value):
    """`value` where `mask` is True, else the input; the gradient flows where mask is False."""
    cond = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{_C_WORDS.get(np.result_type(cond).name, np.result_type(cond).name)}"
        )
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s)."
        )
    kind = np.result_type(value._data if isinstance(value, Tensor) else value).kind
    if kind == "c" and np.result_type(input._data).kind != "c":  # complex into a real tensor
        name = np.result_type(input._data).name
        word = {"int64": "int64_t", "float32": "float", "float64": "double"}.get(name, name)
        raise RuntimeError(f"value cannot be converted to type {word} without overflow")
    if np.shape(cond) != np.shape(input._data):
        check_broadcast(cond, input._data)  # torch's message for a mask of the wrong shape
    if isinstance(value, Tensor):
        return MaskedFillTensor.apply(input, value, cond=cond)
    return MaskedFill.apply(input, cond=cond, value=value)


def _order(data, dim, descending, stable=True):
    """Indices that sort `data` along dim, ties in their original order."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    # Reversing the ascending order of the reversed array keeps ties in their original order.
    flipped = np.flip(data, dim)
    order = np.flip(np.argsort(flipped, axis=dim, kind="stable"), dim)
    return data.shape[dim] - 1 - order


def tied_rows(rows) -> np.ndarray:
    """Which rows of a 2-d array hold equal values (two NaNs count as equal)."""
    ordered = np.sort(rows, axis=1)
    tied = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    if rows.dtype.kind == "f":
        tied |= np.isnan(rows).sum(axis=1) > 1
    return tied


def _unstable_order(data, dim, descending):
    """torch.sort's indices with stable=False: std::sort's, which differ from a stable sort's
    only where a row of more than 16 elements has equal values (insertion sort below)."""
    index = _order(data, dim, descending).astype(np.int64)
    size = data.shape[dim]
    if size <= 16 or data.dtype.kind == "c":
        return index
    rows = np.moveaxis(data, dim, -1).reshape(-1, size)
    tied = np.flatnonzero(tied_rows(rows))
    if not tied.size:
        return index
    moved = np.moveaxis(index, dim, -1).copy()
    flat = moved.reshape(-1, size)
    for r in tied:
        flat[r] = sort_row(keys(rows[r].tolist(), descending, descending))
    return np.moveaxis(flat.reshape(moved.shape), -1, dim)


@writes_out
def sort(input, dim=-1, descending=False, stable=False):
    data = np.asarray(input._data)
    if data.ndim == 0:
        return ReturnSort(make(data.copy()), make(np.zeros((), np.int64)))
    dim = wrap_dim(dim, data.ndim)
    if stable:
        index = _order(data, dim, descending).astype(np.int64)
    else:
        index = _unstable_order(data, dim, descending)
    return ReturnSort(SortValues.apply(input, index=index, dim=dim), make(index))


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices


@writes_out
def topk(input, k, dim=-1, largest=True, sorted=True):
    """The k largest (or smallest) elements along dim, in PyTorch's order."""
    refuse_bool(input, "topk does not support bool dtypes on CPU")
    k = int_arg(k)
    data = np.asarray(input._data)
    dim = wrap_dim(dim, max(data.ndim, 1))
    size = data.shape[dim] if data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    moved = np.moveaxis(data.reshape(data.shape or (1,)), dim, -1)
    rows = moved.reshape(-1, size).tolist()
    # torch's comparators: the largest first, NaN greatest (or the smallest, NaN last)
    picked = [topk_row(keys(row, largest, largest), k) if k else [] for row in rows]
    index = np.moveaxis(np.array(picked, np.int64).reshape(*moved.shape[:-1], k), -1, dim)
    if not data.ndim:
        index = index.reshape(())
    return ReturnTopk(TopkValues.apply(input, index=index, dim=dim), make(index))


@writes_out
def gather(input, dim, index, *, sparse_grad=False):
    """out[i][j] = input[i][index[i][j]] for dim 1 (and so on for other dims)."""
    idx = np.asarray(index._data if isinstance(index, Tensor) else index)
    if idx.dtype.kind not in "iu":
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    dim = wrap_dim(dim, input.ndim)
    for d in range(idx.ndim if idx.ndim == input.ndim else 0):  # checked before the bounds
        if d != dim and idx.shape[d] > input.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(idx.shape)} to be "
                f"no larger than self {list(input.shape)} apart from dimension {dim}"
            )
    _check_index(input, dim, idx, "input")
    return Gathered.apply(input, index=idx, dim=dim)


def _check_index(input, dim, idx, name, src=None) -> None:
    """torch's checks of gather's and scatter's index: as many dims as the tensors (0-d
    counts as 1-d), and every index inside dim."""
    dims = builtins.max(input.ndim, 1)
    if builtins.max(idx.ndim, 1) != dims and idx.size:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {name} tensor")
    if src is not None and builtins.max(src.ndim, 1) != builtins.max(idx.ndim, 1) and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    size = input.shape[dim] if input.ndim else 1
    bad = idx[(idx < 0) | (idx >= size)] if idx.size else idx[:0]  # torch wraps no -1 here
    if bad.size:
        raise RuntimeError(
            f"index {bad.reshape(-1)[0]} is out of bounds for dimension {dim} with size {size}"
        )


def split(tensor, split_size_or_sections, dim=0):
    dim = wrap_dim(dim, tensor.ndim)
    length = tensor.shape[dim]
    if isinstance(split_size_or_sections, Tensor) and not split_size_or_sections.ndim:
        split_size_or_sections = int_arg(split_size_or_sections)
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        if step == 0 and length:
            raise RuntimeError(
                "split_size can only be 0 if dimension size is 0, but got dimension size of "
                f"{length}"
            )
        bounds = [*range(0, length, step), length] if length else [0, 0]
        op = Pieces
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != length:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={sizes}"
            )
        bounds = [0, *np.cumsum(sizes).tolist()]
        op = SplitWithSizes
    before = (slice(None),) * dim
    keys = [(*before, slice(lo, hi)) for lo, hi in itertools.pairwise(bounds)]
    pieces = op.apply(tensor, keys=keys, dim=dim)
    name = "Split" if op is Pieces else "SplitWithSizes"
    for i, (piece, key) in enumerate(zip(pieces, keys, strict=True)):
        views.mark(piece, tensor, key, (name, i))  # torch refuses in-place ops on them
    return pieces


def chunk(input, chunks, dim=0):
    """`chunks` pieces of equal size (the last smaller), as split does it."""
    chunks = int_arg(chunks)
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = input.shape[wrap_dim(dim, input.ndim)]
    return split(input, -(-length // chunks) if length else 1, dim)


def _index_array(index, name: str, kinds="int64") -> np.ndarray:
    idx = np.asarray(index._data if isinstance(index, Tensor) else index)
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype {kinds} for index")
    return idx.astype(np.int64, copy=False)


def _dim_key(input, dim, index):
    """The key for the slices of `input` at `index` along `dim`."""
    dim = wrap_dim(dim, input.ndim)
    return (slice(None),) * dim + (index.reshape(-1) if input.ndim else index,)


@writes_out
def index_select(input, dim, index):
    """The slices of input at `index` (a 1-D tensor of integers) along dim."""
    idx = _index_array(index, "index_select", "int32 or int64")
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = input.shape[wrap_dim(dim, input.ndim)] if input.ndim else 1
    if idx.size and ((idx < 0) | (idx >= size)).any():
        raise IndexError("index out of range in self")
    return IndexSelect.apply(input, key=_dim_key(input, dim, idx))


@writes_out
def masked_select(input, mask):
    """input's elements where mask is True, as a 1-D tensor."""
    cond = np.asarray(mask._data if isinstance(mask, Tensor) else mask)
    if cond.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {_word(cond)}Tensor")
    if cond.shape != tuple(input.shape):
        check_broadcast(cond, input._data)
        shape = np.broadcast_shapes(cond.shape, tuple(input.shape))
        input, cond = input.expand(*shape), np.broadcast_to(cond, shape)
    return MaskedSelect.apply(input, key=cond)


def _word(a) -> str:
    from ..dtypes import TYPE_NAMES

    return TYPE_NAMES.get(a.dtype.name, a.dtype.name)


@writes_out
def take(input, index):
    """input's elements at `index`, counted in the flattened tensor."""
    idx = _index_array(index, "take")
    size = int(np.prod(input.shape))
    bad = idx[(idx >= size) | (idx < -size)]
    if bad.size:
        raise IndexError(
            f"out of range: tried to access index {bad[0]} on a tensor of {size} elements."
        )
    return Take.apply(input, index=idx)


@writes_out
def take_along_dim(input, indices, dim=None):
    """gather with broadcasting; without dim, over the flattened tensor."""
    if dim is None:
        return take(input, indices.reshape(-1))
    dim = wrap_dim(dim, input.ndim)
    shape_in, shape_idx = list(input.shape), list(indices.shape)
    shape_in[dim] = shape_idx[dim] = 1
    common = list(np.broadcast_shapes(tuple(shape_in), tuple(shape_idx)))
    wide_in, wide_idx = list(common), list(common)
    wide_in[dim], wide_idx[dim] = input.shape[dim], indices.shape[dim]
    if tuple(wide_in) != tuple(input.shape):
        input = input.expand(*wide_in)
    index_data = np.broadcast_to(np.asarray(indices._data), tuple(wide_idx))
    size = input.shape[dim]
    index_data = np.where(index_data < 0, index_data + size, index_data)  # counted from the end
    return gather(input, dim, make(np.ascontiguousarray(index_data)))


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """input with src's values (or `value`) written where index points along dim; with
    reduce="add" or "multiply", combined with what is there (torch's older scatter_reduce)."""
    if reduce is not None:
        return _scatter_combining(input, dim, index, value if src is None else src, reduce)
    idx = _index_array(index, "scatter", "int32/int64")
    dim = wrap_dim(dim, input.ndim)
    if src is None and value is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    if isinstance(src, Tensor):
        if src._data.dtype != input._data.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _check_index(input, dim, idx, "self", src)
        return ScatterSrc.apply(input, src, index=idx, dim=dim)
    _check_index(input, dim, idx, "self")
    value = value if src is None else src
    return ScatterValue.apply(input, index=idx, dim=dim, value=value)


def scatter_add(input, dim, index, src):
    """input with src's values added where index points along dim (repeats add up)."""
    idx, dim = _index_array(index, "scatter_add", "int32/int64"), wrap_dim(dim, input.ndim)
    if src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    _check_index(input, dim, idx, "self", src)
    return ScatterAdd.apply(input, src, index=idx, dim=dim)


SCATTER_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


class ScatterCombining(Op):
    """scatter(reduce="add" | "multiply"): PyTorch has no derivative for it."""

    _backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, src, index=None, dim=0, reduce="sum"):
        from ..grad_mode import no_grad

        with no_grad():
            out = scatter_reduce(make(np.asarray(a)), dim, make(index), make(src), reduce)
        return out._data

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter is not implemented")


def _scatter_combining(input, dim, index, src, reduce):
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    idx = _index_array(index, "scatter", "int32/int64")
    if isinstance(src, Tensor):
        warn_once(
            "scatter reduce",
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
            "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
            "reduction options.",
        )
    else:
        src = make(np.full(idx.shape, src, input._data.dtype))
    dim = wrap_dim(dim, input.ndim)
    mode = "sum" if reduce == "add" else "prod"
    return ScatterCombining.apply(input, src, index=idx, dim=dim, reduce=mode)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    """input with src's values reduced into the places index points to along dim."""
    if reduce not in SCATTER_REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    idx = _index_array(index, "scatter_reduce")
    if src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if input.ndim:
        _check_index(input, wrap_dim(dim, input.ndim), idx, "self", src)
    if reduce == "mean":
        message = "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'"
        refuse_bool(input, message, NotImplementedError)
    if not input.ndim:  # a 0-d tensor: its one element along dim 0
        one = scatter_reduce(
            input.reshape(1), 0, idx.reshape(-1), src.reshape(-1), reduce, include_self=include_self
        )
        return one.reshape(()) if out is None else into(out, one.reshape(()), "scatter_reduce")
    result = ScatterReduce.apply(
        input,
        src,
        index=idx,
        dim=wrap_dim(dim, input.ndim),
        reduce=reduce,
        include_self=include_self,
    )
    return result if out is None else into(out, result, "scatter_reduce")


def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """input with source's slices reduced into the slices at index along dim."""
    if reduce not in SCATTER_REDUCTIONS[1:]:
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    idx = _index_array(index, "index_reduce").reshape(-1)
    kernel = "div_floor_cpu" if include_self else "index_reduce_func_exclude_input_init"
    if reduce == "mean" or not include_self:
        refuse_bool(input, f"\"{kernel}\" not implemented for 'Bool'", NotImplementedError)
    if not input.ndim:  # a 0-d tensor: its one element along dim 0
        one = index_reduce(
            input.reshape(1), 0, idx, source.reshape(-1), reduce, include_self=include_self
        )
        return one.reshape(()) if out is None else into(out, one.reshape(()), "index_reduce")
    dim = wrap_dim(dim, input.ndim)
    if input.ndim:  # each slice of source along dim goes where its index says
        shape = [1] * source.ndim
        shape[dim] = idx.size
        idx = np.broadcast_to(idx.reshape(shape), tuple(source.shape)).copy()
    result = IndexReduce.apply(
        input, source, index=idx, dim=dim, reduce=reduce, include_self=include_self
    )
    return result if out is None else into(out, result, "index_reduce")


def index_add(input, dim, index, source, *, alpha=1):
    d = wrap_dim(dim, input.ndim)
    if input.ndim and [n for i, n in enumerate(input.shape) if i != d] != [
        n for i, n in enumerate(source.shape) if i != d
    ]:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(input.shape)} source.shape = "
            f"{list(source.shape)}"
        )
    idx = _index_array(index, "index_add")
    size = input.shape[d] if input.ndim else 1
    if idx.size and ((idx < 0) | (idx >= size)).any():
        raise IndexError("index out of range in self")
    if source.ndim and idx.size != source.shape[d]:
        raise RuntimeError(
            f"index_add_(): Number of indices ({idx.size}) should be equal to "
            f"source.size(dim): ({source.shape[d]}), for dim: {d}"
        )
    key = _dim_key(input, dim, idx)
    return IndexAdd.apply(input, source, key=key, alpha=alpha)


def index_copy(input, dim, index, source):
    idx, d = _index_array(index, "index_copy"), wrap_dim(dim, input.ndim)
    size = input.shape[d] if input.ndim else 1
    bad = idx.reshape(-1)[(idx.reshape(-1) < 0) | (idx.reshape(-1) >= size)]
    if bad.size:
        raise IndexError(
            f"index_copy_(): index {bad[0]} is out of bounds for dimension {d} with size {size}"
        )
    return IndexCopy.apply(input, source, key=_dim_key(input, dim, idx))


def index_fill(input, dim, index, value):
    value = value.item() if isinstance(value, Tensor) else value
    idx, d = _index_array(index, "index_fill"), wrap_dim(dim, input.ndim)
    size = input.shape[d] if input.ndim else 1
    bad = idx.reshape(-1)[(idx.reshape(-1) >= size) | (idx.reshape(-1) < -size)]
    if bad.size:
        raise IndexError(f"index {bad[0]} is out of bounds for dimension {d} with size {size}")
    return IndexFill.apply(
        input, key=_dim_key(input, dim, _index_array(index, "index_fill")), value=value
    )


def narrow(input, dim, start, length):
    """The `length` elements from `start` along dim: a view."""
    if not input.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = wrap_dim(dim, input.ndim)
    if isinstance(start, Tensor):
        if start.ndim or start._data.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.item())
    size = input.shape[dim]
    if not -size <= int(start) <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start = int(start) % size if int(start) < 0 else int(start)
    if start + length > input.shape[dim]:
        raise RuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({input.shape[dim]})."
        )
    return index(input, (slice(None),) * dim + (slice(start, start + length),))


def select(input, dim, index_):
    dim = wrap_dim(dim, input.ndim)
    return index(input, (slice(None),) * dim + (int(index_),))


def tensor_split(input, indices_or_sections, dim=0):
    """Pieces of input along dim: n of nearly equal size, or cut before each index."""
    dim = wrap_dim(dim, input.ndim)
    length = input.shape[dim]
    if isinstance(indices_or_sections, Tensor) and not indices_or_sections.ndim:
        indices_or_sections = int(indices_or_sections.item())
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        big, extra = divmod(length, n)
        sizes = [big + 1] * extra + [big] * (n - extra)
        bounds = [0, *itertools.accumulate(sizes)]
    else:
        cuts = [
            int(i) for i in getattr(indices_or_sections, "tolist", lambda: indices_or_sections)()
        ]
        bounds = [0, *[min(max(c, 0), length) for c in cuts], length]
    return tuple(narrow(input, dim, lo, max(hi - lo, 0)) for lo, hi in itertools.pairwise(bounds))


def _directional_split(name: str, rank: int, input, sections, dim: int):
    """hsplit, vsplit and dsplit: tensor_split along one dim, with torch's checks."""
    if input.ndim < rank:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {rank} dimension, but got a tensor "
            f"with {input.ndim} dimensions!"
        )
    if isinstance(sections, str) or not isinstance(sections, (int, list, tuple, Tensor)):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, "
            f"{type(sections).__name__}), but expected one of:\n * (Tensor input, int sections)"
            "\n * (Tensor input, tuple of ints indices)"
        )
    if isinstance(sections, int) and (sections == 0 or input.shape[dim] % sections):
        raise RuntimeError(
            f"torch.{name} attempted to split along dimension {dim}, but the size of the "
            f"dimension {input.shape[dim]} is not divisible by the split_size {sections}!"
        )
    return tensor_split(input, sections, dim)


def hsplit(input, sections):
    return _directional_split("hsplit", 1, input, sections, 1 if input.ndim > 1 else 0)


def vsplit(input, sections):
    return _directional_split("vsplit", 2, input, sections, 0)


def dsplit(input, sections):
    return _directional_split("dsplit", 3, input, sections, 2)


def scatter_method(self, dim, index, src=None, value=None, *, reduce=None):
    return scatter(self, dim, index, src, value, reduce=reduce)


def put(input, index, source, accumulate=False):
    """input with source's values at the flattened positions `index` (added if accumulate)."""
    flat = input.reshape(-1)
    idx = _index_array(index, "put").reshape(-1)
    size = flat.shape[0]
    bad = idx[(idx >= size) | (idx < -size)]
    if bad.size:
        raise IndexError(
            f"out of range: tried to access index {bad[0]} on a tensor of {size} elements."
        )
    idx = np.where(idx < 0, idx + size, idx)  # put counts from the end, as take does
    src = source.reshape(-1)
    if accumulate:
        return index_add(flat, 0, make(idx), src).reshape(*input.shape)
    return index_copy(flat, 0, make(idx), src).reshape(*input.shape)


def index_put(input, indices, values, accumulate=False):
    """input with values at input[indices] (added there if accumulate)."""
    key = index_key(tuple(indices))
    _check_advanced(np.shape(input._data), key if isinstance(key, tuple) else (key,))
    values = values if isinstance(values, Tensor) else make(np.asarray(values, input._data.dtype))
    if accumulate:
        return ScatterAdd.apply(
            input.reshape(-1),
            values.expand(*np.shape(np.asarray(input._data)[key])).reshape(-1),
            index=_flat_positions(input, key),
            dim=0,
        ).reshape(*input.shape)
    out = input.clone()
    out[key] = values
    return out


def _flat_positions(input, key):
    return np.arange(np.size(input._data)).reshape(np.shape(input._data))[key].reshape(-1)


def masked_scatter(input, mask, source):
    """input with source's first elements, in order, where mask is True."""
    cond = np.asarray(getattr(mask, "_data", mask))
    if cond.dtype != np.bool_:
        raise RuntimeError(
            f"masked_scatter_ only supports boolean masks, but got mask with dtype {_word(cond)}"
        )
    cond = np.broadcast_to(cond, tuple(input.shape))
    count = int(cond.sum())
    positions = np.flatnonzero(cond)
    taken = source.reshape(-1).narrow(0, 0, count)
    return index_copy(input.reshape(-1), 0, make(positions), taken).reshape(*input.shape)


def fill_diagonal_(self, fill_value, wrap=False):
    data = self._storage()
    n = min(data.shape) if not wrap else data.shape[0]
    for i in range(n if data.ndim else 0):
        data[(i % data.shape[0],) + (i % data.shape[1],) * (data.ndim - 1)] = fill_value
    return self


def unsafe_chunk(input, chunks, dim=0):
    return chunk(input, chunks, dim)


def unsafe_split(tensor, split_size, dim=0):
    return split(tensor, split_size, dim)


# -- recorded gradients (create_graph=True) --------------------------------------------------


class Scatter(Op):
    """z = zeros with g at key (the gradient of indexing);  dz/dg = the gradient at key."""

    _backward_name = "IndexBackwardBackward0"

    @staticmethod
    def forward(ctx, g, shape=(), key=None):
        ctx.info = key
        full = np.zeros(shape, dtype=np.result_type(g))
        np.add.at(full, key, g)
        return full

    @staticmethod
    def backward(ctx, grad):
        return np.asarray(np.asarray(grad)[ctx.info])


@rule(Scatter)
def _scatter(node, g):
    return Index.apply(g, key=node.info)


@rule(Index)
def _index(node, g):
    shape, _, key = node.info
    return Scatter.apply(g, shape=shape, key=key)


@rule(Pieces)
def _pieces(node, grads):
    shape, _, keys, _ = node.info
    found = [
        Scatter.apply(g, shape=shape, key=k)
        for k, g in zip(keys, parts(grads), strict=True)
        if g is not None
    ]
    return sum(found[1:], found[0]) if found else None


@rule(MaskedFill)
def _masked_fill(node, g):
    cond, shape = node.info
    return sum_to(g * mask(~cond, g), shape)


# -- finding elements: nonzero, unique, searchsorted -----------------------------------------------
@writes_out
def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements: one row each, or one tensor per dim."""
    data = np.asarray(input._data)
    if as_tuple:
        return tuple(make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(data)))
    return make(np.argwhere(data).astype(np.int64))


def argwhere(input):
    return nonzero(input)


def count_nonzero(input, dim=None):
    data = np.asarray(input._data)
    axes = None if dim is None else tuple(wrap_dim(d, data.ndim) for d in np.atleast_1d(dim))
    if not data.ndim:
        return make(np.asarray(np.count_nonzero(data), np.int64))
    return make(np.asarray(np.count_nonzero(data, axis=axes), np.int64))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements in ascending order; with the inverse (where each element went)
    and the counts when asked, as torch.unique returns them."""
    data = np.asarray(input._data)
    values, inverse, counts = np.unique(
        data if dim is not None else data.reshape(-1),
        return_inverse=True,
        return_counts=True,
        axis=None if dim is None else wrap_dim(dim, data.ndim),
    )
    out = [make(values)]
    if return_inverse:
        out.append(make(inverse.reshape(data.shape if dim is None else -1).astype(np.int64)))
    if return_counts:
        out.append(make(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        return _unique_consecutive_along(input, return_inverse, return_counts, dim)
    data = np.asarray(input._data).reshape(-1)
    starts = np.flatnonzero(np.r_[True, data[1:] != data[:-1]]) if data.size else np.zeros(0, int)
    out = [make(data[starts].copy())]
    if return_inverse:
        new = np.r_[True, data[1:] != data[:-1]][: data.size]
        inverse = (np.cumsum(new) - 1).astype(np.int64).reshape(np.shape(input._data))
        out.append(make(inverse))  # shaped as the input, as torch's
    if return_counts:
        out.append(make(np.diff(np.r_[starts, data.size]).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _unique_consecutive_along(input, return_inverse, return_counts, dim):
    """unique_consecutive over the slices along dim: each run of equal slices kept once."""
    data = np.asarray(input._data)
    dim = wrap_dim(dim, data.ndim)
    moved = np.moveaxis(data, dim, 0).reshape(data.shape[dim], -1)
    new = np.r_[True, (moved[1:] != moved[:-1]).any(axis=1)][: len(moved)]
    starts = np.flatnonzero(new)
    out = [make(np.ascontiguousarray(np.take(data, starts, axis=dim)))]
    if return_inverse:
        out.append(make((np.cumsum(new) - 1).astype(np.int64)))
    if return_counts:
        out.append(make(np.diff(np.r_[starts, len(moved)]).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    seq = np.asarray(sorted_sequence._data)
    if sorter is not None:  # the order that sorts an unsorted sequence, as numpy's sorter
        seq = np.take_along_axis(seq, np.asarray(sorter._data), axis=-1)
    values = np.asarray(getattr(input, "_data", input))
    where = "right" if right or side == "right" else "left"
    if seq.ndim <= 1:
        found = np.searchsorted(seq, values, side=where)
    else:
        rows = [
            np.searchsorted(s, v, side=where)
            for s, v in zip(
                seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1]), strict=True
            )
        ]
        found = np.array(rows).reshape(values.shape)
    return make(np.asarray(found, np.int32 if out_int32 else np.int64))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def msort(input):
    return sort(input, dim=0).values


def nonzero_method(self, *, as_tuple=False):
    return nonzero(self, as_tuple=as_tuple)
