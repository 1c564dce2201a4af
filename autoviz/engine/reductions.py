"""Ops that reduce along axes: sums, means, max and min, softmax."""

import math

import numpy as np

from .ops import Op
from .shape_ops import wrap_dim


def _axes(dim, ndim):
    """The axes to reduce, counted from 0; PyTorch's errors for bad or repeated dims."""
    if dim is None:
        return None
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    axes = tuple(wrap_dim(d, ndim) for d in dims)
    for i, d in enumerate(axes):
        if d in axes[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return axes if ndim else ()


# Outputs are made row-major (order="C"): PyTorch's reductions and softmax always return
# contiguous tensors, and that decides what `.view()` accepts; numpy keeps a permuted layout.


def _expand(grad, shape, axes, keepdim):
    """Put back the reduced axes of `grad` so it broadcasts against the input."""
    if axes is not None and not keepdim and shape:
        grad = np.expand_dims(grad, axes)
    return np.broadcast_to(grad, shape)


class Sum(Op):
    """z = sum of a over dim;  dz/da = 1 for every element (the gradient broadcast back)."""

    _backward_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        ctx.info = (np.shape(a), axes, keepdim)
        out = np.sum(a, axis=axes, keepdims=keepdim)
        return np.asarray(out, order="C") if np.ndim(a) else np.asarray(a).copy()

    @staticmethod
    def backward(ctx, grad):
        shape, axes, keepdim = ctx.info
        return np.array(_expand(grad, shape, axes, keepdim))


class SumDim(Sum):
    """z = a.sum(dim);  dz/da = 1 for every element."""

    _backward_name = "SumBackward1"


class Mean(Op):
    """z = mean of a over dim;  dz/da = 1/n for every element."""

    _backward_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        if np.result_type(a).kind not in "fc":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {_dtype_name(a)}"
            )
        axes = _axes(dim, np.ndim(a))
        ctx.info = (np.shape(a), axes, keepdim)
        return np.asarray(np.mean(a, axis=axes, keepdims=keepdim), order="C")

    @staticmethod
    def backward(ctx, grad):
        shape, axes, keepdim = ctx.info
        # A Python int: numpy's int64 would make a float32 gradient float64.
        count = math.prod([shape[i] for i in axes] if axes is not None else shape)
        return np.array(_expand(grad / count, shape, axes, keepdim))


def _dtype_name(a) -> str:
    return {"i": "Long", "b": "Bool"}.get(np.result_type(a).kind, str(np.result_type(a)))


class MeanDim(Mean):
    """z = a.mean(dim);  dz/da = 1/n for every element."""

    _backward_name = "MeanBackward1"


def _share_among_ties(ctx, grad):
    a, out = ctx.saved_tensors
    hit = a == out
    return grad * hit / int(np.sum(hit))  # a Python int keeps float32 gradients float32


class Amax(Op):
    """z = max of all of a;  the gradient is shared equally by the elements that tie."""

    _backward_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.max(a))
        ctx.save_for_backward(a, out)
        return out

    backward = staticmethod(_share_among_ties)


class Amin(Op):
    """z = min of all of a;  the gradient is shared equally by the elements that tie."""

    _backward_name = "MinBackward1"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.min(a))
        ctx.save_for_backward(a, out)
        return out

    backward = staticmethod(_share_among_ties)


def _scatter_to_index(ctx, grad):
    shape, dim, keepdim, idx = ctx.info
    full = np.zeros(shape, dtype=np.result_type(grad))
    np.put_along_axis(full, idx, grad if keepdim else np.expand_dims(grad, dim), axis=dim)
    return full


def _along(ctx, a, dim, keepdim, arg):
    dim = wrap_dim(dim, np.ndim(a))
    idx = np.expand_dims(arg(a, axis=dim), dim)
    ctx.info = (np.shape(a), dim, keepdim, idx)
    values = np.take_along_axis(np.asarray(a), idx, axis=dim)
    return np.asarray(values if keepdim else np.squeeze(values, dim), order="C")


class MaxDim(Op):
    """z = max of a along dim;  dz/da = 1 at the index of each maximum, else 0."""

    _backward_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, a, dim=0, keepdim=False):
        return _along(ctx, a, dim, keepdim, np.argmax)

    backward = staticmethod(_scatter_to_index)


class MinDim(Op):
    """z = min of a along dim;  dz/da = 1 at the index of each minimum, else 0."""

    _backward_name = "MinBackward0"

    @staticmethod
    def forward(ctx, a, dim=0, keepdim=False):
        return _along(ctx, a, dim, keepdim, np.argmin)

    backward = staticmethod(_scatter_to_index)


class Softmax(Op):
    """z = exp(a) / sum(exp(a)) along dim;  dz/da · g = z * (g - sum(g * z))."""

    _backward_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim=-1):
        shifted = np.exp(a - np.max(a, axis=dim, keepdims=True))
        out = np.asarray(shifted / np.sum(shifted, axis=dim, keepdims=True), order="C")
        ctx.save_for_backward(out)
        ctx.info = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return out * (grad - np.sum(grad * out, axis=ctx.info, keepdims=True))


class LogSoftmax(Op):
    """z = a - log(sum(exp(a))) along dim;  dz/da · g = g - softmax(a) * sum(g)."""

    _backward_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, dim=-1):
        shifted = a - np.max(a, axis=dim, keepdims=True)
        out = shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))
        out = np.asarray(out, order="C")
        ctx.save_for_backward(out)
        ctx.info = dim
        return out.astype(np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad - np.exp(out) * np.sum(grad, axis=ctx.info, keepdims=True)
