"""Averaged SGD: SGD whose iterates are averaged from step t0 on (Polyak and Juditsky)."""

import numpy as np

from ._kernels import add_, added
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class ASGD(Optimizer):
    """p ← p (1 - λη) - η g;  ax ← ax + μ (p - ax) (ax = p before t0);
    η = lr / (1 + λ lr t)^α, μ = 1 / max(1, t - t0)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd=1e-4,
        alpha=0.75,
        t0=1e6,
        weight_decay=0,
        foreach=None,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        check_non_negative("learning rate", lr)
        check_non_negative("weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
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
            state["eta"] = state_tensor(np.asarray(group["lr"], scalar_dtype()))
            state["mu"] = state_tensor(np.ones((), scalar_dtype()))
            state["ax"] = state_tensor(np.zeros_like(param))
        step_t = state["step"]._storage()
        step_t += 1
        step = float(step_t)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = added(grad, param, group["weight_decay"])
        eta = float(state["eta"]._data)
        mu = float(state["mu"]._data)
        param *= 1 - group["lambd"] * eta
        add_(param, grad, -eta)
        ax = state["ax"]._storage()
        if mu != 1:
            ax += (param - ax) * ax.dtype.type(mu)
        else:
            ax[...] = param
        lr, lambd = group["lr"], group["lambd"]
        state["eta"]._storage()[...] = lr / ((1 + lambd * lr * step) ** group["alpha"])
        state["mu"]._storage()[...] = 1 / max(1, step - group["t0"])
