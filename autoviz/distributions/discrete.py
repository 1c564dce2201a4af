"""Bernoulli, Categorical and Multinomial: samples with torch's random numbers (bernoulli,
multinomial), log_prob with gradients to probs or logits."""

import math
import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.ops.base import Op
from ..engine.tensor import Size, Tensor, make
from . import constraints
from .distribution import Distribution, as_size, broadcast_all, lazy_property


def _one_of(probs, logits) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _clamp_probs(probs):
    eps = float(np.finfo(probs._data.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def _softplus(x):
    """log(1 + exp(x)) = m + log(exp(-m) + exp(x - m)) for any m; m = max(x, 0) keeps the
    exponentials from overflowing, and held constant it leaves the gradient σ(x) exact."""
    m = engine.relu(x).detach()
    return m + engine.log(engine.exp(-m) + engine.exp(x - m))


def _logsumexp(x):
    """log Σ exp(x) over the last dimension, kept: the maximum taken out first, as torch does."""
    top = x.max(dim=-1, keepdim=True).values.detach()
    return top + (x - top).exp().sum(-1, keepdim=True).log()


class Gather(Op):
    """z = a.gather(-1, index);  dz/da = the gradient scattered back at index."""

    _backward_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, a, index=None):
        ctx.info = (np.shape(a), index)
        return np.take_along_axis(np.asarray(a), index, axis=-1)

    @staticmethod
    def backward(ctx, grad):
        shape, index = ctx.info
        full = np.zeros(shape, np.result_type(grad))
        grids = np.indices(index.shape, sparse=True)
        np.add.at(full, (*grids[:-1], index), grad)
        return full


class Bernoulli(Distribution):
    """1 with probability probs (or sigmoid(logits)), else 0."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.boolean

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        _one_of(probs, logits)
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        self.__dict__["probs" if probs is not None else "logits"] = param
        self._param = param
        shape = () if isinstance(given, numbers.Number) else param.size()
        super().__init__(shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        p = _clamp_probs(self.probs)
        return engine.log(p) - engine.log(1 - p)

    @lazy_property
    def probs(self):
        return engine.sigmoid(self.logits)

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
        return -((1 - value) * logits + _softplus(-logits))

    def entropy(self):
        return (1 - self.probs) * self.logits + _softplus(-self.logits)


class Categorical(Distribution):
    """One of K categories, with probabilities probs (normalised) or softmax(logits)."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        _one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = logits - _logsumexp(logits)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch = self._param.size()[:-1] if self._param.dim() > 1 else ()
        super().__init__(batch, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return engine.log(_clamp_probs(self.probs))

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
