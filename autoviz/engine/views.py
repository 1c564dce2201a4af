"""Views kept in step with their base. A recorded in-place op gives a tensor new memory
(autoviz computes it out of place), so the views made of it before are pointed at that memory
and given the node PyTorch remakes for them, AsStridedBackward0 (`Invalid` for a piece of
split, chunk or unbind, which torch refuses to differentiate through then)."""

import weakref

import numpy as np

from .grad_mode import _state
from .storage import address, index_in

# id(root tensor) -> (weak reference to it, {id(view): weak reference to the view}): not a
# WeakSet, which compares tensors with == (elementwise, for a tensor)
_VIEWS = {}


def root_of(t):
    """The tensor at the start of `t`'s chain of views (`t` itself when it is no view)."""
    view = getattr(t, "_view", None)
    while view is not None:
        t = view[0]
        view = getattr(t, "_view", None)
    return t


def mark(out, base, key, several=False) -> None:
    """Make `out` a view of `base` at `key` (None: found from its memory when written);
    `several`: (name, number) of a piece of split, chunk or unbind."""
    out._view = (base, key, several)
    _register(out, base)


def alias(out, base) -> None:
    """`out` shares `base`'s memory outside the graph (`detach()`, `.data`): it follows the
    base's values after an in-place op, as torch's does, and keeps no node."""
    _register(out, base)


def _register(out, base) -> None:
    root = root_of(base)
    if root.requires_grad and root.grad_fn is None:
        return  # a leaf that requires grad refuses in-place ops (W.t() in every forward)
    entry = _VIEWS.get(id(root))
    if entry is None or entry[0]() is not root:
        entry = _VIEWS[id(root)] = (weakref.ref(root, _forget(id(root))), {})
    table = entry[1]
    table[id(out)] = weakref.ref(out)
    if len(table) >= 64 and not len(table) & (len(table) - 1):  # at each power of two
        for key_, ref in list(table.items()):  # the views gone since, forgotten
            if ref() is None:
                del table[key_]


def _forget(key: int):
    def forget(ref) -> None:
        if _VIEWS.get(key, (None,))[0] is ref:  # not a later tensor's entry under its id
            del _VIEWS[key]

    return forget


def refresh(root, old: np.ndarray, displaced: dict) -> None:
    """Point every view of `root`, whose memory was `old`, at its new memory; `displaced`:
    id(tensor) -> its data before, for the views the in-place op replaced on its way."""
    entry = _VIEWS.get(id(root))
    if entry is None or entry[0]() is not root or not isinstance(old, np.ndarray):
        return
    new = root._data
    for ref in list(entry[1].values()):
        t = ref()
        if t is None:
            continue
        data = displaced.get(id(t), t._data)
        if not isinstance(data, np.ndarray) or not data.size or not np.shares_memory(data, old):
            continue  # no longer a view of that memory (its data was set anew)
        if not np.ndim(old) or not np.ndim(new):  # a 0-d base: its one element, reshaped
            placed, key = np.reshape(new, data.shape), None
        else:
            placed = _placed(old, new, data)
            key = index_in(old, data) if placed is None else None
            if placed is None:  # another layout: the values at the view's places, copied
                if key is None:
                    continue
                placed = new[key]
        if getattr(t, "_view", None) is None:  # an alias (detach, .data): values, no node
            t._data = placed
            continue
        if key is None and np.ndim(new):
            key = index_in(new, placed)
        _remake(t, root, key, placed, id(t) in displaced)


def _placed(old: np.ndarray, new: np.ndarray, data: np.ndarray):
    """`data`, a view of `old`, as the same view of `new` (both row-major and alike), or None."""
    alike = old.shape == new.shape and old.dtype == new.dtype
    if not (alike and old.flags.c_contiguous and new.flags.c_contiguous):
        return None
    at, size = divmod(address(data) - address(old), old.itemsize)
    if size or at < 0:
        return None
    # on `new`'s buffer: its base is `new`, so a write through it counts on new's version
    placed = np.ndarray(data.shape, data.dtype, new, at * new.itemsize, data.strides)
    placed.flags.writeable = bool(data.flags.writeable)  # an expanded view stays read-only
    return placed


def _remake(t, root, key, placed, displaced: bool) -> None:
    """`t` as the view `placed` of root; `displaced`: t holds the result of the in-place op
    that changed the base (written into it out of place)."""
    from . import events, versions
    from .ops.indexing import AsStrided, InvalidView

    if not (root.requires_grad and _state["enabled"]):
        t._data = placed
        return
    if displaced:  # the op's result the view took: it goes on in the base's memory, as
        versions.joined(t._data, placed)  # torch's in-place result is that memory
    several = t._view[2]
    if several:
        out = InvalidView.apply(root, key=key, view=placed, piece=several)
    else:
        out = AsStrided.apply(root, key=key, view=placed)
    t._data, t.grad_fn, t._requires_grad = placed, out.grad_fn, True
    if events.observers:
        events.on_rebind(t, out)
