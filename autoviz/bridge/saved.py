"""The tensors a torch backward node saved for backward, read through its `_saved_*` attributes."""

import torch

from .values import tensor_preview

SAVED_PREFIX = "_saved_"
_ATTRIBUTES = {}  # node type -> its _saved_* attribute names (dir() is slow: ask once per type)


def saved_tensors(fn) -> list:
    """[{"name", "shape", "value"}] per saved tensor of `fn`; empty once backward freed them."""
    names = _ATTRIBUTES.get(type(fn))
    if names is None:
        names = _ATTRIBUTES[type(fn)] = _attributes(fn)
    found = []
    for attr in names:
        try:
            value = getattr(fn, attr)
        except RuntimeError:  # "Trying to backward through the graph a second time ..."
            continue
        items = [(attr, value)] if isinstance(value, torch.Tensor) else []
        if isinstance(value, tuple):
            items = [(f"{attr}[{i}]", v) for i, v in enumerate(value)]
        for name, t in items:
            if isinstance(t, torch.Tensor):
                found.append({"name": name, "shape": list(t.shape), "value": tensor_preview(t)})
    return found


def _attributes(fn) -> list:
    """`fn`'s _saved_* names, in the order autoviz's engine lists them (self before other),
    so the same op draws the same saved boxes in both; alphabetical for the rest."""
    from ..tracing.saved import SAVED

    roles = [f"{SAVED_PREFIX}{name}" for name, _ in SAVED.get(fn.name(), ())]
    found = sorted(a for a in dir(fn) if a.startswith(SAVED_PREFIX))
    return sorted(found, key=lambda a: roles.index(a) if a in roles else len(roles))


# Backward node -> the saved attributes holding what the op used besides its inputs.
_ARGUMENTS = {
    "PowBackward0": ("_saved_exponent",),
    "PowBackward2": ("_saved_self",),
    "DivBackward1": ("_saved_other",),
    "NllLossBackward0": ("_saved_target",),
    "NllLoss2DBackward0": ("_saved_target",),
    "EmbeddingBackward0": ("_saved_indices",),
    "GatherBackward0": ("_saved_index",),
}


def saved_arguments(fn) -> list:
    """The numbers and tensors `fn` used besides its inputs, as autoviz's ops keep them
    (tracing.view's _ARGUMENTS); empty where backward has freed them."""
    found = []
    for attr in _ARGUMENTS.get(fn.name(), ()):
        try:
            found.append(getattr(fn, attr))
        except RuntimeError:  # "Trying to backward through the graph a second time ..."
            return []
    return found
