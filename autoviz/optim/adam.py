"""Adam: per-parameter step sizes from running moments of the gradient."""

import math

import numpy as np

from ._kernels import addcdiv_, addcmul_, added, lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class Adam(Optimizer):
    """p ← p - lr · m̂ / (√v̂ + eps), m and v running means of g and g², bias-corrected."""

    decoupled = False

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        amsgrad=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
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
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=False,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=self.decoupled,  # in torch's order: state dicts print so
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * group["weight_decay"]  # AdamW: shrink the weights directly
            else:
                grad = added(grad, param, group["weight_decay"])
        if not state:
            _init_state(state, param, group["amsgrad"])
        step = state["step"]._storage()
        step += 1
        m, v = state["exp_avg"]._storage(), state["exp_avg_sq"]._storage()
        lerp_(m, grad, 1 - beta1)
        v *= beta2
        addcmul_(v, grad, grad, 1 - beta2)
        if group["amsgrad"]:
            v_max = state["max_exp_avg_sq"]._storage()
            np.maximum(v_max, v, out=v_max)
            v = v_max
        t = float(step)
        denom = np.sqrt(v) / math.sqrt(1 - beta2**t) + eps
        addcdiv_(param, m, denom, -(lr / (1 - beta1**t)))


def _init_state(state: dict, param, amsgrad: bool) -> None:
    state["step"] = state_tensor(np.zeros((), scalar_dtype()))
    state["exp_avg"] = state_tensor(np.zeros_like(param))
    state["exp_avg_sq"] = state_tensor(np.zeros_like(param))
    if amsgrad:
        state["max_exp_avg_sq"] = state_tensor(np.zeros_like(param))
