"""`torch.utils.checkpoint`: activation checkpointing trades memory for a second forward pass.
autoviz runs the function once and records its ops: the graph torch builds with
use_reentrant=False (with True, torch shows one CheckpointFunctionBackward node in their
place); values and gradients are the same either way."""

from __future__ import annotations

import warnings

__all__ = ["checkpoint", "checkpoint_sequential"]

_EXPLICIT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)


def checkpoint(function, *args, use_reentrant=None, preserve_rng_state=True, **kwargs):
    """function(*args, **kwargs), its ops recorded as with use_reentrant=False."""
    if use_reentrant is None:
        warnings.warn(_EXPLICIT, UserWarning, stacklevel=2)
    for option in ("context_fn", "determinism_check", "debug"):
        kwargs.pop(option, None)
    return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """The modules of a Sequential (or a list of them) applied in turn to input."""
    if use_reentrant is None:
        warnings.warn(_EXPLICIT, UserWarning, stacklevel=2)
    modules = list(functions.children()) if hasattr(functions, "children") else list(functions)
    for module in modules:
        input = module(input)
    return input
