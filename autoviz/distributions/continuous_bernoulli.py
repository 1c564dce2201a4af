"""The continuous Bernoulli distribution on [0, 1] (Loaiza-Ganem and Cunningham, 2019): the
Bernoulli likelihood made a proper density, p(x) ∝ λ^x (1 - λ)^(1 - x), for VAEs whose
pixels are intensities rather than coin flips."""

import math
import numbers
from typing import ClassVar

from .. import engine
from ..engine.ops.losses import binary_cross_entropy_with_logits
from ..engine.tensor import Size
from . import constraints
from .distribution import as_size, broadcast_all, lazy_property
from .exp_family import ExponentialFamily
from .utils import clamp_probs, one_of


class ContinuousBernoulli(ExponentialFamily):
    """p(x | λ) = C(λ) λ^x (1 - λ)^(1 - x) on [0, 1]; near λ = 1/2 (inside `lims`) the
    normaliser C and the moments are Taylor expansions, as in PyTorch."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        one_of(probs, logits)
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            if validate_args is not None and not bool(
                self.arg_constraints["probs"].check(param).all()
            ):
                raise ValueError("The parameter probs has invalid values")
            param = clamp_probs(param)
        self.__dict__["probs" if probs is not None else "logits"] = param
        self._param = param
        self._lims = lims
        shape = () if isinstance(given, numbers.Number) else param.size()
        super().__init__(shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        p = clamp_probs(self.probs)
        return engine.log(p) - engine.log1p(-p)

    @lazy_property
    def probs(self):
        return clamp_probs(engine.sigmoid(self.logits))

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    def _outside_unstable_region(self):
        return engine.maximum(
            engine.le(self.probs, self._lims[0]), engine.gt(self.probs, self._lims[1])
        )

    def _cut_probs(self):
        """probs, with those inside the unstable region moved to its lower end."""
        return engine.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * engine.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self):
        """log C(λ) = log |log(1 - λ) - log λ| - log |1 - 2λ|; its Taylor series near 1/2."""
        cut = self._cut_probs()
        below = engine.where(engine.le(cut, 0.5), cut, engine.zeros_like(cut))
        above = engine.where(engine.ge(cut, 0.5), cut, engine.ones_like(cut))
        log_norm = engine.log(engine.abs(engine.log1p(-cut) - engine.log(cut))) - engine.where(
            engine.le(cut, 0.5), engine.log1p(-2.0 * below), engine.log(2.0 * above - 1.0)
        )
        x = engine.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return engine.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (engine.log1p(-cut) - engine.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * engine.pow(x, 2)) * x
        return engine.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return engine.sqrt(self.variance)

    @property
    def variance(self):
        cut = self._cut_probs()
        spread = cut * (cut - 1.0) / engine.pow(1.0 - 2.0 * cut, 2) + 1.0 / engine.pow(
            engine.log1p(-cut) - engine.log(cut), 2
        )
        x = engine.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return engine.where(self._outside_unstable_region(), spread, taylor)

    def sample(self, sample_shape=()):
        with engine.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        """The inverse CDF of a torch.rand draw."""
        shape = self._extended_shape(as_size(sample_shape))
        return self.icdf(engine.rand(shape, dtype=self.probs.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (engine.pow(cut, value) * engine.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (
            2.0 * cut - 1.0
        )
        unbounded = engine.where(self._outside_unstable_region(), cdfs, value)
        return engine.where(
            engine.le(value, 0.0),
            engine.zeros_like(value),
            engine.where(engine.ge(value, 1.0), engine.ones_like(value), unbounded),
        )

    def icdf(self, value):
        cut = self._cut_probs()
        inverse = (engine.log1p(-cut + value * (2.0 * cut - 1.0)) - engine.log1p(-cut)) / (
            engine.log(cut) - engine.log1p(-cut)
        )
        return engine.where(self._outside_unstable_region(), inverse, value)

    def entropy(self):
        log_probs0 = engine.log1p(-self.probs)
        log_probs1 = engine.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = engine.maximum(
            engine.le(x, self._lims[0] - 0.5), engine.gt(x, self._lims[1] - 0.5)
        )
        cut = engine.where(outside, x, (self._lims[0] - 0.5) * engine.ones_like(x))
        log_norm = engine.log(engine.abs(engine.expm1(cut))) - engine.log(engine.abs(cut))
        taylor = 0.5 * x + engine.pow(x, 2) / 24.0 - engine.pow(x, 4) / 2880.0
        return engine.where(outside, log_norm, taylor)
