"""Clipping gradients before an optimizer step: by their joint norm or by value."""

import math
import warnings

import numpy as np

from ...engine.dtypes import default_float
from ...engine.tensor import Tensor, make


def _tensors(items) -> list:
    return [items] if isinstance(items, Tensor) else list(items)


def _with_grads(parameters) -> list:
    return [p for p in _tensors(parameters) if p.grad is not None]


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of all the tensors together (the norm of their norms, as PyTorch computes it)."""
    tensors = _tensors(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return make(np.zeros((), default_float()))
    norms = [t.norm(norm_type) for t in tensors]
    total = make(np.stack([np.asarray(n._data) for n in norms])).norm(norm_type)
    if error_if_nonfinite and not math.isfinite(float(total.item())):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None) -> None:
    """Scale the gradients by max_norm / (total_norm + 1e-6) where that is below 1."""
    params = _with_grads(parameters)
    norm = total_norm._data if isinstance(total_norm, Tensor) else np.float32(total_norm)
    coef = np.minimum(np.float32(max_norm) / (norm + np.float32(1e-6)), np.float32(1.0))
    for p in params:
        store = p.grad._storage()
        store *= coef.astype(store.dtype)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale all gradients together so their joint norm is at most max_norm; returns the
    norm they had."""
    params = _with_grads(parameters)
    total = get_total_norm([p.grad for p in params], norm_type, error_if_nonfinite)
    if params:
        clip_grads_with_norm_(params, max_norm, total)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The deprecated name of clip_grad_norm_."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None) -> None:
    """Clamp every gradient element into [-clip_value, clip_value]."""
    for p in _with_grads(parameters):
        store = p.grad._storage()
        np.clip(store, -clip_value, clip_value, out=store)
