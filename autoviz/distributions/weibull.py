"""The Weibull distribution: a power of an exponential."""

from typing import ClassVar

from .. import engine
from ..engine.ops.special import lgamma
from . import constraints
from .distribution import broadcast_all
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import euler_constant


class Weibull(TransformedDistribution):
    """scale · E^(1/concentration) for E ~ Exponential(1)."""

    arg_constraints: ClassVar[dict] = {
        "scale": constraints.positive,
        "concentration": constraints.positive,
    }
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(engine.ones_like(self.scale), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=self.concentration_reciprocal),
            AffineTransform(loc=0, scale=self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        return self.scale * lgamma(1 + self.concentration_reciprocal).exp()

    @property
    def mode(self):
        c = self.concentration
        return self.scale * ((c - 1) / c) ** c.reciprocal()

    @property
    def variance(self):
        return self.scale.pow(2) * (
            lgamma(1 + 2 * self.concentration_reciprocal).exp()
            - lgamma(1 + self.concentration_reciprocal).exp().pow(2)
        )

    def entropy(self):
        return (
            euler_constant * (1 - self.concentration_reciprocal)
            + (self.scale * self.concentration_reciprocal).log()
            + 1
        )
