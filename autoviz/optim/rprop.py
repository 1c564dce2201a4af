"""Rprop: each weight's step size grows while its gradient keeps its sign and shrinks when
it flips; only the gradient's sign is used."""

import numpy as np

from ._kernels import addcmul_
from .optimizer import Optimizer, check_non_negative, scalar_dtype, state_tensor


class Rprop(Optimizer):
    """s ← clamp(s · η₊ or η₋ or 1 by the sign of g · g_prev);  p ← p - sign(g) s
    (no step, and g_prev = 0, where the sign flipped)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        etas=(0.5, 1.2),
        step_sizes=(1e-6, 50),
        *,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        check_non_negative("learning rate", lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr,
            etas=tuple(etas),
            step_sizes=tuple(step_sizes),
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, param, grad, group, state) -> None:
        if not state:
            state["step"] = state_tensor(np.zeros((), scalar_dtype()))
            state["prev"] = state_tensor(np.zeros_like(param))
            state["step_size"] = state_tensor(np.full_like(param, group["lr"]))
        state["step"]._storage()[...] += 1
        etaminus, etaplus = group["etas"]
        low, high = group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        prev, step_size = state["prev"]._storage(), state["step_size"]._storage()
        sign = np.sign(grad * prev)
        factor = np.where(sign > 0, etaplus, np.where(sign < 0, etaminus, 1)).astype(param.dtype)
        step_size *= factor
        np.clip(step_size, low, high, out=step_size)
        grad = np.where(factor == np.float32(etaminus), 0, grad).astype(param.dtype)
        addcmul_(param, np.sign(grad), step_size, -1)
        prev[...] = grad
