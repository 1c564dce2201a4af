"""Student's t distribution with df degrees of freedom."""

import math
import numbers
from typing import ClassVar

from ..engine.ops.special import lgamma
from . import constraints
from .chi2 import Chi2
from .distribution import Distribution, as_size, broadcast_all
from .utils import standard_normal


class StudentT(Distribution):
    """A normal divided by √(χ²_df / df), shifted by loc and scaled by scale."""

    arg_constraints: ClassVar[dict] = {
        "df": constraints.positive,
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        scalar = all(isinstance(v, numbers.Number) for v in (df, loc, scale))
        super().__init__(() if scalar else self.df.size(), validate_args=validate_args)

    @property
    def mean(self):
        m = self.loc.clone()
        m._storage()[self.df._data <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        m = (self.scale.pow(2) * self.df / (self.df - 2)).clone()
        df = self.df._data
        m._storage()[(df <= 2) & (df > 1)] = math.inf
        m._storage()[df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=()):
        """loc + scale · X / √(Z / df), X normal and Z chi-squared draws, as torch composes it."""
        shape = self._extended_shape(as_size(sample_shape))
        x = standard_normal(shape, self.df.dtype)
        z = self._chi2.rsample(as_size(sample_shape))
        return self.loc + self.scale * (x * (z / self.df).rsqrt())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + lgamma(0.5 * self.df)
            - lgamma(0.5 * (self.df + 1.0))
        )
        return -0.5 * (self.df + 1.0) * (y**2 / self.df).log1p() - z

    def entropy(self):
        from ..engine.ops.special import digamma

        lbeta = lgamma(0.5 * self.df) + math.lgamma(0.5) - lgamma(0.5 * (self.df + 1))
        return (
            self.scale.log()
            + 0.5 * (self.df + 1) * (digamma(0.5 * (self.df + 1)) - digamma(0.5 * self.df))
            + 0.5 * self.df.log()
            + lbeta
        )
