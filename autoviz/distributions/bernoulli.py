"""The Bernoulli distribution: 1 with probability probs, else 0."""

import math
from typing import ClassVar

from .. import engine
from ..engine.tensor import Size
from . import constraints
from .distribution import (
    BinaryParameter,
    Distribution,
    as_size,
    broadcast_all,
    store_probs_or_logits,
)
from .utils import softplus


class Bernoulli(BinaryParameter, Distribution):
    """1 with probability probs (or sigmoid(logits)), else 0."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        self._param, shape = store_probs_or_logits(self, probs, logits)
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    def sample(self, sample_shape=()):
        """torch.bernoulli(probs) over the extended shape."""
        shape = self._extended_shape(as_size(sample_shape))
        with engine.no_grad():
            return engine.bernoulli(self.probs.expand(*shape))

    def log_prob(self, value):
        """-binary_cross_entropy_with_logits(logits, value)."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -((1 - value) * logits + softplus(-logits))

    @property
    def mode(self):
        """1 where probs > 1/2, 0 below, nan at exactly 1/2."""
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    def enumerate_support(self, expand=True):
        """The values 0 and 1 along a new leading axis, over the batch."""
        values = engine.arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1, *self._batch_shape)) if expand else values

    def entropy(self):
        return (1 - self.probs) * self.logits + softplus(-self.logits)
