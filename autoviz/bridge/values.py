"""Torch tensors as the recorder keeps them: facts read when an op happened (Seen), previews,
gradient copies, unseen ones."""

import sys

import numpy as np
import torch

from ..tracing.preview import PREVIEW_LIMIT, Summary
from ..tracing.symbols import plain

ACCUMULATE_GRAD = torch._C._functions.AccumulateGrad
_NUMPY_FLOATS = (torch.float16, torch.float32, torch.float64)


class Broken:
    """The grad_fn of a view whose base changed in place, which torch refuses to tell ("Output
    0 of UnbindBackward0 is a view and its base ... has been modified inplace"): not a leaf."""

    def __repr__(self) -> str:
        return "<grad_fn of a view modified in place>"


BROKEN = Broken()


def grad_fn_of(t):
    """`t.grad_fn`, or BROKEN where torch raises for a view whose base changed in place."""
    try:
        return t.grad_fn
    except RuntimeError:
        return BROKEN


class Seen:
    """A torch tensor as it was when an op made or used it: what the builder reads of it.

    The builder reads these, never the tensor, because a tensor read later can tell another
    story or refuse to tell one: a view's grad_fn changes when its base changes in place, and
    torch raises for a view of several (the `*params` of `model(t_u, *params)`) once its base
    did. `key` is id(tensor); the tensor is held only so that no other takes its id.
    """

    __slots__ = ("_held", "dtype", "grad_fn", "key", "requires_grad", "shape", "storage", "value")

    def __repr__(self) -> str:
        return f"<Seen tensor {self.key:#x} shape={self.shape}>"


def seen(t, storage: bool = False, value: bool = False) -> Seen:
    """The facts of torch tensor `t` now; where its data is for a leaf or with `storage` (so
    that `w.data -= ...` is known as the leaf's update); with `value`, its preview."""
    facts = Seen()
    facts._held, facts.key = t, id(t)
    facts.shape, facts.dtype = tuple(t.shape), dtype_name(t.dtype)
    facts.requires_grad, facts.grad_fn = t.requires_grad, grad_fn_of(t)
    leaf = facts.requires_grad and facts.grad_fn is None
    facts.storage = storage_of(t) if storage or leaf else None
    facts.value = watched_preview(t, held=True) if value else None
    return facts


def identity(t) -> Seen:
    """Only who `t` is (a .grad tensor the builder tells its owner by)."""
    facts = Seen()
    facts._held, facts.key = t, id(t)
    facts.shape = facts.dtype = facts.requires_grad = facts.grad_fn = None
    facts.storage = facts.value = None
    return facts


def storage_of(t):
    """Where `t`'s data is: the same for a detached tensor, `.data` and its source."""
    return (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), t.stride())


_NODE_NAMES = {}  # type of a backward node -> its name (each op's node has a type of its own)


def node_name(fn) -> str:
    """fn.name(), asked once per type of node (each call makes the string anew)."""
    name = _NODE_NAMES.get(type(fn))
    if name is None:
        name = _NODE_NAMES[type(fn)] = plain(fn.name())
    return name


_DTYPE_NAMES = {}


def dtype_name(dtype) -> str:
    """torch.float32 -> "float32", as autoviz names numpy's dtypes (asked once per dtype)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype).removeprefix("torch.")
    return name


class Unseen:
    """A tensor torch made inside one call and never handed to Python (the W.t() inside
    nn.Linear): only its shape and dtype are known."""

    __slots__ = ("dtype", "grad_fn", "output_nr", "shape")
    requires_grad = True

    def __init__(self, fn, output_nr: int = 0) -> None:
        self.grad_fn, self.output_nr = fn, output_nr
        metadata = getattr(fn, "_input_metadata", ())
        known = metadata[output_nr] if output_nr < len(metadata) else None
        self.shape = tuple(known.shape) if known is not None else ()
        self.dtype = known.dtype if known is not None else torch.float32


def made_inside(fn):
    """The preview of what node `fn` made inside one call (log_softmax in F.cross_entropy),
    read from the result it saved for backward, now, as it was made; None if it saved none."""
    try:
        result = fn._saved_result
    except (AttributeError, RuntimeError):
        return None
    return tensor_preview(result) if isinstance(result, torch.Tensor) else None


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """A numpy copy of `t`'s values (bfloat16 and other types numpy lacks become float32)."""
    try:  # the common case: a CPU tensor numpy can view, in one torch call
        return t.detach().numpy().copy()
    except (RuntimeError, TypeError):  # conj or neg bit, bfloat16, a GPU
        pass
    data = t.detach().cpu()
    if data.dtype.is_floating_point and data.dtype not in _NUMPY_FLOATS:
        data = data.float()
    return data.resolve_conj().resolve_neg().numpy().copy()


def tensor_preview(t):
    """A preview of torch tensor `t` as it is now, as autoviz's own: its elements, or when it
    is large its Summary, computed from a copy when a view reads it (None for a tensor never
    seen)."""
    if t is None or isinstance(t, Unseen):
        return None
    if t.numel() > PREVIEW_LIMIT:
        return _later(to_numpy(t).view, t)
    # tolist() gives what preview() gives for the numpy copy (a float for 0-d), without one.
    return t.tolist()


def watched_preview(t, held: bool = False):
    """tensor_preview(t) for a tensor that changes only where the recorder sees it (an op's
    result, a tensor saved for backward, a parameter): a large one is kept, not copied, while a
    trace runs (see Watch). `held`: a Seen holds `t` too."""
    if t.numel() <= PREVIEW_LIMIT:
        return t.tolist()  # as tensor_preview
    if not WATCHES:
        return _later(to_numpy(t).view, t)
    return _later(WATCHES[-1].capture(t, held), t)


def _later(source, t) -> Summary:
    return Summary.later(source, tuple(t.shape), dtype_name(t.dtype))


class Capture:
    """A large tensor's value at a step, for its deferred Summary: the tensor itself while its
    version counter says it has not changed since, else the copy taken before it changed (None:
    changed where no copy could be taken; then the Summary tells only shape and dtype)."""

    __slots__ = ("array", "held", "tensor", "version")

    def __init__(self, t) -> None:
        self.tensor, self.version, self.array = t, t._version, None
        self.held = 0  # how many of the recorder's Seen facts hold the tensor too

    def __call__(self):
        t = self.tensor
        if t is not None:
            self.tensor = None
            if t._version == self.version:
                self.array = to_numpy(t)
        return self.array

    def copy(self) -> None:
        """Take the copy now: the tensor may change (or is about to)."""
        t = self.tensor
        if t is not None and t._version == self.version:
            self.array, self.tensor = to_numpy(t), None


# The Watch of each trace_torch() running, innermost last.
WATCHES: list = []


class Watch:
    """The large tensors a trace keeps for their deferred previews, by the storage they share
    with their views, `.data` and detached copies. Before the program changes a storage where
    the recorder sees it (an in-place call, an optimizer step, a numpy view handed out), its
    tensors are copied (`secure`); when the trace ends, those the program can still reach are
    (`secure_reachable`); the rest no code can change, so they are summarised from the tensor
    itself when a view reads them."""

    def __init__(self) -> None:
        self.by_storage = {}  # storage's data_ptr -> {id(tensor): its Capture}

    def capture(self, t, held: bool = False) -> Capture:
        """The Capture of `t` as it is now (one per tensor and version)."""
        group = self.by_storage.setdefault(t.untyped_storage().data_ptr(), {})
        found = group.get(id(t))
        try:
            if found is None or found.tensor is not t or found.version != t._version:
                found = group[id(t)] = Capture(t)
        except RuntimeError:  # an inference tensor has no version counter: copy it
            return to_numpy(t).view
        found.held += held
        return found

    def secure(self, tensors) -> None:
        """Copy the kept tensors sharing storage with `tensors`, which are about to change."""
        for t in tensors:
            for found in self.by_storage.pop(t.untyped_storage().data_ptr(), {}).values():
                found.copy()

    def secure_reachable(self) -> None:
        """Copy every kept tensor the program could still change: one that anything but the
        recorder holds, or whose storage a tensor the recorder does not keep shares (a view,
        `.data`, a tensor saved for backward)."""
        for group in self.by_storage.values():
            kept = [found for found in group.values() if found.tensor is not None]
            if not kept:
                continue
            storage = kept[0].tensor.untyped_storage()
            # the kept tensors' references to the storage, and `storage`'s own
            shared = torch._C._storage_Use_Count(storage._cdata) > len(kept) + 1
            if shared or any(_held_elsewhere(found) for found in kept):
                for found in kept:
                    found.copy()
        self.by_storage = {}


def _held_elsewhere(found: Capture) -> bool:
    """Whether anything but the recorder holds the kept tensor: beyond its Capture's and its
    Seen facts' references, and getrefcount's argument."""
    return sys.getrefcount(found.tensor) > 2 + found.held


def keep_gradient(g):
    """A gradient backward sent, as numpy, copied at once when small; a large one as its
    Summary, computed when a view reads it from the gradient itself: torch changes a gradient
    in place only when nothing else holds it (it accumulates into a buffer, or steals it for a
    .grad, only at a use count of one), and its version counter tells if a hook did."""
    if g is None:
        return None
    if g.numel() <= PREVIEW_LIMIT:
        try:  # the common case: a CPU tensor numpy can view; each torch call saved counts
            return g.numpy().copy()
        except (RuntimeError, TypeError):  # needs grad, conj or neg bit, bfloat16, a GPU
            return to_numpy(g)
    try:
        return _later(Capture(g), g)
    except RuntimeError:  # an inference tensor has no version counter: copy it
        return _later(to_numpy(g).view, g)
