"""The Kumaraswamy distribution on (0, 1): a power transform of a uniform."""

import math
from typing import ClassVar

from .. import engine
from ..engine.ops.special import lgamma
from . import constraints
from .distribution import broadcast_all
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import euler_constant


def _moments(a, b, n):
    arg1 = 1 + n / a
    log_value = lgamma(arg1) + lgamma(b) - lgamma(arg1 + b)
    return b * log_value.exp()


class Kumaraswamy(TransformedDistribution):
    """(1 - (1 - U)^(1/b))^(1/a) for U uniform: p(x) = a b x^(a-1) (1 - x^a)^(b-1)."""

    arg_constraints: ClassVar[dict] = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base = Uniform(
            engine.full_like(self.concentration0, 0),
            engine.full_like(self.concentration0, 1),
            validate_args=validate_args,
        )
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def variance(self):
        return _moments(self.concentration1, self.concentration0, 2) - self.mean.pow(2)

    @property
    def mode(self):
        """Evaluated in log space as torch does, nan where a concentration is below 1."""
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        log_mode[(c0 < 1) | (c1 < 1)] = math.nan
        return log_mode.exp()

    def entropy(self):
        from ..engine.ops.special import digamma

        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * h0 - self.concentration1.log() - self.concentration0.log()
