"""The Wishart distribution over positive-definite matrices: sampled by Bartlett's
decomposition with torch's draws (and torch's resampling of the samples its support check
flags), scored with gradients through the Cholesky factor of the scale."""

import math
import numbers
import warnings

import numpy as np

from .. import engine
from ..engine.ops import linalg
from ..engine.ops.special import digamma, mvlgamma
from . import constraints
from .chi2 import Chi2
from .distribution import as_size, lazy_property
from .exp_family import ExponentialFamily
from .multivariate_normal import precision_to_scale_tril

_LOG_2 = math.log(2)


def _mvdigamma(x, p: int):
    """Σ_j digamma(x - j/2), j = 0 … p-1 (the multivariate digamma, as torch's Wishart has it)."""
    return digamma(x.unsqueeze(-1) - engine.arange(p, dtype=x.dtype) / 2).sum(-1)


class Wishart(ExponentialFamily):
    """W(Σ, ν): the scatter matrix of ν normal vectors with covariance Σ = L Lᵀ."""

    support = constraints.positive_definite
    has_rsample = True

    @property
    def arg_constraints(self):
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None
    ):
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise AssertionError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        (param,) = given
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if isinstance(df, numbers.Number):
            batch = tuple(param.shape[:-2])
            self.df = engine.tensor(df, dtype=param.dtype)
        else:
            batch = np.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape))
            self.df = df.expand(*batch)
        event = tuple(param.shape[-2:])
        if bool(self.df.le(event[-1] - 1).any()):
            raise ValueError(
                f"Value of df={df} expected to be greater than ndim - 1 = {event[-1] - 1}."
            )
        name = (
            "scale_tril"
            if scale_tril is not None
            else "covariance_matrix"
            if covariance_matrix is not None
            else "precision_matrix"
        )
        setattr(self, name, param.expand(*batch, -1, -1))
        if bool(self.df.lt(event[-1]).any()):
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch, event, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._chi2(batch)

    def _chi2(self, batch):
        """The diagonal's squares: χ²(ν - i) for row i."""
        p = self._event_shape[-1]
        steps = engine.arange(p, dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(self.df.unsqueeze(-1) - steps.expand(*batch, -1))

    def expand(self, batch_shape, _instance=None):
        batch = tuple(as_size(batch_shape))
        new = object.__new__(Wishart)
        new.__dict__.update(self.__dict__)
        full = (*batch, *self._event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(*full)
        new.df = self.df.expand(*batch)
        new._batch_dims = [-(x + 1) for x in range(len(batch))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand(*full)
        new._batch_shape = as_size(batch)
        new._dist_chi2 = new._chi2(batch)
        return new

    def _full(self, matrix):
        return matrix.expand(*self._batch_shape, *self._event_shape)

    @lazy_property
    def scale_tril(self):
        return self._full(self._unbroadcasted_scale_tril)

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return self._full(tril @ tril.transpose(-2, -1))

    @lazy_property
    def precision_matrix(self):
        eye = engine.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return self._full(linalg.cholesky_solve(eye, self._unbroadcasted_scale_tril))

    def _df(self):
        return self.df.view(*self._batch_shape, 1, 1)

    @property
    def mean(self):
        return self._df() * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(*self._batch_shape, 1, 1) * self.covariance_matrix

    @property
    def variance(self):
        v = self.covariance_matrix
        diag = v.diagonal(dim1=-2, dim2=-1)
        return self._df() * (v.pow(2) + engine.einsum("...i,...j->...ij", diag, diag))

    def _bartlett_sampling(self, sample_shape=()):
        """L A (L A)ᵀ with A lower triangular: √χ² on the diagonal, normals below it."""
        p = self._event_shape[-1]
        chi = self._dist_chi2.rsample(sample_shape).sqrt()
        noise = chi.clamp(min=float(np.finfo(chi._data.dtype).eps)).diag_embed(dim1=-2, dim2=-1)
        i, j = engine.tril_indices(p, p, offset=-1)
        shape = (*as_size(sample_shape), *self._batch_shape, p * (p - 1) // 2)
        noise[..., i, j] = engine.randn(*shape, dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=(), max_try_correction=None):
        """Bartlett's samples, redrawn as torch redraws them: torch 2.13 flags the samples its
        support check passes (so it warns "Singular sample detected." and draws each once
        more), and autoviz draws what torch draws."""
        tries = 10 if max_try_correction is None else max_try_correction
        sample_shape = as_size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        flagged = self.support.check(sample)
        if self._batch_shape:
            flagged = flagged.amax(self._batch_dims)
        if bool(flagged.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(tries):
                fresh = self._bartlett_sampling(flagged[flagged].shape)
                sample[flagged] = fresh
                fresh_flags = ~self.support.check(fresh)
                if self._batch_shape:
                    fresh_flags = fresh_flags.amax(self._batch_dims)
                flagged[flagged.clone()] = fresh_flags
                if not bool(flagged.any()):
                    break
        return sample

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        tril = self._unbroadcasted_scale_tril
        half_log_det = tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        trace = linalg.cholesky_solve(value, tril).diagonal(dim1=-2, dim2=-1).sum(dim=-1)
        return (
            -nu * (p * _LOG_2 / 2 + half_log_det)
            - mvlgamma(nu / 2, p)
            + (nu - p - 1) / 2 * linalg.slogdet(value).logabsdet
            - trace / 2
        )

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return (
            (p + 1) * (p * _LOG_2 / 2 + half_log_det)
            + mvlgamma(nu / 2, p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p)
            + nu * p / 2
        )

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p) + mvlgamma(
            y + (p + 1) / 2, p
        )
