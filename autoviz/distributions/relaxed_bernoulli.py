"""The relaxed (concrete) Bernoulli distribution: a differentiable stand-in for coin flips."""

from typing import ClassVar

from .. import engine
from . import constraints
from ._relaxed import RelaxedTransformed, temperature_tensor
from .distribution import (
    BinaryParameter,
    Distribution,
    as_size,
    broadcast_all,
    store_probs_or_logits,
)
from .transforms import SigmoidTransform
from .utils import clamp_probs


class LogitRelaxedBernoulli(BinaryParameter, Distribution):
    """(logit u + logit p) / temperature for u uniform: the relaxed flip's logit."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self.temperature = temperature
        _, shape = store_probs_or_logits(self, probs, logits)
        super().__init__(shape, validate_args=validate_args)

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
        temperature = temperature_tensor(self.temperature)
        return temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(RelaxedTransformed):
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
