"""Ops that move elements without changing them: views, indexing, joining."""

import numpy as np

from .ops import Op


def _size(shape) -> str:
    return f"[{', '.join(map(str, shape))}]"


class View(Op):
    """z = a with a new shape;  dz/da = the gradient reshaped back."""

    _backward_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, a, shape=()):
        ctx.info = np.shape(a)
        try:
            return np.reshape(a, shape)
        except ValueError:
            raise RuntimeError(
                f"shape '{_size(shape)}' is invalid for input of size {np.size(a)}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        return np.reshape(grad, ctx.info)


class Expand(Op):
    """z = a broadcast to a bigger shape;  dz/da = the gradient summed back."""

    _backward_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape=()):
        ctx.info = np.shape(a)
        shape = tuple(n if n != -1 else m for n, m in zip(shape, (1,) * 8 + ctx.info, strict=False))
        return np.broadcast_to(a, shape)

    @staticmethod
    def backward(ctx, grad):
        from .ops import unbroadcast

        return unbroadcast(grad, ctx.info)


class Permute(Op):
    """z = a with its axes reordered;  dz/da = the gradient with the inverse order."""

    _backward_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, dims=()):
        ctx.info = np.argsort(dims)
        return np.transpose(a, dims)

    @staticmethod
    def backward(ctx, grad):
        return np.transpose(grad, ctx.info)


class Transpose(Op):
    """z = a with two axes swapped;  dz/da = the gradient swapped back."""

    _backward_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, a, dim0=0, dim1=1):
        ctx.info = (dim0, dim1)
        return np.swapaxes(a, dim0, dim1)

    @staticmethod
    def backward(ctx, grad):
        return np.swapaxes(grad, *ctx.info)


class T(Transpose):
    """z = a.t() for a matrix;  dz/da = the gradient transposed."""

    _backward_name = "TBackward0"


class Unsqueeze(Op):
    """z = a with a new axis of size 1;  dz/da = the gradient without it."""

    _backward_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.info = dim
        return np.expand_dims(a, dim)

    @staticmethod
    def backward(ctx, grad):
        return np.squeeze(grad, ctx.info)


class Squeeze(Op):
    """z = a without axes of size 1;  dz/da = the gradient reshaped back."""

    _backward_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim=None):
        ctx.info = np.shape(a)
        if dim is None:
            return np.squeeze(a)
        return np.squeeze(a, dim) if np.shape(a)[dim] == 1 else np.asarray(a)

    @staticmethod
    def backward(ctx, grad):
        return np.reshape(grad, ctx.info)


class SqueezeDim(Squeeze):
    """z = a.squeeze(dim);  dz/da = the gradient reshaped back."""

    _backward_name = "SqueezeBackward1"


class Index(Op):
    """z = a[key];  dz/da = zeros with the gradient scattered back at key."""

    _backward_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key=None):
        ctx.info = (np.shape(a), np.result_type(a), key)
        out = np.asarray(a)[key]
        return out if isinstance(out, np.ndarray) else np.asarray(out)

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, key = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad, dtype))
        np.add.at(full, key, grad)
        return full


class Select(Index):
    """z = a[i] along one axis;  dz/da = zeros with the gradient at i."""

    _backward_name = "SelectBackward0"


class Slice(Index):
    """z = a[start:stop:step];  dz/da = zeros with the gradient in the slice."""

    _backward_name = "SliceBackward0"


def index_op(key):
    """The op PyTorch records for `a[key]`: Select for ints, Slice for slices, else Index."""
    parts = key if isinstance(key, tuple) else (key,)
    if any(not isinstance(p, (int, slice, type(None), type(Ellipsis))) for p in parts):
        return Index
    return Select if any(isinstance(p, int) for p in parts) else Slice


class Cat(Op):
    """z = the inputs joined along dim;  each input's gradient is its slice of dz."""

    _backward_name = "CatBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim=0):
        ctx.info = (dim, [np.shape(a)[dim] for a in arrays])
        return np.concatenate(arrays, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        dim, sizes = ctx.info
        return tuple(np.split(grad, np.cumsum(sizes)[:-1], axis=dim))


class Stack(Op):
    """z = the inputs stacked on a new axis;  each input's gradient is its slice of dz."""

    _backward_name = "StackBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim=0):
        ctx.info = dim
        return np.stack(arrays, axis=dim)

    @staticmethod
    def backward(ctx, grad):
        dim = ctx.info
        return tuple(np.moveaxis(grad, dim, 0))
