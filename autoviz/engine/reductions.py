"""Ops that reduce along axes: sums, means, max and min, softmax."""

import math

import numpy as np

from .ops import Op
from .shape_ops import wrap_dim
from .sums import cascade_sum


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
        if not np.ndim(a):
            return np.asarray(a).copy()
        out = cascade_sum(a, axes)  # added up in PyTorch's order, so it rounds the same
        return np.expand_dims(out, axes if axes is not None else ()) if keepdim else out

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
        return mean_of(a, axes, keepdim)

    @staticmethod
    def backward(ctx, grad):
        shape, axes, keepdim = ctx.info
        # A Python int: numpy's int64 would make a float32 gradient float64.
        count = math.prod([shape[i] for i in axes] if axes is not None else shape)
        return np.array(_expand(grad / count, shape, axes, keepdim))


def mean_of(a, axes, keepdim=False):
    """PyTorch's mean: the sum in its order, then divided by the count in the same dtype."""
    a = np.asarray(a)
    count = math.prod([a.shape[i] for i in axes] if axes is not None else a.shape)
    total = cascade_sum(a, axes) if a.ndim else a.copy()
    out = np.asarray(total / total.dtype.type(count), total.dtype)
    if keepdim and a.ndim:
        out = np.expand_dims(out, axes if axes is not None else tuple(range(a.ndim)))
    return out


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


class Cumsum(Op):
    """z_i = a_1 + ... + a_i along dim;  dz/da · g = the running sum of g taken from the end."""

    _backward_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.info = dim
        return np.asarray(np.cumsum(a, axis=dim), order="C")

    @staticmethod
    def backward(ctx, grad):
        dim = ctx.info
        return np.flip(np.cumsum(np.flip(grad, dim), axis=dim), dim)


def _others_product(a, axis):
    """The product of every element but each one along `axis`, without dividing by it (so a
    zero in `a` gives the right gradient, as PyTorch's ProdBackward does)."""
    ones = np.ones_like(np.take(a, [0], axis=axis))
    left = np.cumprod(
        np.concatenate([ones, np.take(a, range(a.shape[axis] - 1), axis)], axis), axis
    )
    flipped = np.flip(a, axis)
    right = np.concatenate([ones, np.take(flipped, range(a.shape[axis] - 1), axis)], axis)
    return left * np.flip(np.cumprod(right, axis), axis)


class Prod(Op):
    """z = the product of all of a;  dz/da_i = the product of the other elements."""

    _backward_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.asarray(np.prod(a), dtype=np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        flat = np.reshape(a, -1)
        if flat.size == 0:
            return np.zeros(np.shape(a), np.result_type(grad))
        return grad * _others_product(flat, 0).reshape(np.shape(a))


class ProdDim(Op):
    """z = the product of a along dim;  dz/da_i = the product of the others along dim."""

    _backward_name = "ProdBackward1"

    @staticmethod
    def forward(ctx, a, dim=0, keepdim=False):
        ctx.save_for_backward(a)
        ctx.info = (dim, keepdim)
        return np.asarray(np.prod(a, axis=dim, keepdims=keepdim), order="C")

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        dim, keepdim = ctx.info
        g = grad if keepdim else np.expand_dims(grad, dim)
        return g * _others_product(np.asarray(a), dim)


def _count(shape, axes) -> int:
    return math.prod([shape[i] for i in axes] if axes is not None else shape)


class Var(Op):
    """z = Σ (a - mean)² / (n - correction);  dz/da = 2 (a - mean) / (n - correction)."""

    _backward_name = "VarBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, correction=1, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        wide = np.asarray(a, dtype=np.float64)  # PyTorch accumulates in double on the CPU
        centred = wide - np.mean(wide, axis=axes, keepdims=True)
        dof = max(_count(np.shape(a), axes) - correction, 0)
        ctx.save_for_backward(centred.astype(np.result_type(a)))
        ctx.info = (axes, keepdim, dof)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.sum(centred * centred, axis=axes, keepdims=keepdim) / dof
        return np.asarray(out, dtype=np.result_type(a), order="C")

    @staticmethod
    def backward(ctx, grad):
        (centred,) = ctx.saved_tensors
        axes, keepdim, dof = ctx.info
        g = _expand(grad, np.shape(centred), axes, keepdim)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g * centred * (2 / dof if dof else np.inf)


class Std(Op):
    """z = √var(a);  dz/da = (a - mean) / ((n - correction) z)."""

    _backward_name = "StdBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, correction=1, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        wide = np.asarray(a, dtype=np.float64)
        centred = wide - np.mean(wide, axis=axes, keepdims=True)
        dof = max(_count(np.shape(a), axes) - correction, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            var = np.sum(centred * centred, axis=axes, keepdims=keepdim) / dof
        out = np.asarray(np.sqrt(var), dtype=np.result_type(a), order="C")
        ctx.save_for_backward(centred.astype(np.result_type(a)), out)
        ctx.info = (axes, keepdim, dof)
        return out

    @staticmethod
    def backward(ctx, grad):
        centred, out = ctx.saved_tensors
        axes, keepdim, dof = ctx.info
        g = _expand(grad / out, np.shape(centred), axes, keepdim)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(g * centred / dof, dtype=np.result_type(centred))


class Norm(Op):
    """z = (Σ |a|^p)^(1/p);  dz/da = a |a|^(p-2) / z^(p-1) (p = 2: a / z; p = ∞: at the max)."""

    _backward_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, a, p=2.0, dim=None, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        mag = np.abs(np.asarray(a, dtype=np.float64))
        if p == math.inf:
            out = np.max(mag, axis=axes, keepdims=True)
        elif p == -math.inf:
            out = np.min(mag, axis=axes, keepdims=True)
        elif p == 0:
            out = np.sum(mag != 0, axis=axes, keepdims=True).astype(np.float64)
        else:
            out = np.sum(mag**p, axis=axes, keepdims=True) ** (1 / p)
        ctx.save_for_backward(a, out.astype(np.result_type(a)))
        ctx.info = (p, axes, keepdim)
        return np.asarray(_drop(out, axes, keepdim), dtype=np.result_type(a), order="C")

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        p, axes, keepdim = ctx.info
        g = _expand(grad, np.shape(a), axes, keepdim)
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 0:
                local = np.zeros_like(a)
            elif math.isinf(p):
                hit = np.abs(a) == out
                local = np.sign(a) * hit / np.sum(hit, axis=axes, keepdims=True)
            elif p == 1:
                local = np.sign(a)
            else:
                local = a * np.abs(a) ** (p - 2) / out ** (p - 1)
                local = np.where(out == 0, 0, local)
        return np.asarray(g * local, dtype=np.result_type(a))


def _drop(values, axes, keepdim):
    """Remove the reduced axes that keepdims=True kept, unless keepdim asks for them."""
    if keepdim:
        return values
    return np.squeeze(values, axis=axes) if axes is not None else np.reshape(values, ())


class Logsumexp(Op):
    """z = log Σ exp(a) along dim;  dz/da = exp(a - z) (the softmax)."""

    _backward_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, a, dim=0, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        top = np.max(a, axis=axes, keepdims=True)
        top = np.where(np.isfinite(top), top, 0)
        out = top + np.log(np.sum(np.exp(a - top), axis=axes, keepdims=True))
        ctx.save_for_backward(a, out)
        ctx.info = axes
        return np.asarray(_drop(out, axes, keepdim), dtype=np.result_type(a), order="C")

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        axes = ctx.info
        g = grad if np.ndim(grad) == np.ndim(a) else np.expand_dims(grad, axes)
        return g * np.exp(a - out)
