"""The products behind nn.Linear and nn.Bilinear, recorded as PyTorch records them: Addmm
(or Mm without a bias) with the leading axes folded into one, and Trilinear."""

import numpy as np

from ..dtypes import float32, float64
from ..higher import inp, rule, sum_to
from . import linalg
from . import shape as shape_ops
from .arguments import dtype_word
from .base import Op, into, result, unbroadcast


class Addmm(Op):
    """z = β·bias + α·(m1 @ m2) (β = α = 1 in nn.Linear);  dz/dbias = β·g summed over rows,
    dz/dm1 = α·g @ m2ᵀ, dz/dm2 = α·m1ᵀ @ g."""

    _backward_name = "AddmmBackward0"
    _saved_names = ("mat1", "mat2")
    _saved_for = (("mat1", 2), ("mat2", 1))  # each kept for the other's gradient only

    @staticmethod
    def forward(ctx, bias, m1, m2, beta=1, alpha=1):
        ctx.save_for_backward(m1, m2)
        ctx.info = (np.shape(bias), beta, alpha)  # kept after backward, like torch's sizes
        product = np.matmul(m1, m2)
        if alpha != 1:
            product = product * alpha
        if beta == 0:  # bias ignored, its NaNs too, as torch's kernels do
            return np.asarray(result(product, bias, m1, m2))
        return np.asarray(result((bias if beta == 1 else bias * beta) + product, bias, m1, m2))

    @staticmethod
    def backward(ctx, grad):
        m1, m2 = ctx.saved_tensors
        shape, beta, alpha = ctx.info
        need = ctx.needs_input_grad
        scaled = grad if alpha == 1 else grad * alpha
        return (
            unbroadcast(grad if beta == 1 else grad * beta, shape) if need[0] else None,
            np.matmul(scaled, m2.T) if need[1] else None,
            np.matmul(m1.T, scaled) if need[2] else None,
        )


class SqueezeRow(Op):
    """z = a without its leading axis of size 1;  dz/da = g with that axis put back."""

    _backward_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a):
        return np.squeeze(a, 0)

    @staticmethod
    def backward(ctx, grad):
        return np.expand_dims(grad, 0)


@rule(Addmm)
def _addmm(node, g):
    m1, m2 = node._saved
    shape, beta, alpha = node.info
    M1, M2 = inp(node, 1, m1), inp(node, 2, m2)
    scaled = g if alpha == 1 else g * alpha
    return sum_to(g if beta == 1 else g * beta, shape), scaled @ M2.t(), M1.t() @ scaled


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """β·input + α·(mat1 @ mat2), one AddmmBackward0 node as in PyTorch."""
    floats = all(getattr(t, "dtype", None) in (float32, float64) for t in (input, mat1, mat2))
    if not (floats and mat1.ndim == 2 and mat2.ndim == 2):  # ints, bools, wrong ranks
        return linalg.addmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)
    linalg.check_matmul(mat1._data, mat2._data)
    _check_same_dtype(mat1, mat2, True)
    result_ = Addmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)
    return result_ if out is None else into(out, result_, "addmm")


@rule(SqueezeRow)
def _squeeze_row(node, g):
    return g.unsqueeze(0)


class Trilinear(Op):
    """z[n, o] = Σ_ij x1[n, i] w[o, i, j] x2[n, j] (the bilinear layer's product);
    dz/dx1 = Σ_o,j g w x2, dz/dw = Σ_n g x1 x2, dz/dx2 = Σ_o,i g x1 w."""

    _backward_name = "TrilinearBackward0"

    @staticmethod
    def forward(ctx, x1, w, x2):
        ctx.save_for_backward(x1, w, x2)
        return np.einsum("ni,oij,nj->no", x1, w, x2).astype(np.result_type(x1, w, x2))

    @staticmethod
    def backward(ctx, grad):
        x1, w, x2 = ctx.saved_tensors
        need = ctx.needs_input_grad
        return (
            np.einsum("no,oij,nj->ni", grad, w, x2) if need[0] else None,
            np.einsum("no,ni,nj->oij", grad, x1, x2) if need[1] else None,
            np.einsum("no,ni,oij->nj", grad, x1, w) if need[2] else None,
        )


_C10_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int"}


def linear(input, weight, bias=None):
    """y = input @ weightᵀ + bias, recorded as PyTorch records it (Addmm, or Mm without bias)."""
    if weight.ndim == 2 and input.ndim >= 1 and input.shape[-1] != weight.shape[1]:
        # Before the transpose is recorded: PyTorch records nothing for a failing linear.
        rows = int(np.prod(input.shape[:-1])) if input.ndim > 1 else 1
        linalg.check_matmul(np.empty((rows, input.shape[-1])), np.empty(weight.shape[::-1]))
    w_t = shape_ops.T.apply(weight, dim0=0, dim1=1) if weight.ndim == 2 else weight
    if input.ndim == 2:
        return _matmul_2d(input, w_t, bias)
    if input.ndim == 1 and bias is None:
        # PyTorch multiplies a vector as a one-row matrix, then squeezes the row away.
        row = shape_ops.Unsqueeze.apply(input, dim=0)
        return SqueezeRow.apply(_matmul_2d(row, w_t, None))
    # Other ranks fold the leading axes into one batch axis and unfold them afterwards.
    flat = shape_ops.View.apply(input, shape=(-1, input.shape[-1]))
    out = _matmul_2d(flat, w_t, bias)
    unfold = shape_ops.View if bias is not None else shape_ops.UnsafeView
    return unfold.apply(out, shape=(*input.shape[:-1], w_t.shape[-1]))


def _matmul_2d(x, w_t, bias):
    _check_same_dtype(x, w_t, bias is not None)
    linalg.check_matmul(x._data, w_t._data)
    if bias is None:
        return linalg.Matmul.apply(x, w_t)
    return Addmm.apply(bias, x, w_t)


def _check_same_dtype(x, w, with_bias: bool) -> None:
    """No silent promotion: a float64 input to a float32 layer is an error, as in PyTorch."""
    a, b = x._data.dtype.name, w._data.dtype.name
    if a == b:
        return
    if with_bias:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {dtype_word(x)} and {dtype_word(w)}"
        )
    raise RuntimeError(
        "expected m1 and m2 to have the same dtype, but got: "
        f"{_C10_NAMES.get(a, a)} != {_C10_NAMES.get(b, b)}"
    )


def bilinear(input1, input2, weight, bias=None):
    """y[o] = x1ᵀ W[o] x2 + b[o] over the last axes, the others batch axes."""
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(
            "bilinear(): input batch dimensions do not match: got "
            f"{list(input1.shape[:-1])} and {list(input2.shape[:-1])}"
        )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} "
            f"but expected {weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} "
            f"but expected {weight.shape[2]}"
        )
    a = shape_ops.View.apply(input1, shape=(-1, input1.shape[-1]))
    b = shape_ops.View.apply(input2, shape=(-1, input2.shape[-1]))
    out = shape_ops.View.apply(
        Trilinear.apply(a, weight, b), shape=(*input1.shape[:-1], weight.shape[0])
    )
    return out + bias if bias is not None else out
