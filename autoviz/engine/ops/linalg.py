"""Matrix products: one backward rule, named as PyTorch names each case."""

import numpy as np

from ..higher import inp, rule, sum_to
from . import pointwise, shape
from .base import Op, into, result, unbroadcast


def _shape_text(shape) -> str:
    return "x".join(map(str, shape))


def _batch_broadcast(sa, sb) -> tuple:
    """The broadcast batch shape, or PyTorch's error when the batch sizes differ."""
    out = []
    for i in range(1, max(len(sa), len(sb)) + 1):
        m = sa[-i] if i <= len(sa) else 1
        n = sb[-i] if i <= len(sb) else 1
        if m != n and m != 1 and n != 1:
            dim = max(len(sa), len(sb)) - i
            raise RuntimeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                f"non-singleton dimension {dim}"
            )
        out.append(max(m, n) if m != 0 and n != 0 else 0)
    return tuple(reversed(out))


def _fold(a, b, a_grad, b_grad):
    """Where PyTorch folds batch dims into one mm or mv (its `should_fold`): "a", "b" or None.

    "b" means b (3-D or more) is transposed and folded, a being a vector or a matrix.
    """
    da, db = np.ndim(a), np.ndim(b)
    if da >= 3 and db <= 2:
        big, side, small_grad = np.asarray(a), "a", b_grad
    elif db >= 3 and da <= 2:
        big, side, small_grad = np.swapaxes(b, -1, -2), "b", a_grad
    else:
        return None
    if small_grad:
        return side
    if side == "b" and da == 2:
        return None
    shape, strides = big.shape, big.strides
    if all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2)):
        return side
    return None


def check_matmul(a, b, a_grad=False, b_grad=False) -> None:
    """PyTorch's error when `a @ b` cannot be done, from the kernel it would have used."""
    sa, sb = np.shape(a), np.shape(b)
    if not sa or not sb:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {len(sa)}D "
            f"and {len(sb)}D"
        )
    m = sa[-1]
    k = sb[0] if len(sb) == 1 else sb[-2]
    fold = _fold(a, b, a_grad, b_grad)
    if len(sa) <= 2 and len(sb) <= 2:
        if m == k:
            return _check_dtypes(a, b, fold)
        if len(sa) == 1 and len(sb) == 1:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{m}] and src [{k}] to have the same "
                f"number of elements, but got {m} and {k} elements respectively"
            )
        rows = (1, m) if len(sa) == 1 else sa
        if len(sb) == 1:
            raise RuntimeError(
                f"size mismatch, got input ({sa[0]}), mat ({_shape_text(sa)}), vec ({k})"
            )
        _mm_error(rows, sb)
    elif fold is not None:
        if m == k:
            return _check_dtypes(a, b, fold)
        if fold == "a":
            rows = (int(np.prod(sa[:-1])), m)
            other = sb
        else:
            rows = (int(np.prod(sb[:-2])) * sb[-1], k)
            other = sa[::-1]
        if len(other) == 1:
            raise RuntimeError(
                f"size mismatch, got input ({rows[0]}), mat ({_shape_text(rows)}), vec ({other[0]})"
            )
        _mm_error(rows, other)
    else:
        batch = _batch_broadcast(sa[:-2], sb[:-2])
        if m != k:
            n = int(np.prod(batch))
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {m}] "
                f"but got: [{n}, {k}]."
            )
        _check_dtypes(a, b, fold)


_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int32": "Int"}
_NAMES.update({"int64": "Long", "uint8": "Byte", "bool": "Bool"})
_C_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int32": "int"}
_C_NAMES.update({"int64": "long int", "uint8": "unsigned char", "bool": "bool"})


def _check_dtypes(a, b, fold) -> None:
    """PyTorch's error when the two sides differ in dtype, from the kernel it would have used."""
    ta, tb = np.result_type(a).name, np.result_type(b).name
    if ta == tb:
        return
    da, db = np.ndim(a), np.ndim(b)
    if da == 1 and db == 1:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {_NAMES[ta]} and "
            f"{_NAMES[tb]}"
        )
    if fold == "b":  # b is transposed and goes first
        da, db, ta, tb = db, da, tb, ta
    if db == 1 and (da == 2 or fold is not None):
        raise RuntimeError(
            f"addmv input tensors must have the same dtype, but got {_NAMES[tb]}, {_NAMES[ta]}, "
            f"and {_NAMES[tb]}"
        )
    if fold is None and max(da, db) >= 3:  # bmm
        raise RuntimeError(f"expected scalar type {_NAMES[ta]} but found {_NAMES[tb]}")
    raise RuntimeError(
        f"expected m1 and m2 to have the same dtype, but got: {_C_NAMES[ta]} != {_C_NAMES[tb]}"
    )


def _mm_error(sa, sb):
    raise RuntimeError(
        f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(sa)} and {_shape_text(sb)})"
    )


def product(a, b):
    """a @ b; for the small row-major float32 matrices of lessons, added up over the inner
    dimension one term after another, which is how PyTorch's CPU BLAS rounds them (measured:
    outputs 2 to 8 columns wide, or one row); numpy's BLAS otherwise."""
    if (
        np.ndim(a) == 2
        and np.ndim(b) == 2
        and a.dtype == b.dtype == np.float32
        and a.shape[1] <= 64
        and (2 <= b.shape[1] <= 8 or a.shape[0] == 1)
        and a.flags.c_contiguous
        and b.flags.c_contiguous
    ):
        out = a[:, :1] * b[:1]
        for i in range(1, a.shape[1]):
            out += a[:, i : i + 1] * b[i : i + 1]
        return out
    return np.matmul(a, b)


class Matmul(Op):
    """z = a @ b;  dL/da = g @ bᵀ, dL/db = aᵀ @ g (1-D sides treated as row/column)."""

    _backward_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.asarray(result(product(a, b), a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # As PyTorch does, no product for a side that needs no gradient (the input batch of
        # a layer): it costs as much as the forward product.
        need_a, need_b = ctx.needs_input_grad
        if np.ndim(a) == 1 and np.ndim(b) == 1:  # a dot product: the gradient is a scalar
            return grad * b if need_a else None, grad * a if need_b else None
        a2 = np.reshape(a, (1, -1)) if np.ndim(a) == 1 else a
        b2 = np.reshape(b, (-1, 1)) if np.ndim(b) == 1 else b
        g = np.expand_dims(grad, -2) if np.ndim(a) == 1 else grad
        g = np.expand_dims(g, -1) if np.ndim(b) == 1 else g
        ga = gb = None
        if need_a:
            ga = np.matmul(g, np.swapaxes(b2, -1, -2))
            ga = unbroadcast(ga, np.shape(a2)).reshape(np.shape(a))
        if need_b:
            gb = np.matmul(np.swapaxes(a2, -1, -2), g)
            gb = unbroadcast(gb, np.shape(b2)).reshape(np.shape(b))
        return ga, gb


class Dot(Matmul):
    """z = a · b for two vectors."""

    _backward_name = "DotBackward0"


class Mv(Matmul):
    """z = A @ v, matrix times vector."""

    _backward_name = "MvBackward0"


class VecMat(Matmul):
    """z = v @ A, vector times matrix (PyTorch records the squeeze it does last)."""

    _backward_name = "SqueezeBackward4"


class BatchedMatmul(Matmul):
    """z = a @ b with batch dimensions (PyTorch records the final view)."""

    _backward_name = "UnsafeViewBackward0"


class FoldedMatmul(Matmul):
    """z = A @ b for a matrix A that requires grad and a batch b (PyTorch transposes, folds b
    into one mm, and records the copy back to row-major order)."""

    _backward_name = "CloneBackward0"


def matmul_op(a, b, a_grad=False, b_grad=False):
    """Which named op PyTorch would record for `a @ b`, from the ranks and requires_grad."""
    ranks = (np.ndim(a), np.ndim(b))
    if ranks[0] == 2 and ranks[1] >= 3 and _fold(a, b, a_grad, b_grad) == "b":
        return FoldedMatmul
    return {(1, 1): Dot, (2, 2): Matmul, (2, 1): Mv, (1, 2): VecMat}.get(ranks, BatchedMatmul)


# -- the functions ---------------------------------------------------------------------------


def matmul(input, other, *, out=None):
    flags = (input._data, other._data, input.requires_grad, other.requires_grad)
    check_matmul(*flags)
    result = matmul_op(*flags).apply(input, other)
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
    result = pointwise.mul(shape.unsqueeze(input, 1), vec2)
    return result if out is None else into(out, result, "outer")


# -- recorded gradients (create_graph=True) --------------------------------------------------


@rule(Matmul)
def _matmul(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    if A.ndim == 1 and B.ndim == 1:
        return g * B, g * A
    a2 = A.unsqueeze(0) if A.ndim == 1 else A
    b2 = B.unsqueeze(1) if B.ndim == 1 else B
    g2 = g.unsqueeze(-2) if A.ndim == 1 else g
    g2 = g2.unsqueeze(-1) if B.ndim == 1 else g2
    ga = shape.reshape(sum_to(matmul(g2, shape.transpose(b2, -1, -2)), a2.shape), A.shape)
    gb = shape.reshape(sum_to(matmul(shape.transpose(a2, -1, -2), g2), b2.shape), B.shape)
    return ga, gb
