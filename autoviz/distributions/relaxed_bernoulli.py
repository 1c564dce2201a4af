"""The relaxed (concrete) Bernoulli distribution: a differentiable stand-in for coin flips."""

import numbers
from typing import ClassVar

from .. import engine
from . import constraints
from .distribution import Distribution, as_size, broadcast_all, lazy_property
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .utils import clamp_probs, logits_to_probs, one_of, probs_to_logits


class LogitRelaxedBernoulli(Distribution):
    """(logit u + logit p) / temperature for u uniform: the relaxed flip's logit."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self.temperature = temperature
        one_of(probs, logits)
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        self.__dict__["probs" if probs is not None else "logits"] = param
        shape = () if isinstance(given, numbers.Number) else param.size()
        super().__init__(shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        probs = clamp_probs(self.probs.expand(*shape))
        uniforms = clamp_probs(engine.rand(tuple(shape), dtype=probs.dtype))
        return (
            uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()
        ) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value * self.temperature
        temperature = (
            self.temperature
            if isinstance(self.temperature, engine.Tensor)
            else engine.tensor(float(self.temperature))
        )
        return temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """sigmoid of a LogitRelaxedBernoulli: values in (0, 1) near 0 and 1 at low temperature."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
