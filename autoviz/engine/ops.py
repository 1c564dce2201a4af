"""Differentiable operations: one small class per op, its derivative in the docstring."""

import numpy as np

from .function import NO_CONTEXT, Function, attach, new_node
from .grad_mode import _state
from .tensor import Tensor, make

_F64 = np.dtype("float64")


class Op(Function):
    """A built-in op: forward and backward work on numpy arrays, not tensors."""

    _builtin = True

    @classmethod
    def apply(cls, *inputs, **params):
        data = [t._data if type(t) is Tensor else t for t in inputs]
        record = _state["enabled"] and any(type(t) is Tensor and t.requires_grad for t in inputs)
        if not record:
            return make(cls.forward(NO_CONTEXT, *data, **params))
        node = new_node(cls, inputs)
        return attach(node, cls.forward(node, *data, **params), inputs)


def unbroadcast(grad, shape):
    """Sum `grad` over the axes broadcasting added, so it has `shape` again."""
    gshape = np.shape(grad)
    if gshape == shape:
        return grad
    extra = len(gshape) - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, n in enumerate(shape) if n == 1 and gshape[i + extra] != 1
    )
    return np.sum(grad, axis=axes).reshape(shape)


def binary(op, a, b):
    """Apply a two-input op where either side may be a Python number."""
    if type(a) is not Tensor and not isinstance(a, (int, float, bool)):
        return NotImplemented
    if type(b) is not Tensor and not isinstance(b, (int, float, bool)):
        return NotImplemented
    return op.apply(a, b)


def _float32_unless_asked(out, a, b):
    """numpy makes float64 from ints and Python floats; PyTorch keeps float32."""
    if (
        getattr(out, "dtype", None) is _F64
        and not (np.result_type(a) is _F64 if isinstance(a, np.ndarray | np.generic) else False)
        and not (np.result_type(b) is _F64 if isinstance(b, np.ndarray | np.generic) else False)
    ):
        return out.astype(np.float32)
    return out


class Add(Op):
    """z = a + b;  dz/da = 1, dz/db = 1."""

    _backward_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.info = (np.shape(a), np.shape(b))  # sizes are not freed, as in PyTorch
        return _float32_unless_asked(a + b, a, b)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(grad, b_shape)


class Mul(Op):
    """z = a * b;  dz/da = b, dz/db = a."""

    _backward_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _float32_unless_asked(a * b, a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad * b, np.shape(a)), unbroadcast(grad * a, np.shape(b))
