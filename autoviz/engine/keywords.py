"""PyTorch's `out=` argument: a result written into a tensor the caller already has."""

import warnings

import numpy as np

from . import events
from .dtypes import TYPE_NAMES
from .grad_mode import _state

_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def into(out, result, name: str):
    """Write `result` into `out` (resized, with PyTorch's warning, if its shape differs)."""
    if _state["enabled"] and (result.requires_grad or out.requires_grad):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    data = np.asarray(result._data)
    have, want = np.result_type(out._data), data.dtype
    if _RANK.get(want.kind, 0) > _RANK.get(have.kind, 0):
        raise RuntimeError(
            f"result type {TYPE_NAMES.get(want.name, want.name)} can't be cast to the desired "
            f"output type {TYPE_NAMES.get(have.name, have.name)}"
        )
    if np.shape(out._data) == data.shape:
        out._storage()[...] = data
    else:
        if np.size(out._data):
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(np.shape(out._data))}, which does not match the required output shape "
                f"{list(data.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        out._data = data.astype(have)
    if events.observers:
        events.on_inplace(out)
    return out
