"""The uniform distribution on [low, high)."""

import math
import numbers

from .. import engine
from . import constraints
from .distribution import Distribution, as_size, broadcast_all


class Uniform(Distribution):
    """The uniform distribution on [low, high)."""

    has_rsample = True

    @property
    def arg_constraints(self):
        return {
            "low": constraints.less_than(self.high),
            "high": constraints.greater_than(self.low),
        }

    def __init__(self, low, high, validate_args=None) -> None:
        self.low, self.high = broadcast_all(low, high)
        scalar = isinstance(low, numbers.Number) and isinstance(high, numbers.Number)
        super().__init__(() if scalar else self.low.size(), validate_args=validate_args)

    @property
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def stddev(self):
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        """low + rand * (high - low), rand as torch.rand draws it."""
        shape = self._extended_shape(as_size(sample_shape))
        rand = engine.rand(shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        inside = (self.low <= value) & (self.high > value)
        return engine.log(inside.to(self.low.dtype)) - engine.log(self.high - self.low)

    @property
    def mode(self):
        return math.nan * self.high

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return engine.log(self.high - self.low)
