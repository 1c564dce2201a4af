"""Float sums added up in the order PyTorch's CPU kernel adds them, so they round the same.

PyTorch sums floats in their own precision with a "cascade": blocks of 16 or more elements
summed one after another, block sums summed in blocks, and so on (four levels), over vectors
of AVX2 width (8 float32 or 4 float64 lanes) split into four interleaved partial sums. Which
elements are added in which order follows from the tensor's layout, which dims are reduced,
and how TensorIterator orders and merges the dims. numpy's pairwise sum rounds differently,
so here the same additions are made, vectorised over everything that is independent.
Single-threaded, as PyTorch is below 32768 elements.
"""

import math

import numpy as np

_LEVELS = 4
_ILP = 4  # interleaved partial sums in row_sum


# numpy reduces a row-major array along its first axis one row after another when the rows
# hold two or more elements (its inner loop then runs along a row); along an axis that is
# the innermost in memory it sums pairwise. A running sum (cumsum) is always sequential, but
# slower.


def _seq(x):
    """x[0] + x[1] + ... along axis 0, one after another (empty: zeros). Summed from x[0],
    not from zero: only -0.0 can tell, and cascade_sum adds +0.0 at the end."""
    if len(x) == 0:
        return np.zeros(x.shape[1:], x.dtype)
    if x.ndim > 1 and x[0].size > 1 and x.flags.c_contiguous:
        return np.add.reduce(x, axis=0)
    return np.cumsum(x, axis=0, dtype=x.dtype)[-1]


def _groups(values, step: int):
    """Sequential sums of each full group of `step` values, and of what is left over."""
    full = len(values) // step * step
    blocks = values[:full].reshape(-1, step, *values.shape[1:])
    if values.ndim > 1 and values[0].size > 1 and blocks.flags.c_contiguous:
        flushed = np.add.reduce(blocks, axis=1)
    else:
        flushed = np.cumsum(blocks, 1, values.dtype)[:, -1]
    return flushed, _seq(values[full:])


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _multi_row(x):
    """The cascade over axis 0 (one result per element of the other axes): blocks of
    2^p summed in turn into four levels, each flushed upwards every 2^p of its inputs."""
    size = len(x)
    step = 1 << max(4, _ceil_log2(size) // _LEVELS)
    zero = x.dtype.type(0)  # an empty level adds +0.0 (which only turns -0.0 into 0.0)
    if size < step:  # no block filled: one running sum
        return _seq(x) + zero
    level0, acc0 = _groups(x, step)  # block sums; the elements after the last full block
    if len(level0) < step:  # the usual case below 256 blocks: two levels in use
        return (acc0 + _seq(level0)) + zero
    level1, acc1 = _groups(level0, step)
    level2, acc2 = _groups(level1, step)
    acc3 = _seq(level2)
    return ((acc0 + acc1) + acc2) + acc3


def _row(x):
    """row_sum: four interleaved cascades (elements 4i, 4i+1, ...), the leftovers added to
    the first, then the four added together."""
    n = len(x) // _ILP
    parts = _multi_row(x[: n * _ILP].reshape(n, _ILP, *x.shape[1:]))
    if len(x) == n * _ILP:
        return ((parts[0] + parts[1]) + parts[2]) + parts[3]
    return _seq(np.concatenate([parts[:1], x[n * _ILP :], parts[1:]]))


def _inner_vectorised(x, lanes: int):
    """Axis 0 contiguous: vectors of `lanes` elements summed by row_sum, lane by lane; the
    elements after the last vector summed from zero; then each lane added in order."""
    count = len(x) // lanes
    lane_sums = _row(x[: count * lanes].reshape(count, lanes, *x.shape[1:]))
    tail = x[count * lanes :]
    if x.ndim == 1:  # one row: numpy scalars, quicker than arrays for a handful of adds
        total = x.dtype.type(0)
        for value in tail:
            total = total + value
        for k in range(lanes):
            total = total + lane_sums[k]
        return total
    # The tail is summed from zero first, then the lanes are added to it.
    return _seq(np.concatenate([_seq(tail)[None], lane_sums])) + x.dtype.type(0)


def _outer(x, block: int):
    """Axis 0 reduced, axis 1 the columns: the first columns in blocks of `block` by the plain
    cascade, the rest by row_sum."""
    cut = x.shape[1] // block * block
    parts = []
    if cut:
        parts.append(_multi_row(x[:, :cut]))
    if cut < x.shape[1]:
        parts.append(_row(x[:, cut:]))
    return np.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


def _loop2d(block, lanes: int, itemsize: int):
    """One (size0, size1, *outer) block of the kernel's 2-D loop, axis 0 reduced: the sums,
    shape (size1, *outer)."""
    strides = block.strides
    if strides[0] == itemsize and block.shape[0] >= lanes:
        return _inner_vectorised(block, lanes)
    if strides[1] == itemsize and block.shape[1] >= lanes:
        return _outer(block, _ILP * lanes)
    if strides[0] < strides[1]:
        return _row(block)
    return _outer(block, _ILP)


def _flat_sum(x):
    """A contiguous 1-D sum: the general path, with the small cases written out (they are
    the most common: scalar losses, a handful of values)."""
    n = len(x)
    if n >= 32 // x.itemsize:
        return _inner_vectorised(x, 32 // x.itemsize)
    zero = x.dtype.type(0)
    quads = n // _ILP
    # row_sum over scalars: one cascade of at most one group of four, then the rest.
    parts = [x[k] + zero for k in range(_ILP)] if quads else [zero] * _ILP
    total = parts[0]
    for i in range(quads * _ILP, n):
        total = total + x[i]
    return ((total + parts[1]) + parts[2]) + parts[3]


def _matrix_sum(a, axis: int):
    """A row-major matrix summed over one axis: the general path's loop, without working out
    the iterator's dims (the common case: a broadcast bias's gradient)."""
    lanes = 32 // a.itemsize
    if axis == 0:  # the columns are contiguous: vectors across them, rows added in turn
        return _outer(a, _ILP * lanes if a.shape[1] >= lanes else _ILP)
    rows = a.T  # each row is contiguous: summed along it, one result per row
    return _inner_vectorised(rows, lanes) if a.shape[1] >= lanes else _row(rows)


def _iterator_dims(a, axes):
    """(size, input stride, reduced) per dim in the order TensorIterator loops over them
    (reduced dims first, then by stride), with mergeable neighbours merged."""
    kept = [i for i in range(a.ndim) if i not in axes]
    out_stride = {}
    step = 1
    for i in reversed(kept):  # the result is made row-major over the kept dims
        out_stride[i] = step
        step *= a.shape[i]
    dims = [(a.shape[i], a.strides[i], i in axes, out_stride.get(i, 0)) for i in range(a.ndim)]
    dims = [d for d in dims if d[0] != 1]
    # Reduced dims first, by input stride; then the kept ones by the result's strides.
    dims.sort(key=lambda d: (False, d[1]) if d[2] else (True, d[3]))
    merged = []
    for size, stride, reduced, ostride in dims:
        if merged:
            psize, pstride, preduced, postride = merged[-1]
            if reduced == preduced and stride == pstride * psize and ostride == postride * psize:
                merged[-1] = (psize * size, pstride, reduced, postride)
                continue
        merged.append((size, stride, reduced, ostride))
    return merged


def cascade_sum(a: np.ndarray, axes) -> np.ndarray:
    """The sum of float array `a` over `axes` (a tuple; None: all), as PyTorch's CPU kernel
    rounds it; the reduced axes are removed from the shape."""
    a = np.asarray(a)
    if a.dtype.kind != "f" or a.dtype.itemsize < 4 or a.size == 0:
        return np.asarray(np.sum(a, axis=axes)).astype(a.dtype, copy=False)
    if (axes is None or len(axes) == a.ndim) and a.flags.c_contiguous:
        # The usual case, loss.sum() and x.mean(); + 0.0 as PyTorch's sum starts from zero.
        return np.asarray(_flat_sum(a.reshape(-1)) + a.dtype.type(0))
    axes = tuple(range(a.ndim)) if axes is None else tuple(axes)
    if a.ndim == 2 and a.flags.c_contiguous and min(a.shape) > 1 and len(axes) == 1:
        return _matrix_sum(a, axes[0] % 2) + a.dtype.type(0)  # a gradient summed to a bias
    shape = tuple(n for i, n in enumerate(a.shape) if i not in axes)
    dims = _iterator_dims(a, axes)
    if not dims or not dims[0][2]:  # nothing of size > 1 is reduced
        return a.reshape(shape).copy()
    dims += [(1, a.itemsize, False, 0)] * (2 - len(dims))
    sizes, strides = [d[0] for d in dims], [d[1] for d in dims]
    if a.flags.c_contiguous:  # a cheaper view than as_strided's, over a's own buffer
        view = np.ndarray(sizes, a.dtype, buffer=a, strides=strides)
    else:
        view = np.lib.stride_tricks.as_strided(a, sizes, strides)
    block = _loop2d(view, 32 // a.itemsize, a.itemsize)  # shape: every dim but the first
    # Reduced dims after the first (they come before the kept ones) add into the result one
    # after another, the second dim fastest (the kernel's loop, then the outer loops).
    reduced = sum(d[2] for d in dims[1:])
    if reduced:
        order = list(range(reduced - 1, -1, -1)) + list(range(reduced, block.ndim))
        block = np.transpose(block, order).reshape(-1, *block.shape[reduced:])
        block = _seq(block)
    return _place(block + a.dtype.type(0), dims[1 + reduced :], shape, a.dtype)


def _place(values, kept, shape, dtype):
    """The kept dims' sums at their places in the row-major result (`kept`'s output strides)."""
    out = np.zeros(math.prod(shape), dtype)
    index = np.zeros(values.shape, np.int64)
    for axis, (size, _, _, ostride) in enumerate(kept):
        index += (np.arange(size) * ostride).reshape(
            [-1 if k == axis else 1 for k in range(len(kept))]
        )
    out[index.ravel()] = values.ravel()
    return out.reshape(shape)


def vec_reduce_all(rows: np.ndarray, lanes: int = 8) -> np.ndarray:
    """Each row's sum as ATen's vec::reduce_all adds it (batch norm's backward): shorter than
    a vector, one after another; else vectors added lane by lane, the tail into the first
    lanes, then the lanes halved in a tree (lane i + lane i + lanes/2, ...)."""
    size = rows.shape[1]
    if size < lanes:
        return _seq(rows.T)
    full = size // lanes
    acc = rows[:, :lanes].copy()
    for j in range(1, full):
        acc += rows[:, j * lanes : (j + 1) * lanes]
    tail = size - full * lanes
    acc[:, :tail] += rows[:, full * lanes :]
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    return acc[:, 0]
