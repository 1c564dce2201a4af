"""What the two relaxed (concrete) distributions share: the temperature as a tensor, and the
transformed distribution's parameters read from its base."""

from .. import engine
from .transformed_distribution import TransformedDistribution


def temperature_tensor(temperature):
    """The temperature as a tensor (a plain number in the default float dtype)."""
    if isinstance(temperature, engine.Tensor):
        return temperature
    return engine.tensor(float(temperature))


class RelaxedTransformed(TransformedDistribution):
    """A relaxed distribution: a transform of its base, whose parameters are its own."""

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
