"""Ready-made parametrizations: weight_norm, spectral_norm and orthogonal."""

import numpy as np

from ...engine.grad_mode import no_grad
from ...engine.tensor import make
from ..modules.module import Module
from . import parametrize


def norm_except_dim(v, dim: int):
    """‖v‖ over every axis but dim (all axes for dim=None or -1), kept broadcastable."""
    if dim is None or dim == -1:
        return v.norm()
    axes = tuple(i for i in range(v.ndim) if i != dim % v.ndim)
    return v.norm(2, axes, True)


class _WeightNorm(Module):
    def __init__(self, dim=0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_v * (weight_g / norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight):
        return norm_except_dim(weight, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """w = g · v / ‖v‖: direction and length learnt separately (original0 = g, original1 = v)."""
    return parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)


class _SpectralNorm(Module):
    """w / σ(w), σ estimated by power iteration (n_power_iterations per training forward)."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps, self.n_power_iterations = eps, n_power_iterations
        if ndim > 1:
            mat = self._matrix(weight)
            h, w = mat.shape
            u = make(np.empty(h, mat._data.dtype)).normal_(0, 1)
            v = make(np.empty(w, mat._data.dtype)).normal_(0, 1)
            self.register_buffer("_u", _unit(u, eps))
            self.register_buffer("_v", _unit(v, eps))
            self._power_method(mat, 15)

    def _matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, mat, iterations) -> None:
        with no_grad():
            for _ in range(iterations):
                self._u._storage()[...] = _unit(make(mat._data @ self._v._data), self.eps)._data
                self._v._storage()[...] = _unit(make(mat._data.T @ self._u._data), self.eps)._data

    def forward(self, weight):
        if weight.ndim == 1:
            return weight / weight.norm().clamp_min(self.eps)
        mat = self._matrix(weight)
        if self.training:
            self._power_method(mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = (u * (mat @ v)).sum()
        return weight / sigma

    def right_inverse(self, value):
        return value


def _unit(x, eps):
    norm = max(float(np.linalg.norm(x._data)), eps)
    return make((x._data / norm).astype(x._data.dtype))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide the weight by its largest singular value (estimated), as in GAN critics."""
    weight = getattr(module, name)
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    return parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )


class _Orthogonal(Module):
    """An orthogonal matrix (or one with orthonormal rows/columns) from the original,
    by the QR factorisation."""

    def forward(self, x):
        transpose = x.shape[-2] < x.shape[-1]
        a = x.mT if transpose else x
        q, r = np.linalg.qr(np.asarray(a._data, np.float64))
        q = q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
        q = make(q.astype(x._data.dtype))
        return q.mT if transpose else q

    def right_inverse(self, value):
        return value


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Constrain a matrix to be orthogonal (its columns or rows orthonormal)."""
    weight = getattr(module, name)
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )
    return parametrize.register_parametrization(module, name, _Orthogonal(), unsafe=True)
