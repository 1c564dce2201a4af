"""The negative binomial distribution: successes before total_count failures."""

from typing import ClassVar

from .. import engine
from ..engine.ops.special import lgamma
from . import constraints
from .distribution import (
    BinaryParameter,
    Distribution,
    as_size,
    broadcast_all,
)
from .gamma import Gamma
from .poisson import Poisson
from .utils import one_of


class NegativeBinomial(BinaryParameter, Distribution):
    """P(k) = C(k + r - 1, k) p^k (1 - p)^r, r = total_count."""

    arg_constraints: ClassVar[dict] = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None) -> None:
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
        super().__init__(param.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.total_count * self.logits.exp()

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / engine.sigmoid(-self.logits)

    def sample(self, sample_shape=()):
        """Poisson counts of Gamma(total_count, exp(-logits)) rates, as torch composes it."""
        with engine.no_grad():
            rate = Gamma(self.total_count, (-self.logits).exp(), validate_args=False).sample(
                as_size(sample_shape)
            )
            return Poisson(rate, validate_args=False).sample()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        from ..nn.functional import logsigmoid

        log_unnormalized = self.total_count * logsigmoid(-self.logits) + value * logsigmoid(
            self.logits
        )
        log_normalization = (
            -lgamma(self.total_count + value) + lgamma(1.0 + value) + lgamma(self.total_count)
        )
        zero = engine.tensor((self.total_count._data + value._data) == 0)
        log_normalization = engine.where(
            zero, engine.zeros((), dtype=log_normalization.dtype), log_normalization
        )
        return log_unnormalized - log_normalization
