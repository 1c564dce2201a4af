"""Torch tensors' values as the recorder keeps them: previews, gradient copies, unseen ones."""

import numpy as np
import torch

from ..tracing.preview import PREVIEW_LIMIT, Summary

ACCUMULATE_GRAD = torch._C._functions.AccumulateGrad
_NUMPY_FLOATS = (torch.float16, torch.float32, torch.float64)


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
