"""Distances between rows: pairwise_distance, cosine_similarity and pdist."""

import numpy as np

from .. import ops


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """‖x1 - x2 + eps‖_p along the last axis, as PyTorch composes it."""
    dim = max(x1.ndim, x2.ndim) - 1
    return ops.NormDim.apply(x1 - x2 + eps, p=p, dim=dim, keepdim=keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Σ (x1 / ‖x1‖) (x2 / ‖x2‖) along dim, each norm at least eps."""

    def unit(x):
        norm = x.norm(2, dim, True).clone()
        norm._storage()[...] = np.maximum(norm._data, norm._data.dtype.type(eps))
        return x / norm

    return (unit(x1) * unit(x2)).sum(dim)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows i < j, as one flat vector."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    return ops.Pdist.apply(input, p=p)
