"""The geometric distribution: the number of failures before the first success."""

from typing import ClassVar

import numpy as np

from .. import engine
from . import constraints
from .distribution import (
    BinaryParameter,
    Distribution,
    as_size,
    broadcast_all,
    store_probs_or_logits,
)


class Geometric(BinaryParameter, Distribution):
    """P(k) = (1 - p)^k p for k = 0, 1, 2, ..."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        _, shape = store_probs_or_logits(self, probs, logits)
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return engine.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        """floor(log u / log(1 - p)) for u uniform on (tiny, 1), as torch draws it."""
        shape = self._extended_shape(as_size(sample_shape))
        tiny = float(np.finfo(self.probs._data.dtype).tiny)
        with engine.no_grad():
            u = engine.empty(shape, dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        hit = (probs._data == 1) & (value._data == 0)
        probs._storage()[hit] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        from ..nn.functional import binary_cross_entropy_with_logits

        return (
            binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
        )
