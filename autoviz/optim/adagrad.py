"""Adagrad: each parameter's step shrinks with the sum of its squared gradients."""

import numpy as np

from ._kernels import addcdiv_, addcmul_, added
from .optimizer import Optimizer, accepted_options, check_non_negative, scalar_dtype, state_tensor


class Adagrad(Optimizer):
    """s ← s + g²;  p ← p - lr / (1 + (t - 1) lr_decay) · g / (√s + eps)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay=0,
        weight_decay=0,
        initial_accumulator_value=0,
        eps=1e-10,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        fused=None,
    ):
        check_non_negative("learning rate", lr)
        check_non_negative("lr_decay value", lr_decay)
        check_non_negative("weight_decay value", weight_decay)
        check_non_negative("initial_accumulator_value value", initial_accumulator_value)
        check_non_negative("epsilon value", eps)
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        for group in self.param_groups:  # Adagrad makes its state at construction
            for p in group["params"]:
                self.state[p] = {
                    "step": state_tensor(np.zeros((), scalar_dtype())),
                    "sum": state_tensor(np.full_like(p._data, initial_accumulator_value)),
                }

    def _update(self, param, grad, group, state) -> None:
        step = state["step"]._storage()
        step += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])
        clr = group["lr"] / (1 + (float(step) - 1) * group["lr_decay"])
        total = state["sum"]._storage()
        addcmul_(total, grad, grad, 1)
        std = np.sqrt(total) + group["eps"]
        addcdiv_(param, grad, std, -clr)


_ = accepted_options
