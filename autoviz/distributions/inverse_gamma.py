"""The inverse gamma distribution: 1 / X for X gamma."""

from typing import ClassVar

from ..engine.ops.special import digamma, lgamma
from . import constraints
from .gamma import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform


class InverseGamma(TransformedDistribution):
    """1 / X for X ~ Gamma(concentration, rate)."""

    arg_constraints: ClassVar[dict] = {
        "concentration": constraints.positive,
        "rate": constraints.positive,
    }
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None) -> None:
        base = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base.rate.new_ones(())
        super().__init__(base, PowerTransform(neg_one), validate_args=validate_args)

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        result = self.rate / (self.concentration - 1)
        return result

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        return self.rate.square() / ((self.concentration - 1).square() * (self.concentration - 2))

    def entropy(self):
        c = self.concentration
        return c + self.rate.log() + lgamma(c) - (1 + c) * digamma(c)
