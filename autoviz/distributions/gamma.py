"""The gamma distribution, sampled with PyTorch's CPU sampler (Marsaglia and Tsang)."""

import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.ops.special import digamma, lgamma
from ..engine.tensor import make
from . import constraints
from ._samplers import standard_gamma
from .distribution import as_size, broadcast_all
from .exp_family import ExponentialFamily
from .utils import xlogy


def gamma_sample(concentration, rate, shape):
    """_standard_gamma(concentration) / rate, with no gradient to the concentration (autoviz
    has no implicit reparameterisation of the gamma sampler: it says so when asked)."""
    if concentration.requires_grad and engine.is_grad_enabled():
        raise NotImplementedError(
            "autoviz: rsample of a gamma-based distribution cannot differentiate with "
            "respect to its concentration yet (use sample(), or a concentration without grad)"
        )
    # np.array, not np.ascontiguousarray: that makes a 0-d array 1-d (a sample of shape [1])
    alpha = np.array(np.broadcast_to(concentration._data, tuple(shape)), order="C")
    draws = make(standard_gamma(alpha))
    value = draws / rate.expand(*shape)
    tiny = float(np.finfo(value._data.dtype).tiny)
    value._storage()[...] = np.maximum(value._data, tiny)
    return value


class Gamma(ExponentialFamily):
    """p(x) = rate^α x^(α-1) exp(-rate x) / Γ(α) for x > 0."""

    arg_constraints: ClassVar[dict] = {
        "concentration": constraints.positive,
        "rate": constraints.positive,
    }
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalar = isinstance(concentration, numbers.Number) and isinstance(rate, numbers.Number)
        super().__init__(() if scalar else self.concentration.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        return gamma_sample(self.concentration, self.rate, shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = (
            value
            if isinstance(value, engine.Tensor)
            else engine.tensor(value, dtype=self.rate.dtype)
        )
        return (
            xlogy(self.concentration, self.rate)
            + xlogy(self.concentration - 1, value)
            - self.rate * value
            - lgamma(self.concentration)
        )

    def cdf(self, value):
        from ..engine.ops.special import igamma as gammainc

        if self._validate_args:
            self._validate_sample(value)
        return gammainc(self.concentration, self.rate * value)

    def entropy(self):
        c = self.concentration
        return c - self.rate.log() + lgamma(c) + (1.0 - c) * digamma(c)
