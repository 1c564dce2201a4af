"""OneHotCategorical: a categorical draw as a one-hot vector (and its straight-through form)."""

from typing import ClassVar

from . import constraints
from .categorical import Categorical
from .distribution import Distribution, as_size


class OneHotCategorical(Distribution):
    """A one-hot vector with its 1 at a category drawn with probabilities probs."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        batch = self._categorical.batch_shape
        event = self._categorical.param_shape[-1:]
        super().__init__(batch, event, validate_args=validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        from ..nn.functional import one_hot

        return one_hot(self._categorical.probs.argmax(-1), self._categorical._num_events).to(
            self.probs.dtype
        )

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=()):
        from ..nn.functional import one_hot

        indices = self._categorical.sample(as_size(sample_shape))
        return one_hot(indices, self._categorical._num_events).to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        indices = value.max(-1)[1]
        return self._categorical.log_prob(indices)

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        from .. import engine

        n = self.event_shape[0]
        values = engine.eye(n, dtype=self.probs.dtype)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand(n, *self.batch_shape, n) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical whose rsample passes the probabilities' gradient straight through."""

    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(as_size(sample_shape))
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
