"""Torch tensors as the recorder keeps them: facts read when an op happened (Seen), previews,
gradient copies, unseen ones."""

import numpy as np
import torch

from ..tracing.preview import PREVIEW_LIMIT, Summary

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
    facts.value = tensor_preview(t) if value else None
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

    __slots__ = ("dtype", "grad_fn", "shape")
    requires_grad = True

    def __init__(self, fn, output_nr: int = 0) -> None:
        self.grad_fn = fn
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
    data = t.detach().cpu()
    if data.dtype.is_floating_point and data.dtype not in _NUMPY_FLOATS:
        data = data.float()
    return data.resolve_conj().resolve_neg().numpy().copy()


def tensor_preview(t):
    """A preview of torch tensor `t`, as autoviz's own: its elements, or its Summary when it
    is large (None for a tensor never seen)."""
    if t is None or isinstance(t, Unseen):
        return None
    if t.numel() > PREVIEW_LIMIT:
        return Summary.of(to_numpy(t))
    # tolist() gives what preview() gives for the numpy copy (a float for 0-d), without one.
    return t.tolist()


def keep_gradient(g):
    """A gradient as numpy, taken at once (torch may reuse its buffer); of a large one only its
    Summary, so the log does not keep it."""
    if g is None:
        return None
    if g.numel() <= PREVIEW_LIMIT:
        try:  # the common case: a CPU tensor numpy can view; each torch call saved counts
            return g.numpy().copy()
        except (RuntimeError, TypeError):  # needs grad, conj or neg bit, bfloat16, a GPU
            return to_numpy(g)
    return Summary.of(to_numpy(g))
