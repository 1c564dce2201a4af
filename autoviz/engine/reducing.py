"""Reductions beyond sum and mean (var, std, norm, prod, cumsum, logsumexp, all, any) and the
whole-tensor comparisons (equal, allclose, isclose), with PyTorch's signatures."""

import math
import warnings

import numpy as np

from . import reductions
from .keywords import into
from .shape_ops import wrap_dim
from .tensor import Tensor, make


def _dim(dim, axis):
    return axis if axis is not None else dim


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
    axes = reductions._axes(dim, input.ndim)
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
    dim = _dim(dim, axis)
    return _spread(reductions.Var, "var", input, dim, unbiased, keepdim, keepdims, correction, out)


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
    dim = _dim(dim, axis)
    return _spread(reductions.Std, "std", input, dim, unbiased, keepdim, keepdims, correction, out)


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
            f"{_DTYPE_WORDS.get(input._data.dtype.name, input._data.dtype.name)}"
        )
    result = reductions.Norm.apply(input, p=float(p), dim=dim, keepdim=keepdim)
    return _done(result, out, "norm")


def _promoted(input):
    """Integers and bools are summed and multiplied as int64, as PyTorch does."""
    return input.to(np.int64) if input._data.dtype.kind in "biu" else input


def cumsum(input, dim=None, *, dtype=None, out=None, axis=None):
    dim = _dim(dim, axis)
    if dim is None:
        raise TypeError('cumsum() missing 1 required positional arguments: "dim"')
    input = input.to(dtype) if dtype is not None else _promoted(input)
    result = reductions.Cumsum.apply(input, dim=wrap_dim(dim, input.ndim))
    return _done(result, out, "cumsum")


def prod(input, dim=None, keepdim=False, *, dtype=None, out=None, axis=None, keepdims=None):
    dim = _dim(dim, axis)
    input = input.to(dtype) if dtype is not None else _promoted(input)
    if dim is None:
        return _done(reductions.Prod.apply(input), out, "prod")
    result = reductions.ProdDim.apply(
        input, dim=wrap_dim(dim, input.ndim), keepdim=_keep(keepdim, keepdims)
    )
    return _done(result, out, "prod")


def logsumexp(input, dim, keepdim=False, *, out=None, axis=None, keepdims=None):
    result = reductions.Logsumexp.apply(
        input, dim=_dim(dim, axis), keepdim=_keep(keepdim, keepdims)
    )
    return _done(result, out, "logsumexp")


def _truth(find, input, dim, keepdim, out, name):
    data = np.asarray(input._data)
    if dim is None:
        result = make(np.asarray(find(data)))
    else:
        axes = reductions._axes(dim, data.ndim)
        result = make(np.asarray(find(data, axis=axes, keepdims=keepdim)))
    if data.dtype == np.uint8:  # PyTorch keeps uint8 for uint8 input
        result = make(result._data.astype(np.uint8))
    return _done(result, out, name)


def all(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _truth(np.all, input, _dim(dim, axis), _keep(keepdim, keepdims), out, "all")


def any(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _truth(np.any, input, _dim(dim, axis), _keep(keepdim, keepdims), out, "any")


def equal(input, other) -> bool:
    """True when both have the same shape and the same values (dtypes may differ)."""
    a, b = np.asarray(input._data), np.asarray(other._data)
    return a.shape == b.shape and bool(np.all(a == b))


_DTYPE_WORDS = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long"}


def _same_dtype(a, b) -> None:
    ta, tb = np.result_type(a._data), np.result_type(b._data)
    if ta != tb:
        words = [_DTYPE_WORDS.get(t.name, t.name) for t in (ta, tb)]
        raise RuntimeError(f"{words[0]} did not match {words[1]}")


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise."""
    other = other if isinstance(other, Tensor) else make(np.asarray(other))
    _same_dtype(input, other)
    close = np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return make(np.asarray(close))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.all(isclose(input, other, rtol, atol, equal_nan)._data))
