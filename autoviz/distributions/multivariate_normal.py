"""The multivariate normal distribution, parameterised by a covariance, precision or
Cholesky factor of the covariance."""

import math
from typing import ClassVar

import numpy as np

from ..engine import creation
from ..engine.ops import linalg
from ..engine.ops import shape as shape_ops
from . import constraints
from .distribution import CentredAtLoc, Distribution, as_size, lazy_property
from .utils import standard_normal


def batch_mv(matrix, vector):
    """matrix @ vector over broadcast batches."""
    return (matrix @ vector.unsqueeze(-1)).squeeze(-1)


def batch_mahalanobis(tril, x):
    """xᵀ (L Lᵀ)⁻¹ x for each vector x, by one triangular solve with L (batches broadcast)."""
    solved = linalg.solve_triangular(tril, x.unsqueeze(-1), upper=False)
    return solved.squeeze(-1).pow(2).sum(-1)


def precision_to_scale_tril(precision):
    """The lower factor of P⁻¹ from P's Cholesky factor of the flipped matrix (no inverse)."""
    flipped = linalg.cholesky(shape_ops.flip(precision, (-2, -1)))
    l_inv = shape_ops.flip(flipped, (-2, -1)).mT
    eye = creation.eye(precision.shape[-1], dtype=precision.dtype)
    return linalg.solve_triangular(l_inv, eye, upper=False)


class MultivariateNormal(CentredAtLoc, Distribution):
    """N(loc, Σ) in k dimensions."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc,
        covariance_matrix=None,
        precision_matrix=None,
        scale_tril=None,
        validate_args=None,
    ):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        if scale_tril is not None:
            self.scale_tril = scale_tril
            self._unbroadcasted_scale_tril = scale_tril
            matrix = scale_tril
        elif covariance_matrix is not None:
            self.covariance_matrix = covariance_matrix
            self._unbroadcasted_scale_tril = linalg.cholesky(covariance_matrix)
            matrix = covariance_matrix
        else:
            self.precision_matrix = precision_matrix
            self._unbroadcasted_scale_tril = precision_to_scale_tril(precision_matrix)
            matrix = precision_matrix
        batch = np.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(loc.shape[:-1]))
        self.loc = loc.expand(*batch, -1) if tuple(loc.shape[:-1]) != batch else loc
        super().__init__(batch, loc.shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """torch's: loc and the given matrices expanded, the Cholesky factor shared."""
        batch = tuple(as_size(batch_shape))
        new = object.__new__(MultivariateNormal)
        new.__dict__.update(self.__dict__)
        new.loc = self.loc.expand(*batch, *self._event_shape)
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand(
                    *batch, *self._event_shape, *self._event_shape
                )
        new._batch_shape = as_size(batch)
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(
            *self._batch_shape, *self._event_shape, *self._event_shape
        )

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return (tril @ tril.mT).expand(*self._batch_shape, *self._event_shape, *self._event_shape)

    @lazy_property
    def precision_matrix(self):
        return linalg.cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            *self._batch_shape, *self._event_shape, *self._event_shape
        )

    @property
    def variance(self):
        return (
            self._unbroadcasted_scale_tril.pow(2)
            .sum(-1)
            .expand(*self._batch_shape, *self._event_shape)
        )

    def rsample(self, sample_shape=()):
        """loc + L ε with ε standard normal draws, as torch composes it."""
        shape = self._extended_shape(as_size(sample_shape))
        eps = standard_normal(shape, self.loc.dtype)
        return self.loc + batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        m = batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + m) - half_log_det

    def entropy(self):
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + half_log_det
        return h if len(self._batch_shape) == 0 else h.expand(*self._batch_shape)
