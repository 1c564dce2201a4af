"""Dropout and its variants, with PyTorch's CPU masks: bernoulli_(1 - p) on the default
generator, per element or per channel (the feature dropouts), recorded as its MulBackward0
(and AddBackward0 for alpha dropout)."""

import warnings

import numpy as np

from ..fidelity import random as _random
from ..tensor import make

_ALPHA = 1.7580993408473766  # SELU's -scale · alpha: where alpha dropout sends dropped units


def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise(input, p, feature: bool):
    """The kept (1) / dropped (0) mask: one per element, drawn in the input's memory order
    (torch fills an empty_like of it, which keeps its strides), or one per (sample, channel)."""
    dt = input._data.dtype
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2) if feature else tuple(input.shape)
    count = int(np.prod(shape))
    keep = _random.bernoulli_scalar(_random.default_generator, count, 1 - p)
    order = None if feature else _memory_order(np.asarray(input._data))
    if order is None:
        return keep.reshape(shape).astype(dt)
    # torch draws into empty_like(input), which keeps a permuted layout (an LSTM's
    # batch_first output): the draws go in memory order, not in index order
    permuted = keep.reshape([shape[i] for i in order]).astype(dt)
    return np.ascontiguousarray(np.transpose(permuted, np.argsort(order)))


def _memory_order(data):
    """The dims from outermost to innermost in memory when `data` is dense but not row-major
    (a transposed or permuted array), else None."""
    if data.flags.c_contiguous or data.ndim < 2:
        return None
    dims = [i for i in range(data.ndim) if data.shape[i] > 1]
    dims.sort(key=lambda i: -data.strides[i])
    step = data.itemsize
    for i in reversed(dims):
        if data.strides[i] != step:
            return None  # overlapping or with gaps: torch's empty_like is row-major then
        step *= data.shape[i]
    rest = [i for i in range(data.ndim) if data.shape[i] <= 1]
    return rest + dims


def _dropout(input, p, training, inplace, feature=False, alpha=False):
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input  # torch returns the input itself: no node, no random numbers drawn
    dt = input._data.dtype
    if p == 1:
        zero = make(np.zeros((), dt))
        return input.mul_(zero) if inplace else input * zero
    noise = _noise(input, p, feature)
    one_minus = np.float64(1 - p) if dt == np.float64 else np.float32(1 - p)
    if not alpha:
        scaled = make((noise / one_minus).astype(dt))
        return input.mul_(scaled) if inplace else input * scaled
    a = 1.0 / np.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    t = dt.type
    shift = make(((noise + t(-1)) * t(_ALPHA * a) + t(_ALPHA * a * p)).astype(dt))
    scaled = make((noise * t(a)).astype(dt))
    out = input.mul_(scaled) if inplace else input * scaled
    return out.add_(shift) if inplace else out + shift


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p)."""
    return _dropout(input, p, training, inplace)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps SELU's mean and variance: dropped units go to -α·scale, then an
    affine correction."""
    return _dropout(input, p, training, inplace, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels."""
    return _dropout(input, p, training, inplace, feature=True, alpha=True)


def _feature(input, p, training, inplace, dims: int, name: str):
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}: Expected {dims + 1}D or {dims + 2}D input, but received a "
            f"{input.ndim}D input. Note that {name} exists to provide channel-wise "
            f"dropout on inputs with {dims} spatial dimension{'s' if dims > 1 else ''}, "
            f"a channel dimension, and an optional batch dimension (i.e. {dims + 1}D or "
            f"{dims + 2}D inputs)."
        )
    if input.ndim == dims + 1:
        return _dropout(input.unsqueeze(0), p, training, inplace, feature=True).squeeze(0)
    return _dropout(input, p, training, inplace, feature=True)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) input with probability p."""
    _check_p(p)
    return _feature(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input with probability p."""
    _check_p(p)
    if input.ndim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated "
            "and will result in an error in a future release. To retain the behavior and "
            "silence this warning, please use dropout instead. Note that dropout2d exists to "
            "provide channel-wise dropout on inputs with 2 spatial dimensions, a channel "
            "dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            UserWarning,
            stacklevel=2,
        )
    if input.ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret "
            "the input as one without a batch dimension, i.e. shape (C, H, W). To maintain "
            "the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
            UserWarning,
            stacklevel=2,
        )
    return _dropout(input, p, training, inplace, feature=True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) input with probability p."""
    _check_p(p)
    return _feature(input, p, training, inplace, 3, "dropout3d")
