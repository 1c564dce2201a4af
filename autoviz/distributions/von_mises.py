"""The von Mises distribution: a normal distribution wrapped on the circle (angles in
radians), sampled by Best and Fisher's rejection method in double precision, as PyTorch."""

import math
from typing import ClassVar

from .. import engine
from . import constraints
from .distribution import CentredAtLoc, Distribution, as_size, broadcast_all, lazy_property

# Abramowitz and Stegun's polynomial approximations of I0 and I1 (9.8.1-9.8.4)
_SMALL = (
    (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2),
    (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3),
)
_LARGE = (
    (
        0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1,
        0.2635537e-1, -0.1647633e-1, 0.392377e-2,
    ),
    (
        0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
        -0.2895312e-1, 0.1787654e-1, -0.420059e-2,
    ),
)  # fmt: skip


def _horner(y, coefficients):
    result = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        result = c + y * result
    return result


def _log_modified_bessel_fn(x, order=0):
    """log I_order(x) for x > 0 and order 0 or 1."""
    if order not in (0, 1):
        raise AssertionError(f"order must be 0 or 1, got {order}")
    y = x / 3.75
    small = _horner(y * y, _SMALL[order])
    if order == 1:
        small = x.abs() * small
    large = x - 0.5 * x.log() + _horner(3.75 / x, _LARGE[order]).log()
    return engine.where(x < 3.75, small.log(), large)


def _rejection_sample(loc, concentration, proposal_r, x):
    """Best and Fisher (1979): draw three uniforms per value until each is accepted."""
    done = engine.zeros(x.shape, dtype=engine.bool)
    while not bool(done.all()):
        u1, u2, u3 = engine.rand((3, *x.shape), dtype=loc.dtype).unbind()
        z = engine.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if bool(accept.any()):
            x = engine.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(CentredAtLoc, Distribution):
    """p(θ) = exp(κ cos(θ - loc)) / (2π I0(κ)); loc and values are angles modulo 2π."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real,
        "concentration": constraints.positive,
    }
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None) -> None:
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, (), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * engine.cos(value - self.loc)
        return (
            log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)
        )

    @lazy_property
    def _loc(self):
        return self.loc.to(engine.float64)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(engine.float64)

    @lazy_property
    def _proposal_r(self):
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        return engine.where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho**2) / (2 * rho))

    def sample(self, sample_shape=()):
        """Best and Fisher's rejection sampler, in double precision (issue #88443)."""
        shape = self._extended_shape(as_size(sample_shape))
        with engine.no_grad():
            x = engine.zeros(shape, dtype=engine.float64)
            out = _rejection_sample(self._loc, self._concentration, self._proposal_r, x)
            return out.to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        try:
            return super().expand(batch_shape)
        except NotImplementedError:
            loc = self.loc.expand(batch_shape)
            concentration = self.concentration.expand(batch_shape)
            return type(self)(loc, concentration, validate_args=self.__dict__.get("_validate_args"))

    @lazy_property
    def variance(self):
        """The circular variance, 1 - I1(κ)/I0(κ)."""
        log_ratio = _log_modified_bessel_fn(self.concentration, 1) - _log_modified_bessel_fn(
            self.concentration, 0
        )
        return 1 - log_ratio.exp()
