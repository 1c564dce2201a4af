"""Adafactor: Adam-like steps with the second moment of a matrix kept as row and column
averages (Shazeer and Stern), relative step sizes, and no first moment."""

import math

import numpy as np

from ._kernels import lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class Adafactor(Optimizer):
    """v ≈ r cᵀ / mean(r) for a matrix (r, c running means of row and column g²);
    p ← p - α · (g / √v) / max(1, RMS(g / √v) / d), α = max(eps2, RMS(p)) · min(lr, 1/√t)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        beta2_decay=-0.8,
        eps=(None, 1e-3),
        d=1.0,
        weight_decay=0.0,
        *,
        foreach=None,
        maximize=False,
    ):
        check_non_negative("learning rate", lr)
        if not beta2_decay <= 0.0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        check_non_negative("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            beta2_decay=beta2_decay,
            eps=tuple(eps),
            d=d,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            if grad.ndim > 1:
                state["row_var"] = state_tensor(np.zeros((*grad.shape[:-1], 1), param.dtype))
                state["col_var"] = state_tensor(
                    np.zeros((*grad.shape[:-2], 1, grad.shape[-1]), param.dtype)
                )
            else:
                state["variance"] = state_tensor(np.zeros_like(grad))
        if group["maximize"]:
            grad = -grad
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = float(np.finfo(param.dtype).eps)
        step = state["step"]._storage()
        step += 1
        t = float(step)
        one_minus_beta2 = t ** group["beta2_decay"]
        rho = min(group["lr"], 1 / t**0.5)
        alpha = (
            max(eps2, float(np.linalg.norm(param.astype(np.float64))) / math.sqrt(param.size)) * rho
        )
        if group["weight_decay"]:
            param *= 1 - group["lr"] * group["weight_decay"]
        if grad.ndim > 1:
            row_var, col_var = state["row_var"]._storage(), state["col_var"]._storage()
            row_mean = (np.linalg.norm(grad, axis=-1, keepdims=True) ** 2 / grad.shape[-1]).astype(
                param.dtype
            )
            lerp_(row_var, row_mean, one_minus_beta2)
            col_mean = (np.linalg.norm(grad, axis=-2, keepdims=True) ** 2 / grad.shape[-2]).astype(
                param.dtype
            )
            lerp_(col_var, col_mean, one_minus_beta2)
            estimate = row_var @ col_var
            estimate = estimate / np.maximum(row_var.mean(axis=-2, keepdims=True), eps1)
        else:
            variance = state["variance"]._storage()
            lerp_(variance, grad * grad, one_minus_beta2)
            estimate = variance.copy()
        update = (1 / np.sqrt(np.maximum(estimate, eps1 * eps1))).astype(param.dtype) * grad
        denom = max(
            1.0,
            float(np.linalg.norm(update.astype(np.float64)))
            / (math.sqrt(update.size) * group["d"]),
        )
        param += np.asarray(-alpha / denom, param.dtype) * update
