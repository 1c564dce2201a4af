"""The LKJ distribution over Cholesky factors of correlation matrices, p(L) ∝ det(L Lᵀ)^(η-1),
sampled by the onion method with torch's draws (a Beta per row, then normals)."""

import math
from typing import ClassVar

import numpy as np

from .. import engine
from ..engine.ops.special import lgamma, mvlgamma
from . import constraints
from .beta import Beta
from .distribution import Distribution, as_size, broadcast_all


class LKJCholesky(Distribution):
    """L with L Lᵀ a dim × dim correlation matrix; η = concentration (1: uniform)."""

    arg_constraints: ClassVar[dict] = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        marginal = self.concentration + 0.5 * (dim - 2)
        offset = engine.arange(dim - 1, dtype=self.concentration.dtype)
        offset = engine.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.size(), (dim, dim), validate_args)

    def expand(self, batch_shape, _instance=None):
        batch = tuple(as_size(batch_shape))
        new = object.__new__(LKJCholesky)
        new.__dict__.update(self.__dict__)
        new.concentration = self.concentration.expand(*batch)
        new._beta = self._beta.expand((*batch, self.dim))
        new._batch_shape = as_size(batch)
        return new

    def sample(self, sample_shape=()):
        """Row i: √y_i times a direction on the sphere in its first i coordinates, then the
        diagonal that makes the row a unit vector."""
        sample_shape = as_size(sample_shape)
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        normal = engine.randn(*self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
        direction = normal / normal.norm(dim=-1, keepdim=True)
        direction[..., 0, :].fill_(0.0)
        w = engine.sqrt(y) * direction
        tiny = float(np.finfo(w._data.dtype).tiny)
        diagonal = engine.clamp(1 - engine.sum(w**2, dim=-1), min=tiny).sqrt()
        w += engine.diag_embed(diagonal)
        return w

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diagonal = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = engine.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalised = engine.sum(order * diagonal.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normaliser = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1)
        return unnormalised - (normaliser - lgamma(alpha) * dm1)
