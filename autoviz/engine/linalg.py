"""Matrix products: one backward rule, named as PyTorch names each case."""

import numpy as np

from .ops import Op, result, unbroadcast


def _shape_text(shape) -> str:
    return "x".join(map(str, shape))


def check_matmul(a, b) -> None:
    """PyTorch's error text when the inner sizes differ, naming both shapes."""
    sa, sb = np.shape(a), np.shape(b)
    if not sa or not sb:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {len(sa)}D "
            f"and {len(sb)}D"
        )
    inner_b = sb[0] if len(sb) == 1 else sb[-2]
    if sa[-1] == inner_b:
        return
    if len(sa) == 2 and len(sb) == 2:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(sa)} and {_shape_text(sb)})"
        )
    raise RuntimeError(
        f"matmul: shapes {list(sa)} and {list(sb)} cannot be multiplied ({sa[-1]} != {inner_b})"
    )


class Matmul(Op):
    """z = a @ b;  dL/da = g @ bᵀ, dL/db = aᵀ @ g (1-D sides treated as row/column)."""

    _backward_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.asarray(result(np.matmul(a, b), a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        a2 = np.reshape(a, (1, -1)) if np.ndim(a) == 1 else a
        b2 = np.reshape(b, (-1, 1)) if np.ndim(b) == 1 else b
        g = np.expand_dims(grad, -2) if np.ndim(a) == 1 else grad
        g = np.expand_dims(g, -1) if np.ndim(b) == 1 else g
        ga = np.matmul(g, np.swapaxes(b2, -1, -2))
        gb = np.matmul(np.swapaxes(a2, -1, -2), g)
        return (
            unbroadcast(ga, np.shape(a2)).reshape(np.shape(a)),
            unbroadcast(gb, np.shape(b2)).reshape(np.shape(b)),
        )


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


def matmul_op(a, b):
    """Which named op PyTorch would record for `a @ b`, from the two ranks."""
    ranks = (np.ndim(a), np.ndim(b))
    return {(1, 1): Dot, (2, 2): Matmul, (2, 1): Mv, (1, 2): VecMat}.get(ranks, BatchedMatmul)
