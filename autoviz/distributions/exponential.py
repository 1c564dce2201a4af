"""The exponential distribution with rate λ."""

import numbers
from typing import ClassVar

from .. import engine
from . import constraints
from .distribution import as_size, broadcast_all
from .exp_family import ExponentialFamily


class Exponential(ExponentialFamily):
    """p(x) = λ exp(-λx) for x ≥ 0."""

    arg_constraints: ClassVar[dict] = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None) -> None:
        (self.rate,) = broadcast_all(rate)
        shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return engine.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        """exponential_() draws (as torch's kernel makes them) divided by the rate."""
        shape = self._extended_shape(as_size(sample_shape))
        return engine.empty(shape, dtype=self.rate.dtype).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()
