"""The binomial distribution, sampled with PyTorch's CPU sampler (BTRS or inversion)."""

import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.ops.special import lgamma
from ..engine.tensor import make
from . import constraints
from ._samplers import binomial
from .distribution import (
    BinaryParameter,
    Distribution,
    as_size,
    broadcast_all,
)
from .utils import one_of


class Binomial(BinaryParameter, Distribution):
    """The number of successes in total_count trials of probability probs."""

    arg_constraints: ClassVar[dict] = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        one_of(probs, logits)
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
            param = self.probs
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
            param = self.logits
        self._param = param
        scalar = isinstance(probs if probs is not None else logits, numbers.Number)
        super().__init__(() if scalar else param.size(), validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = tuple(self._extended_shape(as_size(sample_shape)))
        counts = np.array(np.broadcast_to(self.total_count._data, shape), order="C")
        probs = np.array(np.broadcast_to(self.probs._data, shape), order="C")
        return make(binomial(counts, probs))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        log_factorial_n = lgamma(n + 1)
        log_factorial_k = lgamma(value + 1)
        log_factorial_nmk = lgamma(n - value + 1)
        logits = self.logits
        normalize_term = (
            n * logits.clamp(min=0) + n * (-logits.abs()).exp().log1p() - log_factorial_n
        )
        return value * logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self):
        total = int(self.total_count.max().item())
        if int(self.total_count.min().item()) != total:
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total = int(self.total_count.max().item())
        values = engine.arange(1 + total, dtype=self._param.dtype)
        values = values.reshape((-1,) + (1,) * len(self._batch_shape))
        return values.expand(-1, *self._batch_shape) if expand else values
