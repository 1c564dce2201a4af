"""The tensors a torch backward node saved for backward, read through its `_saved_*` attributes."""

import torch

from .values import keep_gradient, node_name, tensor_preview, watched_preview

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
                # What needs a gradient changes only where the recorder sees it (in place);
                # buffers (batch norm's running statistics) change inside other calls: copied.
                value = watched_preview(t) if t.requires_grad else tensor_preview(t)
                found.append({"name": name, "shape": list(t.shape), "value": value})
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


def has_arguments(fn) -> bool:
    """Whether `fn` used something besides its inputs that saved_arguments reads."""
    return node_name(fn) in _ARGUMENTS


def saved_arguments(fn) -> list:
    """The numbers and tensors `fn` used besides its inputs, as autoviz's ops keep them
    (tracing.view's _ARGUMENTS); empty where backward has freed them."""
    found = []
    for attr in _ARGUMENTS.get(node_name(fn), ()):
        try:
            found.append(getattr(fn, attr))
        except RuntimeError:  # "Trying to backward through the graph a second time ..."
            return []
    return found


def before_sums(fn, upstream, grad_inputs) -> dict | None:
    """{input: what node `fn` sends a broadcast input before the sum back to its shape} (the
    (100, 3) of `x * w` for a w of shape (3,)), from the upstream and what `fn` saved, read in
    its hook while torch still has them; None when no input was broadcast."""
    if upstream is None or not upstream.dim():
        return None
    full = None
    for index, g in enumerate(grad_inputs):
        if g is not None and g.shape != upstream.shape:
            try:
                sent = _unsummed(fn, upstream, index)
            except (AttributeError, RuntimeError):  # not saved, or already freed
                sent = None
            if sent is not None and sent.shape == upstream.shape:
                full = full or {}
                full[index] = keep_gradient(sent)
    return full


def _unsummed(fn, up, index: int):
    name = fn.name()
    with torch.no_grad():
        if name == "AddBackward0" or (name == "SubBackward0" and index == 0):
            return up if index == 0 else up * fn._saved_alpha
        if name == "SubBackward0":
            return -up * fn._saved_alpha
        if name == "MulBackward0":
            return up * (fn._saved_other if index == 0 else fn._saved_self)
        if name == "DivBackward0":
            if index == 0:
                return up / fn._saved_other
            return -up * ((fn._saved_self / fn._saved_other) / fn._saved_other)
    return None
