"""The multinomial distribution: counts of total_count categorical draws."""

import math
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.tensor import Size, make
from . import constraints
from .categorical import Categorical
from .distribution import Distribution, as_size, broadcast_all


class Multinomial(Distribution):
    """Counts of total_count draws from a Categorical(probs or logits)."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch = self._categorical.batch_shape
        event = self._categorical.param_shape[-1:]
        super().__init__(batch, event, validate_args=validate_args)

    @property
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        """total_count categorical draws (as torch draws them), counted per category."""
        sample_shape = as_size(sample_shape)
        drawn = self._categorical.sample(Size((self.total_count, *sample_shape)))._data
        drawn = np.moveaxis(drawn, 0, -1)
        shape = tuple(self._extended_shape(sample_shape))
        counts = np.zeros(shape, np.int64)
        grids = np.indices(drawn.shape, sparse=True)
        np.add.at(counts, (*grids[:-1], drawn), 1)
        return make(counts.astype(self.probs._data.dtype))

    def entropy(self):
        """n H(categorical) - log n! + Σ over the counts of E[log k!] (binomial marginals)."""
        from ..engine.ops.special import lgamma
        from .binomial import Binomial

        n = engine.tensor(float(self.total_count), dtype=self.probs.dtype)
        term1 = n * self._categorical.entropy() - lgamma(n + 1)
        binomial = Binomial(self.total_count, self.probs)
        support = binomial.enumerate_support(expand=False)[1:]
        binomial_probs = binomial.log_prob(support).exp()
        weights = lgamma(support + 1)
        return term1 + (binomial_probs * weights).sum((0, -1))

    def log_prob(self, value):
        """log n! - Σ log x_i! + Σ x_i log p_i, with gradients to probs or logits."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        counts = np.asarray(value._data, np.float64)
        lgamma = np.vectorize(math.lgamma, otypes=[np.float64])
        dt = logits._data.dtype
        log_n = make(lgamma(counts.sum(-1) + 1).astype(dt))
        log_xs = make(lgamma(counts + 1).astype(dt).sum(-1))
        zero = make((counts == 0) & np.isneginf(logits._data))
        logits = engine.where(zero, engine.zeros((), dtype=logits.dtype), logits)
        return log_n - log_xs + (logits * value).sum(-1)
