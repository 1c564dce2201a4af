"""The categorical distribution over K categories."""

import math
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.tensor import Size, Tensor
from . import constraints
from .distribution import Distribution, as_size, lazy_property
from .utils import Gather, clamp_probs, logsumexp, one_of


class Categorical(Distribution):
    """One of K categories, with probabilities probs (normalised) or softmax(logits)."""

    has_enumerate_support = True
    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = logits - logsumexp(logits)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch = self._param.size()[:-1] if self._param.dim() > 1 else ()
        super().__init__(batch, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return engine.log(clamp_probs(self.probs))

    @lazy_property
    def probs(self):
        return engine.softmax(self.logits, dim=-1)

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    @property
    def mean(self):
        return engine.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def variance(self):
        return self.mean

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=()):
        """torch.multinomial(probs, n, True) of every batch row, n = sample_shape's size."""
        sample_shape = as_size(sample_shape)
        with engine.no_grad():
            rows = self.probs.reshape(-1, self._num_events)
            drawn = engine.multinomial(rows, max(sample_shape.numel(), 1), True)
            return drawn.t().reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        """log_softmax(logits) at value, by gather: gradients reach probs or logits."""
        if self._validate_args:
            self._validate_sample(value)
        index = np.asarray(value._data if isinstance(value, Tensor) else value, np.int64)
        shape = np.broadcast_shapes((*index.shape, 1), tuple(self.logits.shape))
        logits = self.logits
        if tuple(logits.shape) != shape:
            logits = logits.expand(*shape)
        index = np.broadcast_to(index[..., None], (*shape[:-1], 1))
        return Gather.apply(logits, index=np.ascontiguousarray(index)).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=float(np.finfo(self.logits._data.dtype).min))
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = engine.arange(self._num_events).reshape((-1,) + (1,) * len(self._batch_shape))
        return values.expand(-1, *self._batch_shape) if expand else values
