"""The Fisher-Snedecor (F) distribution: a ratio of scaled chi-squared variables."""

import math
import numbers
from typing import ClassVar

import numpy as np

from ..engine.ops.special import lgamma
from . import constraints
from .distribution import Distribution, as_size, broadcast_all
from .gamma import Gamma


class FisherSnedecor(Distribution):
    """(X1 / df1) / (X2 / df2) for X1 ~ χ²(df1), X2 ~ χ²(df2)."""

    arg_constraints: ClassVar[dict] = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None) -> None:
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        scalar = isinstance(df1, numbers.Number) and isinstance(df2, numbers.Number)
        super().__init__(() if scalar else self.df1.size(), validate_args=validate_args)

    @property
    def mean(self):
        df2 = self.df2.clone()
        df2._storage()[df2._data <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode._storage()[self.df1._data <= 2] = math.nan
        return mode

    @property
    def variance(self):
        df2 = self.df2.clone()
        df2._storage()[df2._data <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        x1 = self._gamma1.rsample(as_size(sample_shape)).view(*shape)
        x2 = self._gamma2.rsample(as_size(sample_shape)).view(*shape)
        tiny = float(np.finfo(x2._data.dtype).tiny)
        x2._storage()[...] = np.maximum(x2._data, tiny)
        y = x1 / x2
        y._storage()[...] = np.maximum(y._data, tiny)
        return y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2 = self.df1 * 0.5, self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = lgamma(ct1 + ct2) - lgamma(ct1) - lgamma(ct2)
        t2 = ct1 * ct3.log() + (ct1 - 1) * value.log()
        t3 = (ct1 + ct2) * (ct3 * value).log1p()
        return t1 + t2 - t3
