"""AdamW: Adam with decoupled weight decay (Loshchilov and Hutter)."""

from .adam import Adam


class AdamW(Adam):
    """Adam with decoupled weight decay: p ← p · (1 - lr · wd) before the Adam step."""

    decoupled = True

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=1e-2,
        amsgrad=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
