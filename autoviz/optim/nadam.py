"""NAdam: Adam with Nesterov momentum (Dozat), its momentum warmed up by momentum_decay."""

import numpy as np

from ._kernels import addcdiv_, addcmul_, added, lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class NAdam(Optimizer):
    """μₜ = β₁ (1 - ½ · 0.96^(t ψ)); p ← p - lr (1 - μₜ) / (1 - Πμ) · g / d
    - lr μₜ₊₁ / (1 - Πμ · μₜ₊₁) · m / d, d = √(v / (1 - β₂ᵗ)) + eps."""

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        momentum_decay=4e-3,
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
        check_non_negative("momentum_decay value", momentum_decay)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["mu_product"] = state_tensor(np.ones((), scalar_dtype()))
            state["exp_avg"] = state_tensor(np.zeros_like(param))
            state["exp_avg_sq"] = state_tensor(np.zeros_like(param))
        step_t = state["step"]._storage()
        step_t += 1
        step = float(step_t)
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        if group["maximize"]:
            grad = -grad
        bias_correction2 = 1 - beta2**step
        if group["weight_decay"]:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * group["weight_decay"]
            else:
                grad = added(grad, param, group["weight_decay"])
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        mu_product = state["mu_product"]._storage()
        mu_product *= mu_product.dtype.type(mu)
        exp_avg, exp_avg_sq = state["exp_avg"]._storage(), state["exp_avg_sq"]._storage()
        lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq *= beta2
        addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
        denom = np.sqrt(exp_avg_sq / bias_correction2) + eps
        product = float(mu_product)
        addcdiv_(param, grad, denom, -lr * (1.0 - mu) / (1.0 - product))
        addcdiv_(param, exp_avg, denom, (-lr * mu_next) / (1.0 - product * mu_next))
