"""The multivariate normal whose covariance is low rank plus diagonal, W Wᵀ + D: scored through
the small capacitance matrix I + Wᵀ D⁻¹ W (Woodbury's identity and the determinant lemma)."""

import math
from typing import ClassVar

from .. import engine
from ..engine.ops import linalg
from . import constraints
from .distribution import CentredAtLoc, Distribution, as_size, lazy_property
from .multivariate_normal import batch_mahalanobis, batch_mv
from .utils import standard_normal


def _with_identity(k):
    """k + I (k a batch of square matrices)."""
    return k + engine.eye(k.shape[-1], dtype=k.dtype)


def capacitance_tril(w, d):
    """The Cholesky factor of I + Wᵀ D⁻¹ W."""
    return linalg.cholesky(_with_identity((w.mT / d.unsqueeze(-2)) @ w))


def lowrank_logdet(w, d, tril):
    """log |W Wᵀ + D| = log |I + Wᵀ D⁻¹ W| + log |D|."""
    return 2 * tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + d.log().sum(-1)


def lowrank_mahalanobis(w, d, x, tril):
    """xᵀ (W Wᵀ + D)⁻¹ x = xᵀ D⁻¹ x - |C⁻¹ Wᵀ D⁻¹ x|², C the capacitance's factor."""
    projected = batch_mv(w.mT / d.unsqueeze(-2), x)
    return (x.pow(2) / d).sum(-1) - batch_mahalanobis(tril, projected)


class LowRankMultivariateNormal(CentredAtLoc, Distribution):
    """N(loc, W Wᵀ + diag(D)) with W = cov_factor (n × rank) and D = cov_diag."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real_vector,
        "cov_factor": constraints.independent(constraints.real, 2),
        "cov_diag": constraints.independent(constraints.positive, 1),
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event = tuple(loc.shape[-1:])
        if cov_factor.dim() < 2:
            raise ValueError(
                "cov_factor must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if tuple(cov_factor.shape[-2:-1]) != event:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event[0]} x m")
        if tuple(cov_diag.shape[-1:]) != event:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {as_size(event)}")
        try:
            loc_, self.cov_factor, diag_ = engine.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1)
            )
        except RuntimeError as error:
            raise ValueError(
                f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, "
                f"cov_diag {cov_diag.shape}"
            ) from error
        self.loc, self.cov_diag = loc_[..., 0], diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch = tuple(as_size(batch_shape))
        new = object.__new__(LowRankMultivariateNormal)
        new.__dict__.update(self.__dict__)
        new.loc = self.loc.expand(*batch, *self._event_shape)
        new.cov_diag = self.cov_diag.expand(*batch, *self._event_shape)
        new.cov_factor = self.cov_factor.expand(
            *batch, *self._event_shape, self.cov_factor.shape[-1]
        )
        for name in ("variance", "scale_tril", "covariance_matrix", "precision_matrix"):
            new.__dict__.pop(name, None)
        new._batch_shape = as_size(batch)
        return new

    @lazy_property
    def variance(self):
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (w.pow(2).sum(-1) + d).expand(*self._batch_shape, *self._event_shape)

    def _full(self, matrix):
        return matrix.expand(*self._batch_shape, *self._event_shape, *self._event_shape)

    @lazy_property
    def scale_tril(self):
        """D^½ times the factor of I + D^-½ W Wᵀ D^-½ (never W Wᵀ + D itself)."""
        root = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / root
        return self._full(root * linalg.cholesky(_with_identity(scaled @ scaled.mT)))

    @lazy_property
    def covariance_matrix(self):
        w = self._unbroadcasted_cov_factor
        return self._full(w @ w.mT + engine.diag_embed(self._unbroadcasted_cov_diag))

    @lazy_property
    def precision_matrix(self):
        """D⁻¹ - Aᵀ A with A = C⁻¹ Wᵀ D⁻¹ (Woodbury)."""
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        a = linalg.solve_triangular(self._capacitance_tril, w.mT / d.unsqueeze(-2), upper=False)
        return self._full(engine.diag_embed(d.reciprocal()) - a.mT @ a)

    def rsample(self, sample_shape=()):
        """loc + W ε_W + D^½ ε_D, the rank-sized draws first, as torch draws them."""
        shape = self._extended_shape(as_size(sample_shape))
        eps_w = standard_normal((*shape[:-1], self.cov_factor.shape[-1]), self.loc.dtype)
        eps_d = standard_normal(shape, self.loc.dtype)
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return self.loc + batch_mv(w, eps_w) + d.sqrt() * eps_d

    def _log_det(self):
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return lowrank_logdet(w, d, self._capacitance_tril)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        m = lowrank_mahalanobis(w, d, value - self.loc, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._log_det() + m)

    def entropy(self):
        h = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return h if len(self._batch_shape) == 0 else h.expand(*self._batch_shape)
