"""The Poisson distribution, sampled with PyTorch's CPU sampler."""

import numbers
from typing import ClassVar

import numpy as np

from ..engine.ops.special import lgamma
from ..engine.tensor import make
from . import constraints
from ._samplers import poisson
from .distribution import as_size, broadcast_all
from .exp_family import ExponentialFamily
from .utils import xlogy


class Poisson(ExponentialFamily):
    """P(k) = rate^k exp(-rate) / k!."""

    arg_constraints: ClassVar[dict] = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None) -> None:
        (self.rate,) = broadcast_all(rate)
        shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        rates = np.array(np.broadcast_to(self.rate._data, tuple(shape)), order="C")
        return make(poisson(rates))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return xlogy(value, rate) - rate - lgamma(value + 1)
