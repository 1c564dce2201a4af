"""The half-Cauchy distribution: |X| for a centred Cauchy X."""

import math
from typing import ClassVar

from .. import engine
from . import constraints
from .cauchy import Cauchy
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform


class HalfCauchy(TransformedDistribution):
    """|X| for X ~ Cauchy(0, scale)."""

    arg_constraints: ClassVar[dict] = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None) -> None:
        super().__init__(
            Cauchy(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args
        )

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return engine.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def mode(self):
        return engine.zeros_like(self.scale)

    @property
    def variance(self):
        return self.base_dist.variance

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = engine.as_tensor(value, dtype=self.base_dist.scale.dtype)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return engine.where(value >= 0, log_prob, engine.full((), -math.inf, dtype=log_prob.dtype))

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
