"""Adadelta: steps scaled by the ratio of running RMS of updates and of gradients."""

import numpy as np

from ._kernels import add_, addcmul_, added
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class Adadelta(Optimizer):
    """v ← ρ v + (1 - ρ) g²;  Δ = √(u + eps) / √(v + eps) · g;  u ← ρ u + (1 - ρ) Δ²;
    p ← p - lr · Δ."""

    def __init__(
        self,
        params,
        lr=1.0,
        rho=0.9,
        eps=1e-6,
        weight_decay=0,
        foreach=None,
        *,
        capturable=False,
        maximize=False,
        differentiable=False,
    ):
        check_non_negative("learning rate", lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_non_negative("epsilon value", eps)
        check_non_negative("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["square_avg"] = state_tensor(np.zeros_like(param))
            state["acc_delta"] = state_tensor(np.zeros_like(param))
        state["step"]._storage()[...] += 1
        rho, eps = group["rho"], group["eps"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])
        square_avg = state["square_avg"]._storage()
        acc_delta = state["acc_delta"]._storage()
        square_avg *= rho
        addcmul_(square_avg, grad, grad, 1 - rho)
        std = np.sqrt(square_avg + eps)
        delta = np.sqrt(acc_delta + eps) / std * grad
        acc_delta *= rho
        addcmul_(acc_delta, delta, delta, 1 - rho)
        add_(param, delta, -group["lr"])
