"""The normal distribution: samples with torch's random numbers, log_prob with gradients."""

import math
import numbers
from typing import ClassVar

from .. import engine
from . import constraints
from .distribution import CentredAtLoc, Distribution, as_size, broadcast_all

_LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))


class Normal(CentredAtLoc, Distribution):
    """The normal distribution N(loc, scale²)."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
        super().__init__(() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def expand(self, batch_shape):
        return Normal(self.loc.expand(*batch_shape), self.scale.expand(*batch_shape), False)

    def sample(self, sample_shape=()):
        """torch.normal(loc, scale) over the extended shape, without gradients."""
        shape = self._extended_shape(as_size(sample_shape))
        with engine.no_grad():
            return engine.normal(self.loc.expand(*shape), self.scale.expand(*shape))

    def rsample(self, sample_shape=()):
        """loc + eps * scale with eps ~ N(0, 1): gradients reach loc and scale."""
        shape = self._extended_shape(as_size(sample_shape))
        eps = engine.zeros(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - _LOG_SQRT_2PI

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + engine.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * engine.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + engine.log(self.scale)
