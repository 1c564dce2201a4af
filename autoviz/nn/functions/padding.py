"""F.pad: constant, reflect, replicate and circular padding of the last axes."""

from ...engine import functional as _F
from .. import pad_ops
from .common import size_list

_SUPPORTED = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 axes: pad = (left, right) for the last, then (top, bottom)
    for the one before, and so on."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension"
        )
    if mode == "constant":
        return pad_ops.ConstantPadNd.apply(input, pad=pad, value=0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    dims = len(pad) // 2
    if dims not in (1, 2, 3) or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor."
            f"\n{_SUPPORTED}"
        )
    if mode == "circular":
        return _circular(input, pad)
    if mode == "reflect":
        _check_reflect(input, pad)
    return pad_ops.INDEX_PADS[mode, dims].apply(input, pad=pad)


def _check_reflect(input, pad) -> None:
    for i in range(len(pad) // 2):
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if lo >= input.shape[dim] or hi >= input.shape[dim]:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({lo}, {hi}) at dimension {dim} of input "
                f"{size_list(input.shape)}"
            )


def _circular(input, pad):
    """The input wrapped around: the last `right` elements before it, the first `left`
    after it, axis by axis (built from slices and a concatenation)."""
    out = input
    for i in range(len(pad) // 2):
        dim = input.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = out.shape[dim]
        if lo > n or hi > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        lead = (slice(None),) * dim
        parts = [out[(*lead, slice(n - lo, n))]] if lo else []
        parts.append(out)
        if hi:
            parts.append(out[(*lead, slice(0, hi))])
        out = _F.cat(parts, dim) if len(parts) > 1 else out
    return out
