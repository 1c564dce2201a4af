"""RAdam: Adam whose adaptive step is switched on gradually, as the variance of its
second-moment estimate becomes tractable (Liu et al.)."""

import math

import numpy as np

from ._kernels import addcmul_, added, lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class RAdam(Optimizer):
    """ρₜ = ρ∞ - 2t β₂ᵗ / (1 - β₂ᵗ); while ρₜ ≤ 5 p ← p - lr m̂, then
    p ← p - lr m̂ · r √(1 - β₂ᵗ) / (√v + eps), r the rectification term."""

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        decoupled_weight_decay=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
    ):
        check_non_negative("learning rate", lr)
        check_non_negative("epsilon value", eps)
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        check_non_negative("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["exp_avg"] = state_tensor(np.zeros_like(param))
            state["exp_avg_sq"] = state_tensor(np.zeros_like(param))
        step_t = state["step"]._storage()
        step_t += 1
        step = float(step_t)
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * group["weight_decay"]
            else:
                grad = added(grad, param, group["weight_decay"])
        exp_avg, exp_avg_sq = state["exp_avg"]._storage(), state["exp_avg_sq"]._storage()
        lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq *= beta2
        addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = math.sqrt(
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            )
            adaptive = bias_correction2**0.5 / (np.sqrt(exp_avg_sq) + eps)
            param -= corrected * lr * adaptive * param.dtype.type(rect)
        else:
            param -= corrected * lr
