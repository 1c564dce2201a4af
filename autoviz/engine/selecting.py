"""Sorting and picking elements: sort, argsort, topk, gather, split and chunk, recorded as
PyTorch records them (SortBackward0, TopkBackward0, GatherBackward0, SplitBackward0)."""

import itertools
from collections import namedtuple

import numpy as np

from . import shape_ops
from .functional import _ReturnType
from .ops import Op
from .tensor import Tensor, make
from .topk import topk_row

ReturnSort = type(
    "sort", (_ReturnType, namedtuple("sort", ["values", "indices"])), {"__slots__": ()}
)
ReturnTopk = type(
    "topk", (_ReturnType, namedtuple("topk", ["values", "indices"])), {"__slots__": ()}
)


class _Picked(Op):
    """z = a's elements at `index` along `dim`;  dz/da = the gradient put back at index."""

    @staticmethod
    def forward(ctx, a, index=None, dim=0):
        ctx.info = (np.shape(a), index, dim)
        return np.asarray(np.asarray(a)[_full_index(index, dim)])  # shaped as index is

    @staticmethod
    def backward(ctx, grad):
        shape, index, dim = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        # add.at: gather may pick an element twice; its gradients add up
        np.add.at(full, _full_index(index, dim), grad)
        return full


def _full_index(index, dim):
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


class SortValues(_Picked):
    _backward_name = "SortBackward0"


class TopkValues(_Picked):
    _backward_name = "TopkBackward0"


class Gathered(_Picked):
    _backward_name = "GatherBackward0"


def _order(data, dim, descending, stable=True):
    """Indices that sort `data` along dim, ties in their original order."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    # Reversing the ascending order of the reversed array keeps ties in their original order.
    flipped = np.flip(data, dim)
    order = np.flip(np.argsort(flipped, axis=dim, kind="stable"), dim)
    return data.shape[dim] - 1 - order


def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    data = np.asarray(input._data)
    if data.ndim == 0:
        return ReturnSort(make(data.copy()), make(np.zeros((), np.int64)))
    dim = shape_ops.wrap_dim(dim, data.ndim)
    index = _order(data, dim, descending).astype(np.int64)
    return ReturnSort(SortValues.apply(input, index=index, dim=dim), make(index))


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """The k largest (or smallest) elements along dim, in PyTorch's order."""
    data = np.asarray(input._data)
    dim = shape_ops.wrap_dim(dim, max(data.ndim, 1))
    size = data.shape[dim] if data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    moved = np.moveaxis(data.reshape(data.shape or (1,)), dim, -1)
    keys = moved if largest else -moved
    rows = keys.reshape(-1, size).tolist()
    picked = [topk_row(row, k) if k else [] for row in rows]
    index = np.moveaxis(np.array(picked, np.int64).reshape(*moved.shape[:-1], k), -1, dim)
    if not data.ndim:
        index = index.reshape(())
        return ReturnTopk(make(data.copy()), make(index))
    return ReturnTopk(TopkValues.apply(input, index=index, dim=dim), make(index))


def gather(input, dim, index, *, sparse_grad=False, out=None):
    """out[i][j] = input[i][index[i][j]] for dim 1 (and so on for other dims)."""
    idx = np.asarray(index._data if isinstance(index, Tensor) else index)
    if idx.dtype.kind not in "iu":
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    dim = shape_ops.wrap_dim(dim, input.ndim)
    return Gathered.apply(input, index=idx, dim=dim)


class SplitPiece(shape_ops.Select):
    """One piece `split` and `chunk` give (PyTorch records one node with an output per piece;
    here each piece has a node of that name, as unbind's pieces do)."""

    _backward_name = "SplitBackward0"


class SplitWithSizesPiece(shape_ops.Select):
    """A piece of split with a list of sizes."""

    _backward_name = "SplitWithSizesBackward0"


def split(tensor, split_size_or_sections, dim=0):
    dim = shape_ops.wrap_dim(dim, tensor.ndim)
    length = tensor.shape[dim]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        bounds = [*range(0, length, step), length] if length else [0, 0]
        op = SplitPiece
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != length:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={sizes}"
            )
        bounds = [0, *np.cumsum(sizes).tolist()]
        op = SplitWithSizesPiece
    before = (slice(None),) * dim
    return tuple(
        op.apply(tensor, key=(*before, slice(lo, hi))) for lo, hi in itertools.pairwise(bounds)
    )


def chunk(input, chunks, dim=0):
    """`chunks` pieces of equal size (the last smaller), as split does it."""
    length = input.shape[shape_ops.wrap_dim(dim, input.ndim)]
    return split(input, -(-length // chunks) if length else 1, dim)
