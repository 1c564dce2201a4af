"""TransformedDistribution: a base distribution pushed through transforms (y = f(x)), its
log_prob by the change-of-variables formula."""

from typing import ClassVar

from .. import engine
from .distribution import Distribution, as_size
from .transforms import Transform
from .utils import sum_rightmost


class TransformedDistribution(Distribution):
    """y = t_n(... t_1(x)) for x from base_distribution."""

    arg_constraints: ClassVar[dict] = {}

    def __init__(self, base_distribution, transforms, validate_args=None) -> None:
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        self.base_dist = base_distribution
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = max(
            [t.codomain.event_dim for t in self.transforms] + [len(base_distribution.event_shape)]
        )
        for t in self.transforms:
            shape = t.forward_shape(shape)
        cut = len(shape) - event_dim
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    @property
    def support(self):
        if not self.transforms:
            return self.base_dist.support
        return self.transforms[-1].codomain

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    def sample(self, sample_shape=()):
        with engine.no_grad():
            x = self.base_dist.sample(as_size(sample_shape))
            for t in self.transforms:
                x = t(x)
            return x

    def rsample(self, sample_shape=()):
        x = self.base_dist.rsample(as_size(sample_shape))
        for t in self.transforms:
            x = t(x)
        return x

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            event_dim += t.domain.event_dim - t.codomain.event_dim
            log_prob = log_prob - sum_rightmost(
                t.log_abs_det_jacobian(x, y), event_dim - t.domain.event_dim
            )
            y = x
        base = sum_rightmost(
            self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape)
        )
        return log_prob + base

    def _monotonize_cdf(self, value):
        sign = 1
        for t in self.transforms:
            sign = sign * t.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value):
        for t in self.transforms[::-1]:
            value = t.inv(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        value = self._monotonize_cdf(value)
        value = self.base_dist.icdf(value)
        for t in self.transforms:
            value = t(value)
        return value
