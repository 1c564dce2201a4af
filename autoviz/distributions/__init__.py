"""`torch.distributions`: Normal, Uniform, Bernoulli, Categorical and Multinomial, sampled with
torch's random numbers (the same draws after the same seed) and scored with gradients."""

from . import constraints
from .continuous import Normal, Uniform
from .discrete import Bernoulli, Categorical, Multinomial
from .distribution import Distribution

__all__ = [
    "Bernoulli",
    "Categorical",
    "Distribution",
    "Multinomial",
    "Normal",
    "Uniform",
    "constraints",
]
