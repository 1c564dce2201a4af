"""Reductions over runs of consecutive elements along one dim: torch.segment_reduce."""

import numpy as np

from .base import Op, dtype_word, wrap_dim
from .reductions import _others_product

REDUCTIONS = ("sum", "prod", "mean", "max", "min")
_EMPTY = {"sum": 0.0, "prod": 1.0, "mean": np.nan, "max": -np.inf, "min": np.inf}
_REDUCE = {"sum": np.sum, "prod": np.prod, "mean": np.sum, "max": np.max, "min": np.min}


def _segments(offsets, lead):
    """(leading index, segment number, start, stop) of every segment."""
    rows = offsets.reshape(-1, offsets.shape[-1])
    for r, row in enumerate(rows):
        index = np.unravel_index(r, lead) if lead else ()
        for j in range(row.size - 1):
            yield index, j, int(row[j]), int(row[j + 1])


def _part(a, index, start, stop):
    """The slices of segment (index, start:stop), its dim first."""
    return a[(*index, slice(start, stop))]


class SegmentReduce(Op):
    """z_j = reduce(a[o_j : o_j+1]) along axis (o: the segments' offsets), with `initial`
    taking part in each;  dz_j/da_i = 1 (sum), 1/n_j (mean), the product of the others and
    initial (prod), and for max/min 1 shared by the elements equal to z_j, 0 elsewhere."""

    _backward_name = "SegmentReduceBackward0"

    @staticmethod
    def forward(ctx, a, offsets=None, reduce="sum", axis=0, initial=None):
        lead = a.shape[:axis]
        out = np.empty((*lead, offsets.shape[-1] - 1, *a.shape[axis + 1 :]), a.dtype)
        for index, j, start, stop in _segments(offsets, lead):
            part = _part(a, index, start, stop)
            value = out[(*index, j, Ellipsis)]
            if stop == start:
                value[...] = _EMPTY[reduce] if initial is None else initial
                continue
            value[...] = _REDUCE[reduce](part, axis=0)
            if initial is not None:
                fold = {"sum": np.add, "mean": np.add, "prod": np.multiply}.get(reduce)
                value[...] = (fold or getattr(np, f"f{reduce}"))(value, initial)
            if reduce == "mean":
                value /= stop - start
        ctx.info = (offsets, reduce, axis, initial)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        offsets, reduce, axis, initial = ctx.info
        da = np.zeros_like(a)
        for index, j, start, stop in _segments(offsets, a.shape[:axis]):
            if stop == start:
                continue
            part, g = _part(a, index, start, stop), grad[(*index, j)]
            if reduce == "sum":
                local = np.ones_like(part)
            elif reduce == "mean":
                local = np.full_like(part, 1 / (stop - start))
            elif reduce == "prod":
                local = _others_product(part, 0) * (1 if initial is None else initial)
            else:  # 0.0, not -0.0, off the maximum, whatever g's sign
                hit = part == out[(*index, j, Ellipsis)]
                shared = g / np.maximum(np.sum(hit, axis=0), 1)
                da[(*index, slice(start, stop))] = np.where(hit, shared, 0)
                continue
            da[(*index, slice(start, stop))] = local * g
        return da


def segment_reduce(
    data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None
):
    """reduce ("sum", "prod", "mean", "max" or "min") each run of `lengths` (or between
    `offsets`) consecutive slices of data along axis, lengths' last dim."""
    name = {"amax": "max", "amin": "min"}.get(reduce, reduce)
    if name not in REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if np.result_type(data._data).kind != "f":
        raise NotImplementedError(f'"_segment_reduce_cpu" not implemented for {dtype_word(data)!r}')
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    given = np.asarray((lengths if lengths is not None else offsets)._data, np.int64)
    axis = wrap_dim(axis, data.ndim)
    if axis != given.ndim - 1:
        which = "lengths" if lengths is not None else "offsets"
        raise RuntimeError(
            f"segment_reduce(): Expected axis to be the last dimension of {which} but got {axis}."
        )
    if lengths is not None:
        if not unsafe and (np.sum(given, axis=-1) != data.shape[axis]).any():
            raise RuntimeError(
                "segment_reduce(): Expected all rows of lengths along axis to sum to "
                "data.size(lengths.dim()-1) when !unsafe."
            )
        starts = np.zeros((*given.shape[:-1], 1), np.int64)
        given = np.concatenate([starts, np.cumsum(given, axis=-1)], axis=-1)
    return SegmentReduce.apply(data, offsets=given, reduce=name, axis=axis, initial=initial)
