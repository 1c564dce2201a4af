"""Ops that reduce along dims: sum, mean, max and min, prod, cumsum, var, std, norm,
logsumexp, softmax; all and any."""

import builtins
import functools
import math
import warnings

import numpy as np

from ..dtypes import TYPE_NAMES, default_float
from ..fidelity.sums import cascade_sum
from ..fidelity.topk import kth_index, sort_row
from ..higher import inp, mask, out, rule
from ..tensor import Tensor, make
from . import arithmetic, pointwise
from .base import (
    Op,
    SeveralOutputs,
    dim_arg,
    dtype_word,
    into,
    need_tensor,
    parts,
    refuse_bool,
    return_type,
    wrap_dim,
    writes_out,
)
from .indexing import Scatter


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
        # A broadcast view, as torch's grad.expand(sizes): a sum of it further down (a bias's
        # gradient) then adds in the order torch's kernel takes for stride-0 memory.
        shape, axes, keepdim = ctx.info
        return _expand(grad, shape, axes, keepdim)


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
                f"point or complex dtype. Got: {dtype_word(a)}"
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


class MeanDim(Mean):
    """z = a.mean(dim);  dz/da = 1/n for every element."""

    _backward_name = "MeanBackward1"


class Amax(Op):
    """z = max of all of a;  the gradient is shared equally by the elements that tie."""

    _backward_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.max(a))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        return evenly_distributed(grad, a, out)


def evenly_distributed(grad, a, value):
    """PyTorch's gradient of a full max, min or median: shared by the elements equal to the
    value (the NaNs, when it is NaN), 0.0 elsewhere whatever the gradient's sign."""
    hit = np.isnan(a) if np.isnan(value) else a == value
    return np.where(hit, grad / int(np.sum(hit)), np.zeros((), np.result_type(grad)))


class Amin(Op):
    """z = min of all of a;  the gradient is shared equally by the elements that tie."""

    _backward_name = "MinBackward1"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.min(a))
        ctx.save_for_backward(a, out)
        return out

    backward = Amax.backward


def _scatter_to_index(ctx, grad):
    shape, dim, keepdim, idx = ctx.info
    if dim is None:
        return np.array(grad)
    full = np.zeros(shape, dtype=np.result_type(grad))
    np.put_along_axis(full, idx, grad if keepdim else np.expand_dims(grad, dim), axis=dim)
    return full


def _along(ctx, a, dim, keepdim, arg):
    dim = wrap_dim(dim, np.ndim(a))
    if np.ndim(a) == 0:  # a 0-d tensor has one element along its dim 0 (or -1)
        ctx.info = ((), None, keepdim, None)
        return np.array(a)
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


class _PickedAlong(Op):
    """z = a's element at a given index along dim, one per slice (median, kthvalue, mode);
    dz/da = the gradient written back at that index, 0 elsewhere."""

    @staticmethod
    def forward(ctx, a, index=None, dim=0, keepdim=False):
        if np.ndim(a) == 0:
            ctx.info = ((), None, keepdim, None)
            return np.array(a)
        ctx.info = (np.shape(a), dim, keepdim, index)
        values = np.take_along_axis(np.asarray(a), index, axis=dim)
        return np.asarray(values if keepdim else np.squeeze(values, dim), order="C")

    backward = staticmethod(_scatter_to_index)


class MedianDim(_PickedAlong):
    _backward_name = "MedianBackward1"


class NanmedianDim(_PickedAlong):
    _backward_name = "NanmedianBackward1"


class Kthvalue(_PickedAlong):
    _backward_name = "KthvalueBackward0"


class Mode(_PickedAlong):
    _backward_name = "ModeBackward0"


class Softmax(Op):
    """z = exp(a) / sum(exp(a)) along dim;  dz/da · g = z * (g - sum(g * z))."""

    _backward_name = "SoftmaxBackward0"
    _saved_names = ("result",)
    _saved_number = "dim"

    @staticmethod
    def forward(ctx, a, dim=-1):
        if not np.size(a):  # nothing to normalise: an empty result, as PyTorch's
            ctx.save_for_backward(np.array(a))
            ctx.info = dim
            return np.array(a)
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
    _saved_names = ("result",)
    _saved_number = "dim"

    @staticmethod
    def forward(ctx, a, dim=-1):
        if not np.size(a):
            ctx.save_for_backward(np.array(a))
            ctx.info = dim
            return np.array(a)
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
        ctx.info = dim if np.ndim(a) else None
        if not np.ndim(a):
            return np.array(a)
        return np.asarray(np.cumsum(a, axis=dim, dtype=np.result_type(a)), order="C")

    @staticmethod
    def backward(ctx, grad):
        dim = ctx.info
        if dim is None:
            return grad
        return np.flip(np.cumsum(np.flip(grad, dim), axis=dim), dim)


def _others_product(a, axis):
    """The product of every element but each one along `axis`, without dividing by it (so a
    zero in `a` gives the right gradient, as PyTorch's ProdBackward does)."""
    if not a.shape[axis]:
        return np.ones_like(a)
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
        out = np.asarray(np.prod(a), dtype=np.result_type(a))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        flat = np.reshape(a, -1)
        if flat.size == 0:
            return np.zeros(np.shape(a), np.result_type(grad))
        if not np.ndim(a):
            return np.array(grad)
        zeros = np.count_nonzero(flat == 0)
        if not zeros:  # PyTorch's three cases, each with its own rounding
            with np.errstate(divide="ignore", invalid="ignore"):
                return grad * (out / a)
        if zeros > 1:
            return np.zeros(np.shape(a), np.result_type(grad))
        return grad * _others_product(flat, 0).reshape(np.shape(a))


class ProdDim(Op):
    """z = the product of a along dim;  dz/da_i = the product of the others along dim."""

    _backward_name = "ProdBackward1"

    @staticmethod
    def forward(ctx, a, dim=0, keepdim=False):
        ctx.save_for_backward(a)
        ctx.info = (dim if np.ndim(a) else None, keepdim)
        if not np.ndim(a):
            return np.array(a)
        return np.asarray(np.prod(a, axis=dim, keepdims=keepdim), order="C")

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        dim, keepdim = ctx.info
        if dim is None:
            return grad
        g = grad if keepdim else np.expand_dims(grad, dim)
        if not np.any(a == 0):  # PyTorch divides when it can, else multiplies the others
            z = np.prod(a, axis=dim, keepdims=True)
            return g * (z / a)
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
        dof = builtins.max(_count(np.shape(a), axes) - correction, 0)
        ctx.save_for_backward(a)
        ctx.info = (axes, keepdim, dof)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.sum(centred * centred, axis=axes, keepdims=keepdim) / dof
        return np.asarray(out, dtype=np.result_type(a), order="C")

    @staticmethod
    def backward(ctx, grad):
        return _var_backward(ctx, grad, *ctx.info)


def _var_backward(ctx, grad, axes, keepdim, dof):
    (a,) = ctx.saved_tensors
    with np.errstate(divide="ignore", invalid="ignore"):
        return _var_grad(_expand(grad, np.shape(a), axes, keepdim), a, axes, dof)


def _var_grad(g, a, axes, dof):
    """(2 / dof) · g · (a - mean(a)), in a's dtype and PyTorch's order of operations."""
    scale = np.result_type(g).type(2 / dof if dof else np.inf)
    return scale * g * (a - mean_of(a, axes, keepdim=True))


class Std(Op):
    """z = √var(a);  dz/da = (a - mean) / ((n - correction) z), 0 where z = 0."""

    _backward_name = "StdBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, correction=1, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        wide = np.asarray(a, dtype=np.float64)
        centred = wide - np.mean(wide, axis=axes, keepdims=True)
        dof = builtins.max(_count(np.shape(a), axes) - correction, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            var = np.sum(centred * centred, axis=axes, keepdims=keepdim) / dof
        out = np.asarray(np.sqrt(var), dtype=np.result_type(a), order="C")
        ctx.save_for_backward(a, out)
        ctx.info = (axes, keepdim, dof)
        return out

    @staticmethod
    def backward(ctx, grad):
        return _std_backward(ctx, grad, *ctx.info)


def _std_backward(ctx, grad, axes, keepdim, dof):
    a, out = ctx.saved_tensors
    with np.errstate(divide="ignore", invalid="ignore"):
        # PyTorch: var's gradient of grad / 2std, zero where the std is 0 (a constant input)
        g = np.where(out == 0, 0, grad / (out * 2)).astype(np.result_type(grad))
        g = _expand(g, np.shape(a), axes, keepdim)
        return np.asarray(_var_grad(g, a, axes, dof), dtype=np.result_type(a))


class Norm(Op):
    """z = (Σ |a|^p)^(1/p);  dz/da = a |a|^(p-2) / z^(p-1) (p = 2: a / z; p = ∞: at the max)."""

    _backward_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, a, p=2.0, dim=None, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        out = norm_values(a, p, axes)
        ctx.save_for_backward(a, out.astype(np.result_type(a)))
        ctx.info = (p, axes, keepdim)
        return np.asarray(_drop(out, axes, keepdim), dtype=np.result_type(a), order="C")

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        p, axes, keepdim = ctx.info
        g = _expand(grad, np.shape(a), axes, keepdim)
        return np.asarray(g * norm_local(a, out, p, axes), dtype=np.result_type(a))


def norm_values(a, p, axes):
    """The p-norm of a over axes (kept, as size-1 axes), accumulated in float64."""
    mag = np.abs(np.asarray(a, dtype=np.float64))
    if p == math.inf:
        return np.max(mag, axis=axes, keepdims=True)
    if p == -math.inf:
        return np.min(mag, axis=axes, keepdims=True)
    if p == 0:
        return np.sum(mag != 0, axis=axes, keepdims=True).astype(np.float64)
    return np.sum(mag**p, axis=axes, keepdims=True) ** (1 / p)


def norm_local(a, out, p, axes):
    """∂‖a‖_p/∂a given the norm `out` (kept axes): a |a|^(p-2) / out^(p-1), its limits."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            return np.zeros_like(a)
        if math.isinf(p):
            hit = np.abs(a) == out
            return np.sign(a) * hit / np.sum(hit, axis=axes, keepdims=True)
        if p == 1:
            return np.sign(a)
        local = a * np.abs(a) ** (p - 2) / out ** (p - 1)
        return np.where(out == 0, 0, local)


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


class AmaxDim(Op):
    """z = max of a over dims (amax);  the gradient is shared equally by the elements that tie."""

    _backward_name = "AmaxBackward0"
    _pick = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, a, dim=(), keepdim=False):
        axes = _axes(dim, np.ndim(a)) if dim != () else None
        kept = np.asarray(cls._pick(a, axis=axes, keepdims=True))
        ctx.save_for_backward(a, kept)
        ctx.info = (axes, keepdim)
        return np.asarray(_drop(kept, axes, keepdim), order="C")

    @staticmethod
    def backward(ctx, grad):
        a, kept = ctx.saved_tensors
        axes, keepdim = ctx.info
        hit = a == kept
        g = _expand(grad, np.shape(a), axes, keepdim)
        # grad / count times the mask, as torch: -0.0 where a negative gradient is not taken
        return ((g / np.sum(hit, axis=axes, keepdims=True)) * hit).astype(grad.dtype)


class AminDim(AmaxDim):
    """z = min of a over dims (amin);  the gradient is shared equally by the elements that tie."""

    _backward_name = "AminBackward0"
    _pick = staticmethod(np.min)


class Cumprod(Op):
    """z_i = a_1 · ... · a_i along dim;  dz/da · g = Σ_{j>=i} g_j z_j / a_i (zeros handled)."""

    _backward_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, a, dim=0):
        out = np.asarray(np.cumprod(a, axis=dim), order="C") if np.ndim(a) else np.array(a)
        ctx.save_for_backward(a, out)
        ctx.info = dim if np.ndim(a) else None
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        dim = ctx.info
        if dim is None:
            return grad
        if np.all(a != 0):
            total = np.flip(np.cumsum(np.flip(grad * out, dim), axis=dim), dim)
            return total / a
        # With zeros: each element's gradient summed term by term (rare, and small inputs).
        moved_a, moved_g = np.moveaxis(a, dim, -1), np.moveaxis(grad, dim, -1)
        result = np.zeros_like(moved_a, dtype=np.result_type(grad))
        n = moved_a.shape[-1]
        for i in range(n):
            for j in range(i, n):
                others = np.prod(np.delete(moved_a[..., : j + 1], i, axis=-1), axis=-1)
                result[..., i] += moved_g[..., j] * others
        return np.moveaxis(result, -1, dim)


class Logcumsumexp(Op):
    """z_i = log Σ_{j<=i} exp(a_j) along dim;  dz/da_i · g = Σ_{j>=i} g_j exp(a_i - z_j)."""

    _backward_name = "LogcumsumexpBackward0"

    @staticmethod
    def forward(ctx, a, dim=0):
        if not np.ndim(a):
            ctx.save_for_backward(a, np.array(a))
            ctx.info = None
            return np.array(a)
        out = np.asarray(np.logaddexp.accumulate(a, axis=dim), order="C")
        ctx.save_for_backward(a, out)
        ctx.info = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        dim = ctx.info
        if dim is None:
            return grad
        # In float64, shifted by the largest z: exp(a_i - z_j) = exp(a_i - m) exp(m - z_j).
        a64, z64, g64 = (np.asarray(x, np.float64) for x in (a, out, grad))
        top = np.max(z64, axis=dim, keepdims=True)
        with np.errstate(over="ignore", invalid="ignore"):
            weights = g64 * np.exp(top - z64)
            total = np.flip(np.cumsum(np.flip(weights, dim), axis=dim), dim)
            return (total * np.exp(a64 - top)).astype(np.result_type(grad))


class Nansum(Op):
    """z = the sum of a's numbers, NaNs left out;  dz/da = 1 where a is a number, else 0."""

    _backward_name = "NansumBackward0"

    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        axes = _axes(dim, np.ndim(a))
        ctx.save_for_backward(a)
        ctx.info = (axes, keepdim)
        return np.asarray(np.nansum(a, axis=axes, keepdims=keepdim), np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        axes, keepdim = ctx.info
        g = _expand(grad, np.shape(a), axes, keepdim)
        return np.where(np.isnan(a), 0, g).astype(np.result_type(grad))


class Median(Op):
    """z = the lower median of all of a;  dz/da = 1/k at the k elements equal to it, else 0."""

    _backward_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, a):
        flat = np.asarray(a).reshape(-1)
        if flat.dtype.kind in "fc" and np.isnan(flat).any():
            out = np.array(np.nan, flat.dtype)
        else:
            out = _lower_median(flat)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        return evenly_distributed(grad, a, out)


def _lower_median(flat):
    if not flat.size:
        return np.array(np.nan, flat.dtype if flat.dtype.kind == "f" else default_float())
    return np.array(np.sort(flat)[(flat.size - 1) // 2])


class Nanmedian(Median):
    """z = the lower median of a's numbers (NaNs left out);  dz/da = 1/k at the k elements
    equal to it, else 0."""

    _backward_name = "NanmedianBackward0"

    @staticmethod
    def forward(ctx, a):
        flat = np.asarray(a).reshape(-1)
        kept = flat[~np.isnan(flat)] if flat.dtype.kind in "fc" else flat
        out = _lower_median(kept) if kept.size or not flat.size else np.array(np.nan, flat.dtype)
        ctx.save_for_backward(a, out)
        return out


# -- the functions ---------------------------------------------------------------------------


def sum(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim, keepdim = dim_arg(dim, axis), keepdims if keepdims is not None else keepdim
    if dtype is not None:
        input = input.to(dtype)
    elif input._data.dtype.kind in "biu":  # PyTorch sums integers and bools as int64
        input = input.to(np.int64)
    op = Sum if dim is None else SumDim
    result = op.apply(input, dim=dim, keepdim=keepdim)
    return result if out is None else into(out, result, "sum")


def mean(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim, keepdim = dim_arg(dim, axis), keepdims if keepdims is not None else keepdim
    if dtype is not None:
        wanted = np.dtype(getattr(dtype, "numpy", dtype))
        if wanted.kind not in "fc":
            raise RuntimeError(
                "mean(): could not infer output dtype. Optional dtype must be either a floating "
                f"point or complex dtype. Got: {TYPE_NAMES.get(wanted.name)}"
            )
        input = input.to(dtype)
    op = Mean if dim is None else MeanDim
    result = op.apply(input, dim=dim, keepdim=keepdim)
    return result if out is None else into(out, result, "mean")


ReturnMax = return_type("max")
ReturnMin = return_type("min")


def _values_indices(kind, a, dim, keepdim):
    dim = wrap_dim(dim, a.ndim)
    op, arg, result = {
        "max": (MaxDim, np.argmax, ReturnMax),
        "min": (MinDim, np.argmin, ReturnMin),
    }[kind]
    values = op.apply(a, dim=dim, keepdim=keepdim)
    if not a.ndim:
        return result(values, make(np.zeros((), np.int64)))
    idx = arg(a._data, axis=dim)
    return result(values, make(np.asarray(np.expand_dims(idx, dim) if keepdim else idx)))


def max(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    need_tensor("max", input)
    dim, keepdim = dim_arg(dim, axis), keepdims if keepdims is not None else keepdim
    if isinstance(dim, Tensor):
        return arithmetic.maximum(input, dim, out=out)
    _check_empty("max", input, dim)
    if dim is None:
        result = Amax.apply(input)
        return result if out is None else into(out, result, "max")
    return _values_indices("max", input, dim, keepdim)


def min(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    need_tensor("min", input)
    dim, keepdim = dim_arg(dim, axis), keepdims if keepdims is not None else keepdim
    if isinstance(dim, Tensor):
        return arithmetic.minimum(input, dim, out=out)
    _check_empty("min", input, dim)
    if dim is None:
        result = Amin.apply(input)
        return result if out is None else into(out, result, "min")
    return _values_indices("min", input, dim, keepdim)


def _check_empty(name: str, input, dim) -> None:
    """torch's errors for a max or min over no elements: all of an empty tensor, or a dim of
    size 0."""
    if np.size(input._data):
        return
    dims = () if dim is None else (dim if isinstance(dim, (tuple, list)) else (dim,))
    if not dims:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )
    for d in dims:
        d = wrap_dim(d, input.ndim)
        if input.ndim and not input.shape[d]:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _arg(find, input, dim, keepdim):
    dim = None if dim is None else wrap_dim(dim, input.ndim)
    if input.ndim == 0:
        return make(np.zeros((), np.int64))
    name = "argmax" if find is np.argmax else "argmin"
    if dim is None and not input._data.size:
        raise IndexError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
        )
    if dim is not None and not input.shape[dim]:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    idx = find(input._data) if dim is None else find(input._data, axis=dim)
    if keepdim and dim is not None:
        idx = np.expand_dims(idx, dim)
    return make(np.asarray(idx, dtype=np.int64))


def argmax(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    keepdim = keepdims if keepdims is not None else keepdim
    refuse_bool(input, "argmax(): does not support bool input")
    return _arg(np.argmax, input, dim_arg(dim, axis), keepdim)


def argmin(input, dim=None, keepdim=False, *, axis=None, keepdims=None):
    keepdim = keepdims if keepdims is not None else keepdim
    refuse_bool(input, "argmin(): does not support bool input")
    return _arg(np.argmin, input, dim_arg(dim, axis), keepdim)


def softmax(input, dim=-1, *, dtype=None):
    """exp(x) / Σ exp(x) along dim; with `dtype`, x is converted first."""
    input = input if dtype is None else input.to(dtype)
    _float_only(input, "softmax", dim)
    return Softmax.apply(input, dim=wrap_dim(dim, input.ndim))


def _float_only(input, name: str, dim) -> None:
    """torch's error for its softmax kernels given integers: one kernel for the last dim, one
    for the others."""
    if input._data.dtype.kind not in "fc":
        last = "_lastdim" if wrap_dim(dim, input.ndim) == builtins.max(input.ndim - 1, 0) else ""
        raise NotImplementedError(
            f'"{name}{last}_kernel_impl" not implemented for {dtype_word(input._data)!r}'
        )


def log_softmax(input, dim=-1, *, dtype=None):
    input = input if dtype is None else input.to(dtype)
    _float_only(input, "log_softmax", dim)
    return LogSoftmax.apply(input, dim=wrap_dim(dim, input.ndim))


def _keep(keepdim, keepdims):
    return keepdims if keepdims is not None else keepdim


def _done(result, out, name):
    return result if out is None else into(out, result, name)


def _check_float(input, name="std and var") -> None:
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(f"{name} only support floating point and complex dtypes")


def _correction(dim, unbiased, correction):
    """PyTorch's var/std arguments: var(x, True), var(x, 0, True), correction=, unbiased=."""
    if isinstance(dim, bool):  # var(x, False): the old positional `unbiased`
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, correction


def _warn_dof(input, dim, correction) -> None:
    axes = _axes(dim, input.ndim)
    shape = np.shape(input._data)
    n = math.prod([shape[i] for i in axes] if axes is not None else shape)
    if n - correction <= 0:
        warnings.warn(
            "var(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=3,
        )


def _spread(op, name: str, input, dim, unbiased, keepdim, keepdims, correction, out):
    """var and std: the same checks and keywords, then their op."""
    _check_float(input)
    dim, correction = _correction(dim, unbiased, correction)
    _warn_dof(input, dim, correction)
    result = op.apply(input, dim=dim, correction=correction, keepdim=_keep(keepdim, keepdims))
    return _done(result, out, name)


def var(
    input,
    dim=None,
    unbiased=None,
    keepdim=False,
    *,
    correction=None,
    out=None,
    axis=None,
    keepdims=None,
):
    dim = dim_arg(dim, axis)
    return _spread(Var, "var", input, dim, unbiased, keepdim, keepdims, correction, out)


def std(
    input,
    dim=None,
    unbiased=None,
    keepdim=False,
    *,
    correction=None,
    out=None,
    axis=None,
    keepdims=None,
):
    dim = dim_arg(dim, axis)
    return _spread(Std, "std", input, dim, unbiased, keepdim, keepdims, correction, out)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The vector norm over `dim` (all elements by default); p = 'fro' is p = 2."""
    if dtype is not None:
        input = input.to(dtype)
    if p in ("fro", None):
        p = 2.0
    if isinstance(p, str):
        raise NotImplementedError(f"autoviz: norm(p='{p}') (a matrix norm) is not in autoviz yet")
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{TYPE_NAMES.get(input._data.dtype.name, input._data.dtype.name)}"
        )
    result = Norm.apply(input, p=float(p), dim=dim, keepdim=keepdim)
    return _done(result, out, "norm")


def _floating(input):
    """Integers and bools in the default float dtype, where PyTorch's op computes in floats."""
    return input.to(default_float()) if input._data.dtype.kind in "biu" else input


def _promoted(input):
    """Integers and bools are summed and multiplied as int64, as PyTorch does."""
    return input.to(np.int64) if input._data.dtype.kind in "biu" else input


def cumsum(input, dim=None, *, dtype=None, out=None, axis=None):
    dim = dim_arg(dim, axis)
    if dim is None:
        raise TypeError('cumsum() missing 1 required positional arguments: "dim"')
    input = input.to(dtype) if dtype is not None else _promoted(input)
    result = Cumsum.apply(input, dim=wrap_dim(dim, input.ndim))
    return _done(result, out, "cumsum")


def prod(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim = dim_arg(dim, axis)
    input = input.to(dtype) if dtype is not None else _promoted(input)
    if dim is None:
        return _done(Prod.apply(input), out, "prod")
    result = ProdDim.apply(input, dim=wrap_dim(dim, input.ndim), keepdim=_keep(keepdim, keepdims))
    return _done(result, out, "prod")


def logsumexp(input, dim, keepdim=False, *, out=None, axis=None, keepdims=None):
    input = _floating(input)
    result = Logsumexp.apply(input, dim=dim_arg(dim, axis), keepdim=_keep(keepdim, keepdims))
    return _done(result, out, "logsumexp")


def _truth(find, input, dim, keepdim, out, name):
    data = np.asarray(input._data)
    if dim is None:
        result = make(np.asarray(find(data)))
    else:
        axes = _axes(dim, data.ndim)
        result = make(np.asarray(find(data, axis=axes, keepdims=keepdim)))
    if data.dtype == np.uint8:  # PyTorch keeps uint8 for uint8 input
        result = make(result._data.astype(np.uint8))
    return _done(result, out, name)


def all(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _truth(np.all, input, dim_arg(dim, axis), _keep(keepdim, keepdims), out, "all")


def any(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _truth(np.any, input, dim_arg(dim, axis), _keep(keepdim, keepdims), out, "any")


def amax(input, dim=(), keepdim=False, *, out=None):
    _check_empty("amax", input, dim)
    result = AmaxDim.apply(input, dim=dim, keepdim=keepdim)
    return _done(result, out, "amax")


def amin(input, dim=(), keepdim=False, *, out=None):
    _check_empty("amin", input, dim)
    result = AminDim.apply(input, dim=dim, keepdim=keepdim)
    return _done(result, out, "amin")


ReturnAminmax = return_type("aminmax", ("min", "max"))


@writes_out
def aminmax(input, *, dim=None, keepdim=False):
    if dim is None and input.numel() == 0:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
            "identity."
        )
    dims = () if dim is None else dim
    return ReturnAminmax(amin(input, dims, keepdim), amax(input, dims, keepdim))


def cumprod(input, dim, *, dtype=None, out=None):
    input = input.to(dtype) if dtype is not None else _promoted(input)
    return _done(Cumprod.apply(input, dim=wrap_dim(dim, input.ndim)), out, "cumprod")


def logcumsumexp(input, dim, *, out=None):
    return _done(Logcumsumexp.apply(input, dim=wrap_dim(dim, input.ndim)), out, "logcumsumexp")


def _running(kind, input, dim):
    """cummax and cummin: values and the index where each was found."""
    data = np.asarray(input._data)
    dim = wrap_dim(dim, data.ndim)
    if not data.ndim:
        result = ReturnCummax if kind == "max" else ReturnCummin
        return result(input.clone(), make(np.zeros((), np.int64)))
    better = np.greater_equal if kind == "max" else np.less_equal
    moved = np.moveaxis(data, dim, -1)
    index = np.zeros(moved.shape, np.int64)
    best = moved[..., 0].copy()
    for i in range(1, moved.shape[-1]):
        take = better(moved[..., i], best) | np.isnan(moved[..., i])
        best = np.where(take, moved[..., i], best)
        index[..., i] = np.where(take, i, index[..., i - 1])
    index = np.moveaxis(index, -1, dim)
    from .indexing import gather

    result = ReturnCummax if kind == "max" else ReturnCummin
    return result(gather(input, dim, make(index)), make(index))


ReturnCummax = return_type("cummax")
ReturnCummin = return_type("cummin")


def cummax(input, dim):
    return _running("max", input, dim)


def cummin(input, dim):
    return _running("min", input, dim)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    input = input.to(dtype) if dtype is not None else _promoted(input)
    return Nansum.apply(input, dim=dim, keepdim=keepdim)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    input = input.to(dtype) if dtype is not None else input
    count = (
        (~input.isnan()).sum(dim=dim, keepdim=keepdim)
        if dim is not None
        else (~input.isnan()).sum()
    )
    return nansum(input, dim, keepdim) / count


ReturnMedian = return_type("median")


def _nonempty_along(name, input, dim) -> int:
    """dim counted from 0; PyTorch's error where the slices along it are empty."""
    dim = wrap_dim(dim, input.ndim)
    if input.ndim and input.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    return dim


def _pick_along(op, returned, input, dim, keepdim, pick):
    """values and indices of a value-selecting reduction: `pick(rows)` gives each row's index
    (rows: the slices along dim, as a 2-d array)."""
    data = np.asarray(input._data)
    if data.ndim == 0:
        return returned(op.apply(input, dim=0, keepdim=keepdim), make(np.zeros((), np.int64)))
    name = "median" if op in (MedianDim, NanmedianDim) else returned.__name__
    dim = _nonempty_along(name, input, dim)
    moved = np.moveaxis(data, dim, -1)
    picked = np.asarray(pick(moved.reshape(-1, moved.shape[-1])), np.int64)
    index = np.moveaxis(picked.reshape((*moved.shape[:-1], 1)), -1, dim)
    values = op.apply(input, index=index, dim=dim, keepdim=keepdim)
    return returned(values, make(np.asarray(index if keepdim else np.squeeze(index, dim))))


def _median_rows(rows, ignore_nan):
    """torch's CPU median along a dim: the element at (n - 1) // 2 of the stable order (the
    first NaN where a row has one); nanmedian: of the numbers' order."""
    n = rows.shape[1]
    order = np.argsort(rows, axis=1, kind="stable")  # NaNs last
    nans = np.isnan(rows) if rows.dtype.kind in "fc" else np.zeros(rows.shape, bool)
    count = nans.sum(axis=1)
    if ignore_nan:
        return order[np.arange(len(rows)), np.maximum((n - count - 1) // 2, 0)]
    return np.where(count > 0, np.argmax(nans, axis=1), order[:, (n - 1) // 2])


def median(input, dim=None, keepdim=False):
    """The lower median of all elements, or along dim with the index of each."""
    refuse_bool(input, "\"median_cpu\" not implemented for 'Bool'", NotImplementedError)
    if dim is None:
        return Median.apply(input)
    rows = functools.partial(_median_rows, ignore_nan=False)
    return _pick_along(MedianDim, ReturnMedian, input, dim, keepdim, rows)


class VarMean(SeveralOutputs):
    """(var, mean) of a over dim, one node with two outputs as torch.var_mean records it;
    dz/da = var's gradient of the first output's plus mean's of the second."""

    _backward_name = "VarMeanBackward0"
    _spread = Var

    @classmethod
    def forward(cls, ctx, a, dim=None, correction=1, keepdim=False):
        spread = cls._spread.forward(ctx, a, dim, correction, keepdim)
        axes = _axes(dim, np.ndim(a))
        dof = builtins.max(_count(np.shape(a), axes) - correction, 0)
        ctx.info = (axes, keepdim, dof, np.shape(a))
        return spread, mean_of(a, axes, keepdim)

    @staticmethod
    def backward(ctx, grads):
        g_spread, g_mean = parts(grads)
        axes, keepdim, dof, shape = ctx.info
        total = None
        if g_spread is not None:  # the node's op class: VarMean or StdMean
            total = type(ctx)._forward_cls._spread_grad(ctx, g_spread, axes, keepdim, dof)
        if g_mean is not None:
            count = math.prod([shape[i] for i in axes] if axes is not None else shape)
            part = np.array(_expand(g_mean / count, shape, axes, keepdim))
            total = part if total is None else total + part
        return total

    _spread_grad = staticmethod(_var_backward)


class StdMean(VarMean):
    """(std, mean) of a over dim, one node as torch.std_mean records it."""

    _backward_name = "StdMeanBackward0"
    _spread = Std

    _spread_grad = staticmethod(_std_backward)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread_mean(VarMean, input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread_mean(StdMean, input, dim, unbiased, keepdim, correction)


def _spread_mean(op, input, dim, unbiased, keepdim, correction):
    _check_float(input)
    dim, correction = _correction(dim, unbiased, correction)
    _warn_dof(input, dim, correction)
    return op.apply(input, dim=dim, correction=correction, keepdim=keepdim)


class Trace(Op):
    """z = a_11 + a_22 + ... (the diagonal's sum);  dz/da = the identity (1 on the diagonal,
    0 elsewhere)."""

    _backward_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.info = np.shape(a)
        diagonal = np.diagonal(a)
        if diagonal.dtype.kind != "f":
            return np.asarray(np.sum(diagonal, dtype=np.int64))
        # torch's CPU kernel adds the diagonal in order, in double, then rounds once
        return np.asarray(np.cumsum(diagonal, dtype=np.float64)[-1:].sum(), diagonal.dtype)

    @staticmethod
    def backward(ctx, grad):
        out = np.zeros(ctx.info, np.result_type(grad))
        np.fill_diagonal(out, grad)
        return out


def trace_method(self):
    """`x.trace()` and `torch.trace(x)` of a tensor: the sum of a matrix's diagonal (the
    tracer's `autoviz.trace` hands a tensor here)."""
    if self.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.ndim}")
    return Trace.apply(self)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance of the rows (variables) over the columns (observations), with
    frequency and observation weights as numpy.cov takes them."""
    if input.ndim > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.ndim} dimensions"
        )
    input = _floating(input)
    x = input if input.ndim == 2 else input.reshape(1, -1)
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is not None:
            _check_cov_weights(name, weights, x.shape[1])
    w = None
    if fweights is not None:
        w = fweights.to(x.dtype)
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        centred = x - mean(x, dim=1, keepdim=True)
        result = (centred @ centred.t()) / (x.shape[1] - correction)
    else:
        total = sum(w)
        centre = sum(x * w, dim=1, keepdim=True) / total
        centred = x - centre
        if aweights is None:
            norm_ = total - correction
        else:
            norm_ = total - correction * sum(w * aweights) / total
        result = ((centred * w) @ centred.t()) / norm_
    return result if input.ndim == 2 and x.shape[0] > 1 else result.reshape(())


def _check_cov_weights(name: str, weights, observations: int) -> None:
    """torch's checks of cov's frequency (integer) and observation (float) weights."""
    if weights.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
            f"{weights.ndim} dimensions"
        )
    kind, want = ("iu", "integral") if name == "fweights" else ("f", "floating point")
    if weights._data.dtype.kind not in kind:
        raise RuntimeError(
            f"cov(): expected {name} to have {want} dtype but got {name} with "
            f"{TYPE_NAMES[weights._data.dtype.name]} dtype"
        )
    if weights.numel() != observations:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the "
            f"input but got {weights.numel()} != {observations}"
        )
    if (np.asarray(weights._data) < 0).any():
        raise RuntimeError(f"cov(): {name} cannot be negative")


def corrcoef(input):
    c = cov(input)
    if c.ndim == 0 or tuple(c.shape) == (1, 1):
        return (c / c).reshape(())
    d = c.diagonal().sqrt()
    return (c / d.unsqueeze(1) / d.unsqueeze(0)).clamp(-1, 1)


ReturnKthvalue = return_type("kthvalue")
ReturnMode = return_type("mode")


def _kth_rows(rows, k):
    """torch's quickselect index where a row has equal values; the stable order's elsewhere
    (the k-th smallest of distinct values is one element, whatever the algorithm)."""
    from .indexing import tied_rows

    picked = np.argsort(rows, axis=1, kind="stable")[:, k - 1]
    for r in np.flatnonzero(tied_rows(rows)):
        picked[r] = kth_index(rows[r].tolist(), k - 1)
    return picked


@writes_out
def kthvalue(input, k, dim=-1, keepdim=False):
    """The k-th smallest element along dim (1 is the smallest), and its index."""
    refuse_bool(input, "\"kthvalue_cpu\" not implemented for 'Bool'", NotImplementedError)
    wrapped = _nonempty_along("kthvalue", input, dim)
    if not 1 <= k <= (input.shape[wrapped] if input.ndim else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {wrapped}")
    rows = functools.partial(_kth_rows, k=k)
    return _pick_along(Kthvalue, ReturnKthvalue, input, dim, keepdim, rows)


def _mode_rows(rows):
    """torch's CPU mode: the row's (value, index) pairs in std::sort's order by value, then
    the first longest run of equal values (a NaN is a run of its own), and the index of the
    run's last pair."""
    index = []
    for row in rows:
        values = row.tolist()
        if len(values) <= 16 and not np.isnan(row).any():  # insertion sort: a stable order
            order = np.argsort(row, kind="stable").tolist()
        else:
            order = sort_row([-v for v in values])  # -v: the smallest first; NaN compares false
        best, pick, run = 0, 0, 0
        for i, at in enumerate(order):
            run += 1
            if i == len(order) - 1 or values[at] != values[order[i + 1]]:
                if run > best:
                    best, pick = run, at
                run = 0
        index.append(pick)
    return index


def mode(input, dim=-1, keepdim=False):
    """The most frequent value along dim (the smallest among ties), and its last index."""
    return _pick_along(Mode, ReturnMode, input, dim, keepdim, _mode_rows)


ReturnNanmedian = return_type("nanmedian")


def nanmedian(input, dim=None, keepdim=False):
    """median leaving NaNs out (NaN only where a slice has nothing else)."""
    refuse_bool(input, "\"median_cpu\" not implemented for 'Bool'", NotImplementedError)
    if dim is None:
        return Nanmedian.apply(input)
    rows = functools.partial(_median_rows, ignore_nan=True)
    return _pick_along(NanmedianDim, ReturnNanmedian, input, dim, keepdim, rows)


QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_checks(input, q, interpolation):
    """PyTorch's argument checks; q as an array in the input's dtype."""
    kind = np.result_type(input._data)
    if kind.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q._data.dtype != kind:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if q.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        levels = np.asarray(q._data)
        if not np.all((levels >= 0) & (levels <= 1)):
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    else:
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
        levels = np.asarray(q, kind)
    if not input.numel():
        raise RuntimeError("quantile() input tensor must be non-empty")
    if interpolation not in QUANTILE_MODES:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )
    return levels


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    """PyTorch's quantile: sort, ranks q·(n - 1) in the input's dtype (NaN's row: the last
    rank; nanquantile: ranks among the numbers), then the neighbours gathered and lerped."""
    from .indexing import gather, sort

    levels = _quantile_checks(input, q, interpolation)
    if dim is None:
        rows = input.flatten()
    else:
        d = wrap_dim(dim, input.ndim)
        rows = input.unsqueeze(-1).transpose(d, -1) if input.ndim else input.reshape(1)
    ordered = sort(rows, dim=-1).values  # NaNs last
    data = np.asarray(ordered._data)
    nans = np.isnan(data)
    kind = data.dtype.type
    shape = (*np.shape(levels), *data.shape[:-1], 1)  # q's dim first, then the rows
    lv = np.reshape(levels, np.shape(levels) + (1,) * data.ndim)
    if ignore_nan:
        count = (~nans).sum(-1, keepdims=True) - 1
        ranks = np.maximum(lv * count.astype(kind), 0).astype(kind)
    else:
        last = data.shape[-1] - 1
        ranks = np.where(nans.any(-1, keepdims=True), kind(last), lv * kind(last)).astype(kind)
    ranks = np.broadcast_to(ranks, shape)
    ranks = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}.get(
        interpolation, lambda r: r
    )(ranks)
    source = ordered.expand(*np.shape(levels), *data.shape) if np.ndim(levels) else ordered
    below = ranks.astype(np.int64)
    result = gather(source, -1, make(below))
    if interpolation in ("linear", "midpoint"):
        above = gather(source, -1, make(np.ceil(ranks).astype(np.int64)))
        weights = np.full(shape, 0.5, kind) if interpolation == "midpoint" else ranks - below
        result = arithmetic.lerp(result, above, make(np.asarray(weights, kind)))
    lead = np.ndim(levels)
    if dim is None:
        wanted = (*np.shape(levels), *((1,) * input.ndim if keepdim else ()))
        return result.reshape(wanted)
    if keepdim or not input.ndim:
        return result.squeeze(-1) if input.ndim else result.reshape(np.shape(levels))
    return result.squeeze((lead + d, result.ndim - 1))


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The q-th quantiles along dim (of all elements without one), q's dim first."""
    result = _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)
    return result if out is None else into(out, result, "quantile")


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile of each slice's numbers, NaNs left out (NaN where a slice has only NaNs)."""
    result = _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)
    return result if out is None else into(out, result, "nanquantile")


@writes_out
def histc(input, bins=100, min=0, max=0):
    """Counts in `bins` equal bins over [min, max] (the data's range when both are 0)."""
    data = np.asarray(input._data).reshape(-1)
    if data.dtype.kind != "f":
        kind = TYPE_NAMES[data.dtype.name]
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{kind}'")
    lo, hi = (float(data.min()), float(data.max())) if min == max == 0 and data.size else (min, max)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data, bins=bins, range=(lo, hi))
    return make(counts.astype(data.dtype))


def bincount(input, weights=None, minlength=0):
    data = np.asarray(input._data)
    if data.dtype.kind not in "iub":
        kind = TYPE_NAMES[data.dtype.name]
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{kind}'")
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else np.asarray(weights._data)
    counts = np.bincount(data, weights=w, minlength=minlength)
    return make(
        counts.astype(np.int64 if w is None else (w.dtype if w.dtype.kind == "f" else np.float64))
    )


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """∫ y by the trapezoid rule along dim, with sample points x or spacing dx (1)."""
    d = wrap_dim(dim, y.ndim)
    n = y.shape[d]
    left, right = y.narrow(d, 0, n - 1), y.narrow(d, 1, n - 1)
    if x is not None:
        xs = x if x.ndim == y.ndim else x.reshape([-1 if i == d else 1 for i in range(y.ndim)])
        width = xs.narrow(d, 1, n - 1) - xs.narrow(d, 0, n - 1)
        return sum((left + right) * width, dim=d) / 2
    return sum(left + right, dim=d) * ((1 if dx is None else dx) / 2)


trapz = trapezoid


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    d = wrap_dim(dim, y.ndim)
    n = y.shape[d]
    sums = y.narrow(d, 0, n - 1) + y.narrow(d, 1, n - 1)
    if x is not None:
        xs = x if x.ndim == y.ndim else x.reshape([-1 if i == d else 1 for i in range(y.ndim)])
        pieces = sums * (xs.narrow(d, 1, n - 1) - xs.narrow(d, 0, n - 1)) / 2
    else:
        pieces = sums * ((1 if dx is None else dx) / 2)
    return cumsum(pieces, dim=d)


def renorm(input, p, dim, maxnorm):
    """Each slice along dim scaled down to norm maxnorm where its norm exceeds it."""
    if input.ndim < 2:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions"
        )
    d = wrap_dim(dim, input.ndim)
    others = tuple(i for i in range(input.ndim) if i != d)
    norms = norm(input, p=p, dim=others, keepdim=True)
    scale = (norms > maxnorm).to(input.dtype) * (maxnorm / (norms + 1e-7) - 1) + 1
    return input * scale


ReturnHistogram = return_type("histogram", ("hist", "bin_edges"))


@writes_out
def histogram(input, bins=100, *, range=None, weight=None, density=False):
    data = np.asarray(input._data).reshape(-1)
    edges_in = np.asarray(bins._data) if hasattr(bins, "_data") else bins
    w = None if weight is None else np.asarray(weight._data).reshape(-1)
    hist, edges = np.histogram(data, bins=edges_in, range=range, weights=w, density=density)
    return ReturnHistogram(make(hist.astype(data.dtype)), make(edges.astype(data.dtype)))


ReturnHistogramdd = return_type("histogramdd", ("hist", "bin_edges"))


@writes_out
def histogramdd(input, bins, *, range=None, weight=None, density=False):
    """Counts (or weights) of the points input's last dim makes, in an N-d grid of bins: N
    edge tensors, N bin counts or one (equal bins over each coordinate's range)."""
    data = np.asarray(input._data)
    if data.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if data.dtype.kind != "f":
        raise NotImplementedError(f'"histogramdd" not implemented for {dtype_word(input)!r}')
    points = data.reshape(-1, data.shape[-1])
    n = points.shape[1]
    bins = [bins] * n if isinstance(bins, int) else list(bins)
    if len(bins) != n:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    edges = [
        np.asarray(b._data) if hasattr(b, "_data") else _even_edges(points[:, d], b, range, d)
        for d, b in enumerate(bins)
    ]
    w = None if weight is None else np.asarray(weight._data).reshape(-1)
    hist = _bin_counts(points, edges, w)
    if density:
        hist = hist / cascade_sum(hist, None)
        for d, e in enumerate(edges):
            hist = hist / np.diff(e).reshape([-1 if i == d else 1 for i in builtins.range(n)])
    return ReturnHistogramdd(
        make(hist.astype(data.dtype)), tuple(make(e.astype(data.dtype)) for e in edges)
    )


def _bin_counts(points, edges, weight):
    """torch's kernel: each coordinate binned by std::upper_bound among its edges (the last
    bin holds its right edge), points outside the outer edges left out, added in order."""
    hist = np.zeros([e.size - 1 for e in edges], points.dtype)
    keep = np.ones(len(points), bool)
    where = []
    for d, e in enumerate(edges):
        x = points[:, d]
        keep &= (x >= e[0]) & (x <= e[-1])
        pos = _upper_bound(e, x) - 1
        where.append(np.where(pos == e.size - 1, pos - 1, pos))
    values = np.ones(len(points), points.dtype) if weight is None else weight
    np.add.at(hist, tuple(w[keep] for w in where), values[keep].astype(points.dtype))
    return hist


def _upper_bound(edges, x):
    """std::upper_bound's index of each x in edges: the same steps, sorted or not."""
    first, count = np.zeros(x.shape, np.int64), np.full(x.shape, edges.size, np.int64)
    while (count > 0).any():
        step = count // 2
        it = np.minimum(first + step, edges.size - 1)
        right = (count > 0) & ~(x < edges[it])
        first = np.where(right, it + 1, first)
        count = np.where(right, count - step - 1, np.where(count > 0, step, 0))
    return first


def _even_edges(column, count, range, d):
    """`count` + 1 edges over [min, max] of a coordinate (range's pair d if given), spaced as
    torch.linspace spaces them; an empty range widened by 0.5 each side, as numpy does."""
    from ..creation import linspace_values

    if range is not None:
        lo, hi = float(range[2 * d]), float(range[2 * d + 1])
    else:
        lo, hi = (float(column.min()), float(column.max())) if column.size else (0.0, 0.0)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return linspace_values(lo, hi, count + 1, column.dtype)


def hash_tensor(input, dim=None, *, keepdim=False, mode=0):
    """The xor of input's elements over dim (all of them without one), each first widened to
    64 bits (float64 or int64) and read as a uint64."""
    data = np.asarray(input._data)
    if mode != 0:
        raise RuntimeError(f"hash_tensor only supports mode=0 (xor_reduction), got {mode}")
    if dim is None and data.size == 0:
        raise RuntimeError(
            "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    wide = data.astype(np.float64 if data.dtype.kind == "f" else np.int64).view(np.uint64)
    axes = _axes(dim, data.ndim) if dim is None or np.ndim(dim) == 0 or len(dim) else None
    if not data.ndim:
        return make(wide.copy())
    for axis in axes if axes is not None else range(data.ndim):
        if not data.shape[axis]:
            raise IndexError(f"hash_tensor: Expected reduction dim {axis} to have non-zero size.")
    result = np.bitwise_xor.reduce(wide, axis=axes, keepdims=keepdim)
    return make(np.asarray(result, np.uint64))


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Estimates of the derivative along each dim (central differences inside, one-sided at
    the edges), as a tuple."""
    data = np.asarray(input._data)
    dims = range(data.ndim) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    steps = spacing if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    dims = _gradient_dims(data.shape, dims, steps, edge_order)
    out = []
    for d, h in zip(dims, steps, strict=True):
        g = np.gradient(data, getattr(h, "_data", h), axis=d, edge_order=edge_order)
        out.append(make(np.asarray(g, data.dtype if data.dtype.kind == "f" else default_float())))
    return tuple(out)


def _gradient_dims(shape, dims, steps, edge_order: int) -> list:
    """The dims torch.gradient differentiates along, after torch's checks of its arguments."""
    if len(steps) != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
            f"arguments to have the same length, but got a spacing argument of length "
            f"{len(steps)} and a dim argument of length {len(dims)}."
        )
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    wrapped = [wrap_dim(d, len(shape)) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        if shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    return wrapped


# -- recorded gradients (create_graph=True) --------------------------------------------------


def _unreduce(g, shape, axes, keepdim):
    if axes is not None and not keepdim and shape:
        for axis in sorted(axes):
            g = g.unsqueeze(axis)
    return g.expand(tuple(shape))


@rule(Sum)
def _sum(node, g):
    shape, axes, keepdim = node.info
    return _unreduce(g, shape, axes, keepdim)


@rule(Mean)
def _mean(node, g):
    shape, axes, keepdim = node.info
    count = math.prod([shape[i] for i in axes] if axes is not None else shape)
    return _unreduce(g / count, shape, axes, keepdim)


@rule(Softmax)
def _softmax(node, g):
    z = out(node)
    return z * (g - sum(g * z, dim=node.info, keepdim=True))


@rule(LogSoftmax)
def _log_softmax(node, g):
    return g - pointwise.exp(out(node)) * sum(g, dim=node.info, keepdim=True)


@rule(Prod)
def _prod(node, g):
    a = node._saved[0]
    return g * out(node) / inp(node, 0, a)  # the product of the others (inputs without zeros)


@rule(ProdDim)
def _prod_dim(node, g):
    (a,) = node._saved
    dim, keepdim = node.info
    z, g = out(node), g
    if not keepdim:
        z, g = z.unsqueeze(dim), g.unsqueeze(dim)
    return g * z / inp(node, 0, a)


@rule(Cumsum)
def _cumsum(node, g):
    dim = node.info
    return cumsum(g.flip((dim,)), dim).flip((dim,))


@rule(Var)
def _var(node, g):
    axes, keepdim, dof = node.info
    if node._next[0] is None:
        return None
    a = inp(node, 0)
    centre = mean(a, dim=axes, keepdim=True)
    return _unreduce(g, a.shape, axes, keepdim) * (a - centre) * (2 / dof)


@rule(Std)
def _std(node, g):
    axes, keepdim, dof = node.info
    if node._next[0] is None:
        return None
    a = inp(node, 0)
    centre = mean(a, dim=axes, keepdim=True)
    z = out(node)
    g = arithmetic.where(z == 0, 0.0, g / (z * 2))  # zero where the std is 0, as PyTorch
    return _unreduce(g, a.shape, axes, keepdim) * (a - centre) * (2 / dof)


@rule(Logsumexp)
def _logsumexp(node, g):
    a = inp(node, 0, node._saved[0])
    axes = node.info
    z, g = out(node), g
    if z.ndim != a.ndim:
        for axis in sorted(axes):
            z, g = z.unsqueeze(axis), g.unsqueeze(axis)
    return g * pointwise.exp(a - z)


@rule(Norm)
def _norm(node, g):
    a_data, _ = node._saved
    p, axes, keepdim = node.info
    a = inp(node, 0, a_data)
    z, g = out(node), g
    if not keepdim and axes is not None:
        for axis in sorted(axes):
            z, g = z.unsqueeze(axis), g.unsqueeze(axis)
    if p == 2:
        return g * a / z
    if p == 1:
        return g * mask(np.sign(a_data), g)
    raise RuntimeError(f"create_graph=True through the {p}-norm is not in autoviz yet")


@rule(MaxDim, MinDim, _PickedAlong)
def _recorded_along(node, g):
    shape, dim, keepdim, idx = node.info
    key = list(np.indices(idx.shape, sparse=True))
    key[dim] = idx
    return Scatter.apply(g if keepdim else g.unsqueeze(dim), shape=shape, key=tuple(key))


@rule(Amax, Amin, Median)
def _extreme_all(node, g):
    a, z = node._saved
    hit = np.isnan(a) if np.isnan(z) else a == z
    return g * mask(hit / np.sum(hit), g)
