"""The Cauchy distribution (a Student's t with one degree of freedom)."""

import math
import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.fidelity.random import default_generator, unit_float64
from ..engine.tensor import make
from . import constraints
from .distribution import Distribution, as_size, broadcast_all


def standard_cauchy(shape, dtype):
    """cauchy_(): tan(π(u - ½)) of a double uniform per element, as torch's kernel draws it."""
    n = math.prod(shape)
    u = unit_float64(default_generator, n)
    return make(np.tan(math.pi * (u - 0.5)).astype(dtype.numpy).reshape(shape))


class Cauchy(Distribution):
    """p(x) = 1 / (π scale (1 + ((x - loc) / scale)²))."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
        super().__init__(() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return engine.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return engine.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        return self.loc + standard_cauchy(tuple(shape), self.loc.dtype) * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (
            -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()
        )

    def cdf(self, value):
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value):
        return ((value - 0.5) * math.pi).tan() * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
