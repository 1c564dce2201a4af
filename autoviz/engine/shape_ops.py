"""Ops that move elements without changing them: views, indexing, joining."""

import numpy as np

from .dtypes import TYPE_NAMES
from .ops import Op


def _size(shape) -> str:
    return f"[{', '.join(map(str, shape))}]"


def wrap_dim(dim: int, ndim: int) -> int:
    """`dim` counted from 0, or PyTorch's IndexError (a 0-d tensor takes dims -1 and 0)."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


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


class ReshapeAlias(View):
    """z = a.reshape(shape) of a non-contiguous tensor that can still be viewed that way."""

    _backward_name = "ReshapeAliasBackward0"


class UnsafeView(View):
    """z = a.reshape(shape) after the copy reshape had to make (PyTorch's `_unsafe_view`)."""

    _backward_name = "UnsafeViewBackward0"


class Contiguous(Op):
    """z = a copied into row-major order, as `contiguous()` and `reshape` do;  dz/da = 1."""

    _backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.asarray(a, order="C")  # a copy only if `a` is not row-major already

    @staticmethod
    def backward(ctx, grad):
        return grad


class Alias(Op):
    """z = a itself, as `a[...]` or `a[:, :]` gives it;  dz/da = 1."""

    _backward_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.asarray(a)[...]

    @staticmethod
    def backward(ctx, grad):
        return grad


VIEW_MESSAGE = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead."
)


def _viewable(a, shape) -> bool:
    """Whether `a` can take `shape` without a copy; PyTorch's error if `shape` does not fit."""
    if list(shape).count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    try:
        try:
            np.reshape(a, shape, copy=False)
        except TypeError:  # numpy < 2.1: no `copy` argument
            view = np.asarray(a).view()
            view.shape = shape
        return True
    except (ValueError, AttributeError):
        try:
            np.reshape(a, shape)
        except ValueError:
            raise RuntimeError(
                f"shape '{_size(shape)}' is invalid for input of size {np.size(a)}"
            ) from None
        return False


def is_contiguous(a) -> bool:
    """Row-major with no gaps, as PyTorch's `is_contiguous()` (numpy's strides match torch's)."""
    return np.asarray(a).flags.c_contiguous


def reshape_op(a, shape, view=False):
    """The op PyTorch records for `a.reshape(shape)` or `a.view(shape)`, from a's layout.

    None means a copy is needed first (reshape clones, then records an UnsafeView).
    """
    if _viewable(a, shape):
        return View if view or is_contiguous(a) else ReshapeAlias
    if view:
        raise RuntimeError(VIEW_MESSAGE)
    return None


def _tensor_type(a) -> str:
    """PyTorch's legacy type name, such as `FloatTensor`."""
    word = TYPE_NAMES.get(np.result_type(a).name)
    return f"{word}Tensor" if word else "Tensor"


class Expand(Op):
    """z = a broadcast to a bigger shape;  dz/da = the gradient summed back."""

    _backward_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape=()):
        ctx.info = have = np.shape(a)
        lead = len(shape) - len(have)
        if lead < 0:
            raise RuntimeError(
                f"expand(torch.{_tensor_type(a)}"
                f"{{{_size(have)}}}, size={_size(shape)}): the number of "
                f"sizes provided ({len(shape)}) must be greater or equal to the number of "
                f"dimensions in the tensor ({len(have)})"
            )
        for i, n in enumerate(shape):
            m = have[i - lead] if i >= lead else None
            if n == -1 and m is None:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            if n != -1 and m is not None and m != 1 and m != n:
                raise RuntimeError(
                    f"The expanded size of the tensor ({n}) must match the existing size ({m}) "
                    f"at non-singleton dimension {i}.  Target sizes: {_size(shape)}.  "
                    f"Tensor sizes: {_size(have)}"
                )
        return np.broadcast_to(
            a, tuple(have[i - lead] if n == -1 else n for i, n in enumerate(shape))
        )

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
        return np.asarray(a)[key]  # a basic index: a view, strides and all

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, key = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad, dtype))
        full[key] = grad  # a basic index touches each element once: no need for np.add.at
        return full


class Slice(Select):
    """z = a[start:stop:step];  dz/da = zeros with the gradient in the slice."""

    _backward_name = "SliceBackward0"


class Unbind(Select):
    """One of the slices `a.unbind(dim)` (and iterating over a) gives.

    PyTorch records one UnbindBackward0 node with an output per slice; here each slice has
    its own node of that name, so the printed tensors are the same and the graph has a node
    per slice.
    """

    _backward_name = "UnbindBackward0"


class CopySlices(Op):
    """a[key] = v recorded:  dz/da = the gradient with zeros at key, dz/dv = its part at key."""

    _backward_name = "CopySlices"

    @staticmethod
    def forward(ctx, a, v, key=None):
        ctx.info = (key, np.shape(v))
        out = np.array(a, copy=True)
        out[key] = v
        return out

    @staticmethod
    def backward(ctx, grad):
        from .ops import unbroadcast

        key, v_shape = ctx.info
        ga = np.array(grad, copy=True)
        ga[key] = 0
        gv = np.asarray(grad[key])
        if gv.ndim < len(v_shape):  # v had leading 1s that the assignment dropped
            gv = gv.reshape((1,) * (len(v_shape) - gv.ndim) + gv.shape)
        return ga, unbroadcast(gv, v_shape)


class Cat(Op):
    """z = the inputs joined along dim;  each input's gradient is its slice of dz."""

    _backward_name = "CatBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim=0):
        if not arrays:
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        first = np.shape(arrays[0])
        dim = wrap_dim(dim, len(first))
        for i, a in enumerate(arrays[1:], 1):
            shape = np.shape(a)
            if len(shape) != len(first):
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {len(first)} and "
                    f"{len(shape)}"
                )
            for d, (m, n) in enumerate(zip(first, shape, strict=True)):
                if d != dim and m != n:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {dim}. Expected size "
                        f"{m} but got size {n} for tensor number {i} in the list."
                    )
        ctx.info = (dim, [np.shape(a)[dim] for a in arrays])
        return np.asarray(np.concatenate(arrays, axis=dim), order="C")

    @staticmethod
    def backward(ctx, grad):
        dim, sizes = ctx.info
        return tuple(np.split(grad, np.cumsum(sizes)[:-1], axis=dim))


class Stack(Op):
    """z = the inputs stacked on a new axis;  each input's gradient is its slice of dz."""

    _backward_name = "StackBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim=0):
        if not arrays:
            raise RuntimeError("stack expects a non-empty TensorList")
        first = np.shape(arrays[0])
        for i, a in enumerate(arrays[1:], 1):
            if np.shape(a) != first:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {_size(first)} at "
                    f"entry 0 and {_size(np.shape(a))} at entry {i}"
                )
        dim = wrap_dim(dim, len(first) + 1)
        ctx.info = dim
        return np.asarray(np.stack(arrays, axis=dim), order="C")

    @staticmethod
    def backward(ctx, grad):
        dim = ctx.info
        return tuple(np.moveaxis(grad, dim, 0))


class MaskedFill(Op):
    """z = value where mask, else a;  dz/da = 1 where the mask is False, else 0."""

    _backward_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, a, cond=None, value=0):
        ctx.info = (cond, np.shape(a))
        return np.asarray(np.where(cond, np.asarray(value, np.result_type(a)), a), order="C")

    @staticmethod
    def backward(ctx, grad):
        from .ops import unbroadcast

        cond, shape = ctx.info
        return unbroadcast(np.where(cond, np.zeros((), np.result_type(grad)), grad), shape)


class Repeat(Op):
    """z = a tiled `sizes` times;  dz/da = the sum of the gradient over the copies."""

    _backward_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, a, sizes=()):
        lead = len(sizes) - np.ndim(a)
        shape = (1,) * lead + np.shape(a)
        ctx.info = (np.shape(a), shape, sizes)
        return np.tile(np.reshape(a, shape), sizes)

    @staticmethod
    def backward(ctx, grad):
        original, shape, sizes = ctx.info
        # Split every axis into (copies, size) and sum over the copies.
        split = [n for pair in zip(sizes, shape, strict=True) for n in pair]
        total = np.sum(np.reshape(grad, split), axis=tuple(range(0, len(split), 2)))
        return np.reshape(total, original)


class Flip(Op):
    """z = a reversed along dims;  dz/da = the gradient reversed back."""

    _backward_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, a, dims=()):
        ctx.info = dims
        return np.flip(a, dims).copy()

    @staticmethod
    def backward(ctx, grad):
        return np.flip(grad, ctx.info).copy()
