"""The relaxed one-hot categorical (Gumbel-softmax) distribution."""

from typing import ClassVar

from .. import engine
from ..engine.ops.special import lgamma
from . import constraints
from ._relaxed import RelaxedTransformed, temperature_tensor
from .categorical import Categorical
from .distribution import Distribution, as_size, broadcast_all
from .transforms import ExpTransform
from .utils import clamp_probs


class ExpRelaxedCategorical(Distribution):
    """log of a Gumbel-softmax sample: log_softmax((logits + g) / temperature), g Gumbel."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch = self._categorical.batch_shape
        super().__init__(batch, self._categorical.param_shape[-1:], validate_args=validate_args)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        uniforms = clamp_probs(engine.rand(tuple(shape), dtype=self.logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(-1, keepdim=True)

    def log_prob(self, value):
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        temperature = temperature_tensor(self.temperature)
        log_scale = lgamma(engine.full_like(temperature, float(k))) - temperature.log() * (-(k - 1))
        score = logits - value * temperature
        score = (score - score.logsumexp(-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(RelaxedTransformed):
    """exp of an ExpRelaxedCategorical: near one-hot vectors at low temperature."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)
