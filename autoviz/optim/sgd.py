"""Stochastic gradient descent, with optional momentum, dampening, Nesterov and L2 decay."""

import numpy as np

from ._kernels import add_, added
from .optimizer import Optimizer, accepted_options, check_non_negative, state_tensor


class SGD(Optimizer):
    """p ← p - lr · g, where with momentum g is buf ← momentum · buf + (1 - dampening) · grad."""

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        check_non_negative("learning rate", lr)
        check_non_negative("momentum value", momentum)
        check_non_negative("weight_decay value", weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
        )
        super().__init__(params, {**defaults, **accepted_options(foreach, differentiable, fused)})

    def _update(self, param, grad, group, state) -> None:
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])  # the L2 penalty in the gradient
        momentum = group["momentum"]
        if momentum:
            grad = self._momentum(grad, momentum, group, state)
        add_(param, grad, -group["lr"])

    @staticmethod
    def _momentum(grad, momentum, group, state):
        buf = state.get("momentum_buffer")
        if buf is None:
            # The first step starts the buffer at the gradient itself (no dampening).
            buf = state_tensor(np.array(grad, copy=True))
            state["momentum_buffer"] = buf
        else:
            store = buf._storage()
            store *= momentum
            add_(store, grad, 1 - group["dampening"])
        if group["nesterov"]:
            return added(grad, buf._data, momentum)
        return buf._data
