"""`torch.nn.utils`: clipping gradients before an optimizer step."""

import math

import numpy as np

from ..engine.tensor import Tensor, make


def _with_grads(parameters) -> list:
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale all gradients together so their joint norm is at most max_norm; returns the
    norm they had (the norm of the per-parameter norms, as PyTorch computes it)."""
    params = _with_grads(parameters)
    norm_type = float(norm_type)
    if not params:
        return make(np.zeros((), np.float32))
    norms = [p.grad.norm(norm_type) for p in params]
    total = make(np.stack([np.asarray(n._data) for n in norms])).norm(norm_type)
    value = float(total.item())
    if error_if_nonfinite and not math.isfinite(value):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    coef = np.minimum(np.float32(max_norm) / (total._data + np.float32(1e-6)), np.float32(1.0))
    for p in params:
        store = p.grad._storage()
        store *= coef.astype(store.dtype)
    return total


def clip_grad_value_(parameters, clip_value, foreach=None) -> None:
    """Clamp every gradient element into [-clip_value, clip_value]."""
    for p in _with_grads(parameters):
        store = p.grad._storage()
        np.clip(store, -clip_value, clip_value, out=store)


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn.utils", name)
