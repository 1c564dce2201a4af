"""Padding as PyTorch records it: ConstantPadNd, and reflection and replication padding of
the last 1, 2 or 3 axes, each one node."""

import numpy as np

from ..engine.ops import Op


def _pairs(pad, ndim):
    """F.pad's flat (left, right, top, bottom, ...) list as numpy's per-axis pairs, the last
    axis first in `pad`."""
    pairs = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        pairs[ndim - 1 - i] = (int(pad[2 * i]), int(pad[2 * i + 1]))
    return pairs


class ConstantPadNd(Op):
    """z = a with `value` added around it (a negative pad crops);  dz/da = the gradient with
    the padding cut off (zeros where a was cropped)."""

    _backward_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, a, pad=(), value=0):
        pairs = _pairs(pad, np.ndim(a))
        ctx.info = (pairs, np.shape(a))
        crop = tuple(
            slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pairs, a.shape, strict=False)
        )
        grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
        return np.pad(a[crop], grow, constant_values=value)

    @staticmethod
    def backward(ctx, grad):
        pairs, _shape = ctx.info
        inner = tuple(
            slice(max(lo, 0), n - max(hi, 0))
            for (lo, hi), n in zip(pairs, grad.shape, strict=False)
        )
        back = [(max(-lo, 0), max(-hi, 0)) for lo, hi in pairs]
        return np.pad(grad[inner], back)


def source_indices(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """For each position of a padded axis, the position of the input it copies."""
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
        period = 2 * (n - 1) if n > 1 else 1
        pos = np.abs(pos) % period
        return np.where(pos >= n, period - pos, pos)
    return np.clip(pos, 0, n - 1)  # replicate


class _IndexPad(Op):
    """z = a padded by copying its own elements;  dz/da = each padded gradient added back to
    the element it was copied from."""

    mode = "replicate"

    @classmethod
    def forward(cls, ctx, a, pad=()):
        pairs = _pairs(pad, np.ndim(a))
        picks = [
            source_indices(n, lo, hi, cls.mode) for (lo, hi), n in zip(pairs, a.shape, strict=False)
        ]
        ctx.info = (picks, np.shape(a))
        out = a
        for axis, pick in enumerate(picks):
            if pairs[axis] != (0, 0):
                out = np.take(out, pick, axis=axis)
        return np.ascontiguousarray(out)

    @staticmethod
    def backward(ctx, grad):
        picks, shape = ctx.info
        for axis in reversed(range(len(shape))):
            if len(picks[axis]) == shape[axis] and (picks[axis] == np.arange(shape[axis])).all():
                continue
            moved = np.moveaxis(grad, axis, 0)
            back = np.zeros((shape[axis], *moved.shape[1:]), grad.dtype)
            np.add.at(back, picks[axis], moved)
            grad = np.moveaxis(back, 0, axis)
        return grad


def _pad_class(mode: str, dims: int):
    name = {"reflect": "Reflection", "replicate": "Replication"}[mode]
    return type(
        f"{name}Pad{dims}d",
        (_IndexPad,),
        {
            "mode": mode,
            "_backward_name": f"{name}Pad{dims}DBackward0",
            "__doc__": f"{mode} padding of the last {dims} axes.",
            "__module__": __name__,
        },
    )


INDEX_PADS = {(m, d): _pad_class(m, d) for m in ("reflect", "replicate") for d in (1, 2, 3)}
