"""A model's parameters as one vector, and back."""

import numpy as np

from ... import engine as _F
from ...engine.tensor import Tensor


def parameters_to_vector(parameters):
    """All parameters flattened and joined (recorded: the vector has their gradient)."""
    return _F.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters) -> None:
    """Copy consecutive slices of vec into the parameters' data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    start = 0
    for p in parameters:
        n = p.numel()
        p._storage()[...] = np.reshape(vec._data[start : start + n], p.shape)
        start += n
