"""Ops that move elements without changing them: views and reshapes, transposes and
permutes, (un)squeeze, expand, cat and stack, repeat, flip."""

import itertools
import math

import numpy as np

from ..dtypes import TYPE_NAMES, default_float, to_numpy_dtype
from ..higher import rule, sum_to
from ..tensor import Tensor, make
from .arguments import row_major
from .base import Op, dim_arg, into, result, shape_arg, to_tensor, unbroadcast, wrap_dim


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
    others = [n for n in shape if n != -1]
    if -1 in shape and not np.size(a) and not np.prod(others, dtype=np.int64):
        raise RuntimeError(
            f"cannot reshape tensor of 0 elements into shape {_size(shape)} because the "
            "unspecified dimension size -1 can be any value and is ambiguous"
        )
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
        return np.swapaxes(a, dim0, dim1) if np.ndim(a) else np.asarray(a)

    @staticmethod
    def backward(ctx, grad):
        return np.swapaxes(grad, *ctx.info) if np.ndim(grad) else grad


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
        if isinstance(dim, tuple):  # squeeze((0, 2)): the named dims of size 1
            return np.squeeze(a, tuple(d for d in dim if np.shape(a)[d] == 1))
        if not np.ndim(a):
            return np.asarray(a)
        return np.squeeze(a, dim) if np.shape(a)[dim] == 1 else np.asarray(a)

    @staticmethod
    def backward(ctx, grad):
        return np.reshape(grad, ctx.info)


class SqueezeDims(Squeeze):
    """z = a.squeeze((d0, d1, ...));  dz/da = the gradient reshaped back."""

    _backward_name = "SqueezeBackward2"


class SqueezeDim(Squeeze):
    """z = a.squeeze(dim);  dz/da = the gradient reshaped back."""

    _backward_name = "SqueezeBackward1"


class Cat(Op):
    """z = the inputs joined along dim;  each input's gradient is its slice of dz."""

    _backward_name = "CatBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim=0):
        if not arrays:
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        for i, a in enumerate(arrays):
            if not np.ndim(a):
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {i}) cannot be concatenated"
                )
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
        ctx.info = (dim, [np.shape(a)[dim] for a in arrays], [np.result_type(a) for a in arrays])
        joined = np.concatenate(arrays, axis=dim)
        return np.asarray(result(joined, *arrays), order="C")  # torch's promotion: int + float32

    @staticmethod
    def backward(ctx, grad):
        dim, sizes, kinds = ctx.info
        parts = np.split(grad, np.cumsum(sizes)[:-1], axis=dim)
        return _in_kinds(parts, kinds)


def _in_kinds(parts, kinds) -> tuple:
    """Each input's gradient in its own float dtype (the result may be a wider one)."""
    return tuple(
        p.astype(k, copy=False) if k.kind == "f" else p for p, k in zip(parts, kinds, strict=True)
    )


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
        ctx.info = (dim, [np.result_type(a) for a in arrays])
        return np.asarray(result(np.stack(arrays, axis=dim), *arrays), order="C")

    @staticmethod
    def backward(ctx, grad):
        dim, kinds = ctx.info
        parts = np.moveaxis(grad, dim, 0)
        return _in_kinds(parts, kinds)


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


class Roll(Op):
    """z = a's elements shifted along dims, wrapping round;  dz/da = the gradient shifted back."""

    _backward_name = "RollBackward0"

    @staticmethod
    def forward(ctx, a, shifts=(), dims=None):
        ctx.info = (shifts, dims)
        return np.roll(a, shifts, dims)

    @staticmethod
    def backward(ctx, grad):
        shifts, dims = ctx.info
        back = tuple(-k for k in shifts) if isinstance(shifts, tuple) else -shifts
        return np.roll(grad, back, dims)


class Rot90(Op):
    """z = a turned k quarter turns in the plane of dims;  dz/da = the gradient turned back."""

    _backward_name = "Rot90Backward0"

    @staticmethod
    def forward(ctx, a, k=1, dims=(0, 1)):
        ctx.info = (k, dims)
        return np.rot90(a, k, dims).copy()

    @staticmethod
    def backward(ctx, grad):
        k, dims = ctx.info
        return np.rot90(grad, -k, dims).copy()


class Diagonal(Op):
    """z = a's diagonal (offset, over dim1 and dim2);  dz/da = zeros with the gradient on it."""

    _backward_name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, a, offset=0, dim1=0, dim2=1):
        ctx.info = (np.shape(a), offset, dim1, dim2)
        view = np.diagonal(a, offset, dim1, dim2)
        if getattr(a, "flags", None) is not None and a.flags.writeable:
            view.setflags(write=True)  # a view torch lets you write through: w.diagonal().zero_()
        return view

    @staticmethod
    def backward(ctx, grad):
        shape, offset, dim1, dim2 = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        view = np.diagonal(full, offset, dim1, dim2)
        view.setflags(write=True)  # a view of `full`, which is ours to write
        view[...] = grad
        return full


class DiagEmbed(Op):
    """z = the matrix with vector a on its (offset) diagonal;  dz/da = the gradient's diagonal."""

    _backward_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, a, offset=0):
        ctx.info = offset
        return np.diag(a, offset)

    @staticmethod
    def backward(ctx, grad):
        return np.diagonal(grad, ctx.info).copy()


class Tril(Op):
    """z = a's lower triangle (below diagonal k), zeros above;  dz/da = the gradient's."""

    _backward_name = "TrilBackward0"

    @staticmethod
    def forward(ctx, a, diagonal=0):
        ctx.info = diagonal
        return np.tril(a, diagonal)

    @staticmethod
    def backward(ctx, grad):
        return np.tril(grad, ctx.info)


class Triu(Tril):
    """z = a's upper triangle (above diagonal k), zeros below;  dz/da = the gradient's."""

    _backward_name = "TriuBackward0"

    @staticmethod
    def forward(ctx, a, diagonal=0):
        ctx.info = diagonal
        return np.triu(a, diagonal)

    @staticmethod
    def backward(ctx, grad):
        return np.triu(grad, ctx.info)


# -- the functions ---------------------------------------------------------------------------


def reshape(input, *shape):
    """A view when the memory layout allows one, else a copy, named as PyTorch names each."""
    shape = shape_arg(shape)
    op = reshape_op(input._data, shape)
    if op is None:  # PyTorch copies to row-major order first: CloneBackward0, then the view
        return UnsafeView.apply(Contiguous.apply(input), shape=shape)
    return op.apply(input, shape=shape)


def view(a, *shape, dtype=None):
    """Always a view: PyTorch's error when the memory layout does not allow one. Given a
    dtype, the same memory read as that dtype (no gradient flows through it)."""
    if (
        dtype is None
        and len(shape) == 1
        and hasattr(shape[0], "numpy")
        and not hasattr(shape[0], "_data")
    ):
        dtype = shape[0]  # x.view(torch.int32)
    if dtype is not None:
        return _view_as_dtype(a, np.dtype(dtype.numpy))
    shape = shape_arg(shape)
    return reshape_op(a._data, shape, view=True).apply(a, shape=shape)


def _view_as_dtype(a, want):
    data = a._data if isinstance(a._data, np.ndarray) else np.asarray(a._data)
    have = data.dtype
    if want == have:
        return a.detach() if a.requires_grad else a
    if want.itemsize != have.itemsize:
        words = f"view {_C10[have.name]} as {_C10[want.name]} (different element sizes)"
        if data.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 to {words}")
        step = data.strides[-1] // have.itemsize
        if step != 1 and data.shape[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 to {words}, but got {step}")
        ratio = max(want.itemsize, have.itemsize) // min(want.itemsize, have.itemsize)
        if want.itemsize > have.itemsize and data.shape[-1] % ratio:
            raise RuntimeError(
                f"self.size(-1) must be divisible by {ratio} to {words}, but got {data.shape[-1]}"
            )
    return make(data.view(want))


_C10 = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
        "int16": "Short", "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool",
        "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}  # fmt: skip


def contiguous(a, memory_format=None):
    row_major(memory_format)  # refuses the layouts autoviz has not
    return a if is_contiguous(a._data) else Contiguous.apply(a)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge the axes start_dim..end_dim into one; nothing is recorded when none merge."""
    n = input.ndim
    if n == 0:
        return reshape(input, 1)
    start, end = wrap_dim(start_dim, n), wrap_dim(end_dim, n)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = tuple(input.shape)
    return reshape(input, (*shape[:start], -1, *shape[end + 1 :]))


def transpose(input, dim0, dim1):
    n = input.ndim
    return Transpose.apply(input, dim0=wrap_dim(dim0, n), dim1=wrap_dim(dim1, n))


def t(input):
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return T.apply(input, dim0=0, dim1=input.ndim - 1 if input.ndim else 0)


def mT(a, name="mT"):
    if a.ndim < 2:
        raise RuntimeError(
            f"tensor.{name} is only supported on matrices or batches of matrices. "
            f"Got {a.ndim}-D tensor."
        )
    return Transpose.apply(a, dim0=-2, dim1=-1)


def mH(a):
    """The conjugate transpose of each matrix: mT, as autoviz's tensors are real."""
    return mT(a, "mH")


def H(a):
    """A matrix's conjugate transpose (a 0-d tensor is its own)."""
    if a.ndim not in (0, 2):
        batches = " For batches of matrices, consider using tensor.mH" if a.ndim > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {a.ndim}-D tensor."
            + batches
        )
    return Transpose.apply(a, dim0=0, dim1=1) if a.ndim else a


def permute(input, *dims):
    dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    if len(dims) != input.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{input.ndim} is not equal to len(dims) = {len(dims)}"
        )
    dims = tuple(wrap_dim(d, input.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(input, dims=dims)


def unsqueeze(input, dim):
    return Unsqueeze.apply(input, dim=wrap_dim(dim, input.ndim + 1))


def squeeze(input, dim=None):
    if dim is None:
        return Squeeze.apply(input, dim=None)
    if isinstance(dim, (tuple, list)):
        dims = tuple(sorted({wrap_dim(d, input.ndim) for d in dim}))
        return SqueezeDims.apply(input, dim=dims if input.ndim else ())
    return SqueezeDim.apply(input, dim=wrap_dim(dim, input.ndim))


def _tensor_list(function: str, tensors) -> list:
    """cat's and stack's sequence of tensors, refused with torch's TypeErrors otherwise."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{function}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{type(tensors).__name__}"
        )
    for k, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {k} in argument 0, but got {type(t).__name__}"
            )
    return tensors


def cat(tensors, dim=0, *, out=None, axis=None):
    result = Cat.apply(*_tensor_list("cat", tensors), dim=dim_arg(dim, axis))
    return result if out is None else into(out, result, "cat")


concat = concatenate = cat


def stack(tensors, dim=0, *, out=None, axis=None):
    result = Stack.apply(*_tensor_list("stack", tensors), dim=dim_arg(dim, axis))
    return result if out is None else into(out, result, "stack")


def expand(a, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return Expand.apply(a, shape=tuple(shape))


def flip(input, dims):
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    dims = tuple(wrap_dim(d, input.ndim) for d in dims)
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return Flip.apply(input, dims=dims)


def repeat(input, *sizes):
    """The tensor tiled `sizes` times along each axis."""
    sizes = shape_arg(sizes)
    if len(sizes) < input.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
            "tensor"
        )
    return Repeat.apply(input, sizes=tuple(sizes))


def flip_method(self, *dims_, dims=None):
    """`x.flip(0, 1)` as well as `x.flip((0, 1))` and `x.flip(dims=(0, 1))`."""
    return flip(self, dims if dims is not None else shape_arg(dims_))


def expand_as(self, other):
    return expand(self, other.shape)


def view_as(self, other):
    return view(self, other.shape)


def reshape_as(self, other):
    return reshape(self, other.shape)


def is_contiguous_tensor(self, memory_format=None) -> bool:
    return is_contiguous(self._data)


def roll(input, shifts, dims=None):
    """Elements shifted along dims, wrapping round; without dims, over the flattened tensor."""
    if isinstance(shifts, (tuple, list)) and not shifts:
        raise RuntimeError("`shifts` required")
    if not input.ndim and dims is not None:
        raise IndexError(f"Dimension specified as {dims} but tensor has no dimensions")
    if dims is None:
        if isinstance(shifts, (tuple, list)):
            shifts = shifts[0]
        return Roll.apply(input, shifts=int(shifts), dims=None)  # numpy rolls the flat order
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (int(shifts),)
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (int(dims),)
    if len(shifts) != len(dims):
        raise RuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    return Roll.apply(input, shifts=shifts, dims=tuple(wrap_dim(d, input.ndim) for d in dims))


def rot90(input, k=1, dims=(0, 1)):
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    dims = tuple(wrap_dim(d, input.ndim) for d in dims)
    if dims[0] == dims[1]:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}"
        )
    return Rot90.apply(input, k=int(k) % 4, dims=dims)


def fliplr(input):
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input):
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def tile(input, dims):
    """repeat with dims padded by leading 1s to the tensor's rank."""
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    return repeat(input, *((1,) * (input.ndim - len(dims)) + dims))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along dim) repeated `repeats` times in a row."""
    from .indexing import index_select

    if repeats is None:  # repeat_interleave(counts): each index i, counts[i] times
        counts = np.asarray(input._data)
        return make(np.repeat(np.arange(counts.size), counts).astype(np.int64))
    if dim is None:
        input, dim = flatten(input), 0
    dim = wrap_dim(dim, input.ndim)
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        picks = np.repeat(np.arange(input.shape[dim]), np.asarray(repeats._data))
        return index_select(input, dim, make(picks.astype(np.int64)))
    n = int(repeats.item() if isinstance(repeats, Tensor) else repeats)
    shape = tuple(input.shape)
    wide = expand(unsqueeze(input, dim + 1), *shape[: dim + 1], n, *shape[dim + 1 :])
    return view(contiguous(wide), *shape[:dim], shape[dim] * n, *shape[dim + 1 :])


def diag(input, diagonal=0):
    """A vector's diagonal matrix, or a matrix's diagonal as a vector."""
    if input.ndim == 1:
        return DiagEmbed.apply(input, offset=diagonal)
    if input.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.ndim}D")
    return contiguous(Diagonal.apply(input, offset=diagonal, dim1=0, dim2=1))


def diagonal(input, offset=0, dim1=0, dim2=1):
    n = input.ndim
    if wrap_dim(dim1, n) == wrap_dim(dim2, n):
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, offset=offset, dim1=wrap_dim(dim1, n), dim2=wrap_dim(dim2, n))


def tril(input, diagonal=0, *, out=None):
    if input.ndim < 2:
        raise RuntimeError("tril: input tensor must have at least 2 dimensions")
    result = Tril.apply(input, diagonal=diagonal)
    return result if out is None else into(out, result, "tril")


def triu(input, diagonal=0, *, out=None):
    if input.ndim < 2:
        raise RuntimeError("triu: input tensor must have at least 2 dimensions")
    result = Triu.apply(input, diagonal=diagonal)
    return result if out is None else into(out, result, "triu")


def movedim(input, source, destination):
    """The dims `source` moved to `destination`, the others keeping their order: a permute."""
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    n = input.ndim
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
            f"contain the same number of dims as destination ({list(dst)} dims)"
        )
    given = (list(src), list(dst))
    src, dst = [wrap_dim(d, n) for d in src], [wrap_dim(d, n) for d in dst]
    for name, dims, raw in (("source", src, given[0]), ("destination", dst, given[1])):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({raw})")
    order = [d for d in range(n) if d not in src]
    for to, frm in sorted(zip(dst, src, strict=True)):
        order.insert(to, frm)
    return permute(input, tuple(order))


moveaxis = movedim


def swapaxes(input, axis0, axis1):
    return transpose(input, axis0, axis1)


swapdims = swapaxes


def ravel(input):
    return reshape(input, -1)


def unflatten(input, dim, sizes):
    dim = wrap_dim(dim, input.ndim)
    shape = tuple(input.shape)
    known = math.prod(n for n in sizes if n != -1)
    if (-1 not in sizes and known != shape[dim]) or (known and shape[dim] % known):
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
            f"({shape[dim]}) in the input tensor"
        )
    return (
        view(input, *shape[:dim], *sizes, *shape[dim + 1 :])
        if is_contiguous(input._data)
        else reshape(input, (*shape[:dim], *sizes, *shape[dim + 1 :]))
    )


def _atleast(rank, tensors):
    def one(t):
        t = to_tensor(t)
        if rank == 3 and t.ndim == 1:  # a vector becomes (1, n, 1), as in numpy
            return unsqueeze(unsqueeze(t, 0), 2)
        while t.ndim < rank:
            t = unsqueeze(t, 0 if t.ndim == 0 or rank < 3 else t.ndim)
        return t

    items = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    out = tuple(one(t) for t in items)
    return out[0] if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)) else out


def atleast_1d(*tensors):
    return _atleast(1, tensors)


def atleast_2d(*tensors):
    return _atleast(2, tensors)


def atleast_3d(*tensors):
    return _atleast(3, tensors)


def broadcast_shapes(*shapes):
    from ..tensor import Size

    try:
        return Size(
            np.broadcast_shapes(*[tuple(s) if not isinstance(s, int) else (s,) for s in shapes])
        )
    except ValueError:
        raise RuntimeError(
            "Shape mismatch: objects cannot be broadcast to a single shape"
        ) from None


def broadcast_to(input, size):
    return expand(input, tuple(size))


def broadcast_tensors(*tensors):
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(expand(t, tuple(shape)) for t in tensors)


def _nonempty(name: str, tensors) -> None:
    if not len(tensors):
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def hstack(tensors, *, out=None):
    _nonempty("hstack", tensors)
    items = _atleast(1, (list(tensors),))
    return cat(items, dim=0 if items[0].ndim == 1 else 1, out=out)


def vstack(tensors, *, out=None):
    _nonempty("vstack", tensors)
    return cat(_atleast(2, (list(tensors),)), dim=0, out=out)


row_stack = vstack


def dstack(tensors, *, out=None):
    _nonempty("dstack", tensors)
    return cat(_atleast(3, (list(tensors),)), dim=2, out=out)


def column_stack(tensors, *, out=None):
    items = [reshape(t, (-1, 1)) if t.ndim <= 1 else t for t in map(to_tensor, tensors)]
    return cat(items, dim=1, out=out)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids: each 1-D tensor expanded over the others' lengths ("ij" by default)."""
    items = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    if indexing is None:
        import warnings

        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    items = list(items)
    swap = indexing == "xy" and len(items) >= 2
    if swap:
        items[0], items[1] = items[1], items[0]
    shape = tuple(t.numel() for t in items)
    grids = []
    for i, t in enumerate(items):
        view_shape = [1] * len(items)
        view_shape[i] = -1
        grids.append(expand(reshape(t, tuple(view_shape)), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def ndimension(self) -> int:
    return self.ndim


def block_diag(*tensors):
    """The matrices on the diagonal of one bigger matrix, zeros elsewhere."""
    mats = [reshape(t, (1, -1)) if t.ndim <= 1 else t for t in map(to_tensor, tensors)]
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    pieces, col = [], 0
    for m in mats:
        left = make(np.zeros((m.shape[0], col), m._data.dtype))
        right = make(np.zeros((m.shape[0], cols - col - m.shape[1]), m._data.dtype))
        pieces.append(cat([left, m, right], dim=1))
        col += m.shape[1]
    return cat(pieces, dim=0) if rows else make(np.zeros((0, cols), default_float()))


def cartesian_prod(*tensors):
    grids = meshgrid(*tensors, indexing="ij")
    if len(grids) == 1:
        return grids[0]
    return stack([reshape(g, (-1,)) for g in grids], dim=1)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Each last-dim vector of input on the diagonal of a matrix."""
    from . import arithmetic

    n = input.shape[-1] + abs(offset)
    zeros = make(np.zeros((*input.shape[:-1], abs(offset)), input._data.dtype))
    padded = cat([input, zeros], -1)  # out[r, r + k] = v[r] above the diagonal, v[c] below
    on_diagonal = make(np.eye(n, k=offset, dtype=bool))
    # False: a zero of input's own dtype (bool, integer or float) under PyTorch's promotion
    full = arithmetic.where(on_diagonal, unsqueeze(padded, -1 if offset >= 0 else -2), False)
    if wrap_dim(dim1, full.ndim) == wrap_dim(dim2, full.ndim):
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return full if (dim1, dim2) == (-2, -1) else movedim(full, (-2, -1), (dim1, dim2))


def diagflat(input, offset=0):
    return diag(reshape(input, (-1,)), offset)


def _triangle_indices(row, col, offset, upper, dtype):
    kind = np.int64 if dtype is None else to_numpy_dtype(dtype)
    if np.dtype(kind).kind not in "iu":
        name = TYPE_NAMES.get(np.dtype(kind).name, np.dtype(kind).name)
        which = "triu" if upper else "tril"
        raise NotImplementedError(f"\"{which}_indices\" not implemented for '{name}'")
    r, c = np.triu_indices(row, offset, col) if upper else np.tril_indices(row, offset, col)
    return make(np.stack([r, c]).astype(kind))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return _triangle_indices(row, col, offset, False, dtype)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return _triangle_indices(row, col, offset, True, dtype)


def unravel_index(indices, shape):
    parts = np.unravel_index(np.asarray(getattr(indices, "_data", indices)), tuple(shape))
    return tuple(make(np.asarray(p, np.int64)) for p in parts)


def combinations(input, r=2, with_replacement=False):
    import itertools as _it

    pick = _it.combinations_with_replacement if with_replacement else _it.combinations
    rows = list(pick(range(input.shape[0]), r))
    if not rows:
        return make(np.zeros((0, r), input._data.dtype))
    from .indexing import index_select

    columns = [index_select(input, 0, make(np.array([row[i] for row in rows]))) for i in range(r)]
    return stack(columns, dim=1)


def sum_to_size(self, *size):
    shape = tuple(shape_arg(size))
    have = tuple(self.shape)
    fits = len(shape) <= len(have) and all(
        n in (1, m) for n, m in zip(reversed(shape), reversed(have), strict=False)
    )
    if not fits:
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(have)}}}.")
    if have == shape:  # PyTorch hands back the tensor itself, but a 0-d one's sum
        return self if shape else self.sum()
    return reshape(sum_to(self, shape), shape)


def zero_(input):
    """torch.zero_(x): x.zero_()."""
    return input.zero_()


def resize_as_(input, the_template, *, memory_format=None):
    """torch.resize_as_(x, t): x.resize_as_(t)."""
    return input.resize_as_(the_template, memory_format=memory_format)


class Unfold(Op):
    """z[..., k, ..., i] = a[..., k·step + i, ...]: the windows of `size` elements every
    `step` along dim, as a new last dim;  dz/da = each window's gradient added back at its
    place (windows that overlap add up)."""

    _backward_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx, a, dim=0, size=1, step=1):
        count = (np.shape(a)[dim] - size) // step + 1
        ctx.info = (np.shape(a), dim, size, step, count)
        # a view of a, as torch's; writable where no two windows share an element
        windows = np.lib.stride_tricks.sliding_window_view(
            np.asarray(a), size, axis=dim, writeable=step >= size and np.asarray(a).flags.writeable
        )
        return windows[(slice(None),) * dim + (slice(0, count * step, step),)]

    @staticmethod
    def backward(ctx, grad):
        shape, dim, size, step, count = ctx.info
        full = np.zeros(shape, dtype=np.result_type(grad))
        before = (slice(None),) * dim
        for i in range(size):  # offset i of every window at once
            full[(*before, slice(i, i + step * (count - 1) + 1, step))] += grad[..., i]
        return full


def unfold_method(self, dimension, size, step):
    """The windows of `size` elements every `step` along dimension, as a new last dim."""
    if not self.ndim:  # a 0-d tensor's one window, as torch gives it: shape [size]
        from .indexing import index_select

        return index_select(reshape(self, (1,)), 0, make(np.zeros(size, np.int64)))
    d = wrap_dim(dimension, self.ndim)
    if size > self.shape[d]:
        raise RuntimeError(
            f"maximum size for tensor at dimension {d} is {self.shape[d]} but size is {size}"
        )
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(self, dim=d, size=size, step=step)


@rule(Unfold)
def _unfold(node, g):
    shape, dim, size, step, count = node.info
    from .indexing import index_add

    positions = np.array([k * step + i for k in range(count) for i in range(size)], np.int64)
    moved = movedim(g, -1, dim + 1)
    flat = reshape(moved, (*shape[:dim], count * size, *shape[dim + 1 :]))
    return index_add(make(np.zeros(shape, np.result_type(g._data))), dim, make(positions), flat)


# -- recorded gradients (create_graph=True) --------------------------------------------------


@rule(View)
def _view(node, g):
    return reshape(g, node.info)


@rule(Squeeze)
def _squeeze(node, g):
    return reshape(g, node.info)


@rule(Unsqueeze)
def _unsqueeze(node, g):
    return squeeze(g, node.info)


@rule(Expand)
def _expand(node, g):
    return sum_to(g, node.info)


@rule(Transpose)
def _transpose(node, g):
    return transpose(g, *node.info)


@rule(Permute)
def _permute(node, g):
    return permute(g, tuple(int(d) for d in node.info))


@rule(Cat)
def _cat(node, g):
    dim, sizes, _ = node.info
    bounds = np.cumsum([0, *sizes])
    return tuple(
        indexing.Slice.apply(g, key=(slice(None),) * dim + (slice(int(lo), int(hi)),))
        for lo, hi in itertools.pairwise(bounds)
    )


@rule(Stack)
def _stack(node, g):
    return indexing.unbind(g, node.info[0])


@rule(Repeat)
def _repeat(node, g):
    original, shape, sizes = node.info
    split = [n for pair in zip(sizes, shape, strict=True) for n in pair]
    return reshape(g.sum(reshape(g, split), dim=tuple(range(0, len(split), 2))), original)


@rule(Contiguous, Alias)
def _identity(node, g):
    return g


from . import indexing  # noqa: E402  (indexing builds on these views; the rules above use its ops)
