"""Adamax: Adam with the infinity norm in place of the second moment."""

import numpy as np

from ._kernels import added, lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class Adamax(Optimizer):
    """m ← lerp(m, g, 1 - β₁);  u ← max(β₂ u, |g| + eps);  p ← p - lr / (1 - β₁ᵗ) · m / u."""

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        capturable=False,
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
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["exp_avg"] = state_tensor(np.zeros_like(param))
            state["exp_inf"] = state_tensor(np.zeros_like(param))
        step = state["step"]._storage()
        step += 1
        beta1, beta2 = group["betas"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])
        exp_avg, exp_inf = state["exp_avg"]._storage(), state["exp_inf"]._storage()
        lerp_(exp_avg, grad, 1 - beta1)
        exp_inf *= beta2
        np.maximum(exp_inf, np.abs(grad) + group["eps"], out=exp_inf)
        clr = group["lr"] / (1 - beta1 ** float(step))
        param += -clr * exp_avg / exp_inf
