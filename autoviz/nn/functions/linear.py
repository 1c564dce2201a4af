"""linear and bilinear, recorded as PyTorch records them (Addmm or Mm; Trilinear)."""

import numpy as np

from ...engine import linalg, shape_ops
from .. import ops
from .common import dtype_word

# How PyTorch's C++ names scalar types in the plain-matmul dtype error.
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
        return ops.SqueezeRow.apply(_matmul_2d(row, w_t, None))
    # Other ranks fold the leading axes into one batch axis and unfold them afterwards.
    flat = shape_ops.View.apply(input, shape=(-1, input.shape[-1]))
    out = _matmul_2d(flat, w_t, bias)
    unfold = shape_ops.View if bias is not None else ops.UnsafeView
    return unfold.apply(out, shape=(*input.shape[:-1], w_t.shape[-1]))


def _matmul_2d(x, w_t, bias):
    _check_same_dtype(x, w_t, bias is not None)
    linalg.check_matmul(x._data, w_t._data)
    if bias is None:
        return linalg.Matmul.apply(x, w_t)
    return ops.Addmm.apply(bias, x, w_t)


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
        ops.Trilinear.apply(a, weight, b), shape=(*input1.shape[:-1], weight.shape[0])
    )
    return out + bias if bias is not None else out
