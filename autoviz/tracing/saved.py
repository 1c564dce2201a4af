"""Tensors an op saved for backward, named as PyTorch names them (`_saved_self`)."""

import numpy as np

from .preview import preview
from .symbols import plain

RESULT = "result"

# Backward node -> (name, where the saved tensor comes from): an input index or the result.
SAVED = {
    "MulBackward0": (("self", 0), ("other", 1)),
    "DivBackward0": (("self", 0), ("other", 1)),
    "MaximumBackward0": (("self", 0), ("other", 1)),
    "MmBackward0": (("self", 0), ("mat2", 1)),
    "DotBackward0": (("self", 0), ("tensor", 1)),
    "MvBackward0": (("self", 0), ("vec", 1)),
    "AddmmBackward0": (("mat1", 1), ("mat2", 2)),
    "PowBackward0": (("self", 0),),
    "PowBackward1": (("self", 0), ("exponent", 1), (RESULT, RESULT)),
    "PowBackward2": ((RESULT, RESULT),),
    "ReciprocalBackward0": ((RESULT, RESULT),),
    "ExpBackward0": ((RESULT, RESULT),),
    "SqrtBackward0": ((RESULT, RESULT),),
    "TanhBackward0": ((RESULT, RESULT),),
    "SigmoidBackward0": ((RESULT, RESULT),),
    "ReluBackward0": ((RESULT, RESULT),),
    "SoftmaxBackward0": ((RESULT, RESULT),),
    "LogSoftmaxBackward0": ((RESULT, RESULT),),
    "LogBackward0": (("self", 0),),
    "AbsBackward0": (("self", 0),),
    "SinBackward0": (("self", 0),),
    "CosBackward0": (("self", 0),),
    "ClampBackward1": (("self", 0),),
    "ClampMinBackward0": (("self", 0),),
    "WhereBackward0": (("condition", 0),),
    "MaxBackward1": (("self", 0), (RESULT, RESULT)),
    "MinBackward1": (("self", 0), (RESULT, RESULT)),
    "MseLossBackward0": (("self", 0), ("target", 1)),
    "BinaryCrossEntropyBackward0": (("self", 0), ("target", 1)),
}


def saved_entries(fn, inputs: dict, result) -> list:
    """`{"name", "shape", "value"}` per saved tensor of backward node `fn`.

    `inputs` maps an input index to its (shape, value preview) where known, `result` is the
    output's (shape, value preview). Ops not in the table show their live saved state.
    """
    roles = SAVED.get(plain(fn.name()))
    live = _live(fn)
    if roles is None:
        return [_entry(f"saved_tensors[{i}]", d) for i, d in enumerate(live) if d is not None]
    if len(live) != len(roles):
        live = [None] * len(roles)  # saved something else (or freed): only roles tell
    entries = []
    for (name, where), data in zip(roles, live, strict=True):
        known = result if where == RESULT else inputs.get(where)
        if known is not None:
            shape, value = known
            entries.append({"name": f"_saved_{name}", "shape": list(shape), "value": value})
        elif data is not None:  # a constant input, which has no node of its own
            entries.append(_entry(f"_saved_{name}", data))
    return entries


def _entry(name: str, data) -> dict:
    return {"name": name, "shape": list(np.shape(data)), "value": preview(data)}


def _live(fn) -> list:
    """The arrays `fn` holds for backward; empty once backward has freed them."""
    saved = getattr(fn, "_saved", ())
    if not isinstance(saved, tuple):  # FREED
        return []
    arrays = [getattr(item, "_data", item) for item in saved]
    kinds = (np.ndarray, np.generic, int, float)
    return [a if isinstance(a, kinds) else None for a in arrays]
