"""Independent: some batch dims of a distribution reinterpreted as event dims."""

from typing import ClassVar

from . import constraints
from .distribution import Distribution, as_size
from .utils import sum_rightmost


class Independent(Distribution):
    """A batch of independent distributions as one over their joint event (log_prob summed)."""

    arg_constraints: ClassVar[dict] = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None) -> None:
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}"
            )
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist, self.reinterpreted_batch_ndims = (
            base_distribution,
            reinterpreted_batch_ndims,
        )
        cut = len(shape) - event_dim
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance

    def sample(self, sample_shape=()):
        return self.base_dist.sample(as_size(sample_shape))

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(as_size(sample_shape))

    @property
    def has_enumerate_support(self):
        return not self.reinterpreted_batch_ndims and self.base_dist.has_enumerate_support

    def enumerate_support(self, expand=True):
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def log_prob(self, value):
        return sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"
