"""The Dirichlet distribution over the simplex, sampled as PyTorch's CPU kernel samples it."""

from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.ops.special import digamma, lgamma
from ..engine.tensor import make
from . import constraints
from ._samplers import dirichlet
from .distribution import as_size
from .exp_family import ExponentialFamily
from .utils import xlogy


class Dirichlet(ExponentialFamily):
    """p(x) ∝ Π x_i^(α_i - 1) on the simplex."""

    arg_constraints: ClassVar[dict] = {
        "concentration": constraints.independent(constraints.positive, 1)
    }
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = concentration.shape
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def rsample(self, sample_shape=()):
        if self.concentration.requires_grad and engine.is_grad_enabled():
            raise NotImplementedError(
                "autoviz: rsample of a Dirichlet cannot differentiate with respect to its "
                "concentration yet (use sample(), or a concentration without grad)"
            )
        shape = self._extended_shape(as_size(sample_shape))
        alpha = np.array(np.broadcast_to(self.concentration._data, tuple(shape)), order="C")
        return make(dirichlet(alpha))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return xlogy(c - 1.0, value).sum(-1) + lgamma(c.sum(-1)) - lgamma(c).sum(-1)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        mode = (self.concentration - 1).clamp(min=0.0)
        return mode / mode.sum(-1, True)

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.shape[-1]
        a0 = self.concentration.sum(-1)
        c = self.concentration
        return (
            lgamma(c).sum(-1)
            - lgamma(a0)
            - (k - a0) * digamma(a0)
            - ((c - 1.0) * digamma(c)).sum(-1)
        )
