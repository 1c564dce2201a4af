"""The generalised Pareto distribution: the tails of other distributions (exponential at
concentration 0, Pareto above it, uniform at -1)."""

import math
import numbers
from typing import ClassVar

from .. import engine
from . import constraints
from .distribution import Distribution, as_size, broadcast_all


def _safe(concentration):
    """concentration, with 1 where it is (close to) zero; and where it is."""
    zero = engine.isclose(concentration, engine.zeros_like(concentration))
    return engine.where(zero, engine.ones_like(concentration), concentration), zero


class GeneralizedPareto(Distribution):
    """F(x) = 1 - (1 + ξ z)^(-1/ξ), z = (x - loc)/scale (1 - exp(-z) at ξ = 0)."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        scalar = all(isinstance(v, numbers.Number) for v in (loc, scale, concentration))
        super().__init__(() if scalar else self.loc.size(), validate_args=validate_args)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(as_size(sample_shape))
        return self.icdf(engine.rand(shape, dtype=self.loc.dtype))

    def _z(self, x):
        return (x - self.loc) / self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = engine.isclose(self.concentration, engine.tensor(0.0))
        safe = engine.where(eq_zero, engine.ones_like(self.concentration), self.concentration)
        y = 1 / safe + engine.ones_like(z)
        nonzero = engine.where(y == 0, y, y * engine.log1p(safe * z))
        log_scale = (
            math.log(self.scale) if isinstance(self.scale, numbers.Real) else self.scale.log()
        )
        return -log_scale - engine.where(eq_zero, z, nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = engine.isclose(self.concentration, engine.tensor(0.0))
        safe = engine.where(eq_zero, engine.ones_like(self.concentration), self.concentration)
        return engine.where(eq_zero, -z, -engine.log1p(safe * z) / safe)

    def log_cdf(self, value):
        return engine.log1p(-engine.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return engine.exp(self.log_cdf(value))

    def icdf(self, value):
        safe, eq_zero = _safe(self.concentration)
        logu = engine.log1p(-value)
        nonzero = self.loc + self.scale / safe * engine.expm1(-safe * logu)
        return engine.where(eq_zero, self.loc - self.scale * logu, nonzero)

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = engine.where(valid, self.concentration, 0.5)
        return engine.where(valid, self.loc + self.scale / (1 - safe), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = engine.where(valid, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return engine.where(valid, result, math.nan)

    def entropy(self):
        return engine.broadcast_to(
            engine.log(self.scale) + self.concentration + 1, self._batch_shape
        )

    @property
    def mode(self):
        return self.loc

    @property
    def support(self):
        lower = self.loc
        upper = engine.where(
            self.concentration < 0, lower - self.scale / self.concentration, math.inf
        )
        return constraints.interval(lower, upper)
