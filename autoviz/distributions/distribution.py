"""`torch.distributions.Distribution`: shapes, argument validation with torch's messages, and
the helpers the families share."""

import numbers
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.tensor import Size, Tensor


class lazy_property:
    """A value computed on first use and then kept on the instance (torch's lazy_property)."""

    def __init__(self, fn) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.fn(instance)
        instance.__dict__[self.fn.__name__] = value
        return value


class CentredAtLoc:
    """Families whose mean and mode are both loc (the symmetric, unimodal ones)."""

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc


class BinaryParameter:
    """The probs and logits of a two-outcome parameter: whichever was not given is made from
    the other on first use (clamped logit, sigmoid)."""

    @lazy_property
    def logits(self):
        from .utils import probs_to_logits

        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return self.logits.sigmoid()


def store_probs_or_logits(dist, probs, logits):
    """Keeps the one of probs and logits given, as a tensor, under its name on dist; returns
    it and the batch shape (empty for a plain number)."""
    from .utils import one_of

    one_of(probs, logits)
    given = probs if probs is not None else logits
    (param,) = broadcast_all(given)
    dist.__dict__["probs" if probs is not None else "logits"] = param
    return param, (() if isinstance(given, numbers.Number) else param.size())


def broadcast_all(*values):
    """Numbers become tensors (of the first tensor's dtype, else the default float dtype); all
    are broadcast to one shape."""
    for v in values:
        if not isinstance(v, (Tensor, numbers.Number)):
            raise ValueError(
                "Input arguments must all be instances of Number, torch.Tensor or objects "
                "implementing __torch_function__."
            )
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), engine.get_default_dtype())
    tensors = [v if isinstance(v, Tensor) else engine.tensor(v, dtype=dtype) for v in values]
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    return tuple(t if tuple(t.shape) == shape else t.expand(*shape) for t in tensors)


def as_size(shape) -> Size:
    return shape if isinstance(shape, Size) else Size(tuple(shape))


class Distribution:
    """A batch of probability distributions: sample, log_prob, mean, ... (torch's base)."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = True  # torch's default (its __debug__): checked unless python -O

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None) -> None:
        self._batch_shape, self._event_shape = as_size(batch_shape), as_size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__:
                    continue  # a lazy parameter not computed yet
                value = self.__dict__[param]
                if not np.all(constraint._check(value)):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}"
                    )

    arg_constraints: ClassVar[dict] = {}

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=()):
        """A sample of shape sample_shape + batch_shape + event_shape, without gradients."""
        with engine.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        raise NotImplementedError(f"{type(self).__name__} has no rsample in torch either")

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{type(self)} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def expand(self, batch_shape, _instance=None):
        """The same distribution over a larger batch: each parameter (and each distribution
        it wraps) expanded from batch_shape + its own trailing dims, without copying."""
        batch_shape = as_size(batch_shape)
        new = object.__new__(type(self))
        old = len(self._batch_shape)
        for key, value in self.__dict__.items():
            if isinstance(value, Tensor) and tuple(value.shape[:old]) == tuple(self._batch_shape):
                value = value.expand(*batch_shape, *value.shape[old:])
            elif isinstance(value, Distribution):
                value = value.expand(Size(tuple(batch_shape) + tuple(value.batch_shape[old:])))
            new.__dict__[key] = value
        new._batch_shape = batch_shape
        return new

    @property
    def support(self):
        raise NotImplementedError

    def sample_n(self, n: int):
        return self.sample((n,))

    def perplexity(self):
        return engine.exp(self.entropy())

    def _extended_shape(self, sample_shape=()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value) -> None:
        """torch's checks of a value given to log_prob: a tensor, shapes that broadcast, in
        the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event = len(value.shape) - len(self._event_shape)
        if value.size()[event:] != self._event_shape:
            raise ValueError(
                f"The right-most size of value must match event_shape: {value.size()} vs "
                f"{self._event_shape}."
            )
        actual, expected = value.size(), Size(self._batch_shape + self._event_shape)
        for i, j in zip(reversed(actual), reversed(expected), strict=False):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{actual} vs {expected}."
                )
        if not np.all(self.support._check(value)):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({self.support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}"
            )

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        shown = [
            f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}"
            for k in names
        ]
        return f"{type(self).__name__}({', '.join(shown)})"
