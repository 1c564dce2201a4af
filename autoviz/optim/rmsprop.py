"""RMSprop: each step divided by a running root-mean-square of recent gradients."""

import numpy as np

from ._kernels import add_, addcdiv_, addcmul_, added, lerp_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class RMSprop(Optimizer):
    """v ← α v + (1 - α) g²;  p ← p - lr · g / (√v + eps)  (centered: v minus the mean²)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha=0.99,
        eps=1e-8,
        weight_decay=0,
        momentum=0,
        centered=False,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        check_non_negative("learning rate", lr)
        check_non_negative("epsilon value", eps)
        check_non_negative("momentum value", momentum)
        check_non_negative("weight_decay value", weight_decay)
        check_non_negative("alpha value", alpha)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        alpha, eps, lr = group["alpha"], group["eps"], group["lr"]
        if group["maximize"]:
            grad = -grad
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["square_avg"] = state_tensor(np.zeros_like(param))
            if group["momentum"] > 0:
                state["momentum_buffer"] = state_tensor(np.zeros_like(param))
            if group["centered"]:
                state["grad_avg"] = state_tensor(np.zeros_like(param))
        state["step"]._storage()[...] += 1
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])
        # In PyTorch's order of operations, so each step rounds as PyTorch's does.
        square_avg = state["square_avg"]._storage()
        square_avg *= alpha
        addcmul_(square_avg, grad, grad, 1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]._storage()
            lerp_(grad_avg, grad, 1 - alpha)
            centred = np.array(square_avg)
            addcmul_(centred, grad_avg, grad_avg, -1)
            avg = np.sqrt(centred)
        else:
            avg = np.sqrt(square_avg)
        avg += eps
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]._storage()
            buf *= group["momentum"]
            addcdiv_(buf, grad, avg)
            add_(param, buf, -lr)
        else:
            addcdiv_(param, grad, avg, -lr)
