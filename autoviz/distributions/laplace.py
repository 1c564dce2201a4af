"""The Laplace distribution (double exponential)."""

import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from . import constraints
from .distribution import CentredAtLoc, Distribution, as_size, broadcast_all


class Laplace(CentredAtLoc, Distribution):
    """p(x) = exp(-|x - loc| / scale) / (2 scale)."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
        super().__init__(() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2**0.5) * self.scale

    def rsample(self, sample_shape=()):
        """loc - scale · sign(u) · log(1 - |u|) for u uniform on (eps - 1, 1)."""
        shape = self._extended_shape(as_size(sample_shape))
        eps = float(np.finfo(self.loc._data.dtype).eps)
        u = engine.empty(shape, dtype=self.loc.dtype).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        return (
            0.5 - 0.5 * (value - self.loc).sign() * (-(value - self.loc).abs() / self.scale).expm1()
        )

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()
