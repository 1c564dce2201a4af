"""Helpers the distributions share: parameter checks, probabilities and logits, gathering."""

import numpy as np

from .. import engine
from ..engine.ops.base import Op


def one_of(probs, logits) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def clamp_probs(probs):
    eps = float(np.finfo(probs._data.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def softplus(x):
    """log(1 + exp(x)) = m + log(exp(-m) + exp(x - m)) for any m; m = max(x, 0) keeps the
    exponentials from overflowing, and held constant it leaves the gradient σ(x) exact."""
    m = engine.relu(x).detach()
    return m + engine.log(engine.exp(-m) + engine.exp(x - m))


def logsumexp(x):
    """log Σ exp(x) over the last dimension, kept: the maximum taken out first, as torch does."""
    top = x.max(dim=-1, keepdim=True).values.detach()
    return top + (x - top).exp().sum(-1, keepdim=True).log()


class Gather(Op):
    """z = a.gather(-1, index);  dz/da = the gradient scattered back at index."""

    _backward_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, a, index=None):
        ctx.info = (np.shape(a), index)
        return np.take_along_axis(np.asarray(a), index, axis=-1)

    @staticmethod
    def backward(ctx, grad):
        shape, index = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        grids = np.indices(index.shape, sparse=True)
        np.add.at(full, (*grids[:-1], index), grad)
        return full


euler_constant = 0.57721566490153286060


def xlogy(x, y):
    """x · log y, 0 where x = 0 (as torch.xlogy)."""
    from ..engine.tensor import Tensor, make

    if not isinstance(x, Tensor):
        x = engine.tensor(float(x), dtype=y.dtype)
    zero = make(np.asarray(x._data) == 0)
    safe = engine.where(zero, engine.ones((), dtype=y.dtype), y)
    return engine.where(zero, engine.zeros((), dtype=y.dtype), x * safe.log())


def probs_to_logits(probs, is_binary=False):
    """log p (or log p - log(1 - p) for binary probabilities), probs clamped first."""
    ps = clamp_probs(probs)
    return ps.log() - (-ps).log1p() if is_binary else ps.log()


def logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else logits.softmax(-1)


def standard_normal(shape, dtype):
    """torch.distributions.utils._standard_normal: N(0, 1) draws of shape."""
    return engine.zeros(tuple(shape), dtype=dtype).normal_()


def sum_rightmost(value, dim: int):
    if dim == 0:
        return value
    return value.reshape(*value.shape[: value.ndim - dim], -1).sum(-1)


def _tril_mask(n: int, diag: int):
    rows = engine.arange(n)
    return rows < rows.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The lower triangle's elements (from diagonal `diag` down), row after row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag: int = 0):
    """The D × D lower-triangular matrix whose triangle, row after row, is vec."""
    m = vec.shape[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > float(np.finfo(vec._data.dtype).eps):
        raise ValueError(
            f"The size of last dimension is {m} which cannot be expressed as the lower "
            "triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros((*vec.shape[:-1], n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
