"""1- and 2-d float32 convolution added up in the order of PyTorch's CPU kernel (oneDNN on
AVX2), so a lesson's CNN prints torch's digits: chains of fused multiply-adds, as it runs them.

Measured against torch 2.13 on one thread (tests/test_conv_order.py): the forward adds over
kernel rows, kernel columns, then input channels, in one chain per block of 16 input
channels, the first block's sum plus the bias, then each further block's sum added; the
input's gradient likewise over kernel rows, columns, then output channels per block of 16,
in one chain where the strides tile the padded input's width, else one per kernel column
(strided: up to 16 output channels); the weight's gradient over batch, output rows, then
output columns; the bias's gradient the same, by plain additions. Other cases (dilation,
groups, a batch of one that torch sends to its im2col kernel, or more work than a lesson's
layer) keep numpy's products, equal to a few ulps. A 1-d convolution runs as a 2-d one of
height 1, as in torch."""

import numpy as np

from .fma import HALF29, LOW29, fma32

_F32_TINY = float(np.finfo(np.float32).tiny)

_WORK = 1e7  # multiply-adds emulated at most per call (about 0.2 s; numpy past that)
_CHAIN = 20_000  # the weight gradient's chain: one numpy step per batch position
_BLOCK = 16  # channels per chain: each block of 16 is summed on its own, then added


def _line(options):
    """A 1-d convolution's stride, padding and dilation as those of a 2-d one of height 1 (torch's
    oneDNN path runs it so)."""
    stride, padding, dilation, groups = options
    return (1, *stride), (0, *padding), (1, *dilation), groups


def _taller(shape):
    return (*shape[:2], 1, *shape[2:])


def _pad(x, padding):
    (ph, pw) = padding
    return np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x


def _onednn(x_shape, w_shape, dilation, groups) -> bool:
    """Whether torch runs this float32 2-d convolution through oneDNN (its `use_mkldnn` rule)."""
    if len(w_shape) != 4 or len(x_shape) != 4 or groups != 1 or any(d != 1 for d in dilation):
        return False
    return x_shape[0] > 1 or (w_shape[2] > 3 and w_shape[3] > 3) or np.prod(x_shape) > 20480


def _fits(*arrays, dtype=np.float32) -> bool:
    return all(a.dtype == dtype for a in arrays)


def _tap(x, i, j, stride, out):
    """The input values kernel tap (i, j) meets at every output position: (N, C, oh, ow)."""
    (sh, sw), (oh, ow) = stride, out
    return x[:, :, i : i + sh * (oh - 1) + 1 : sh, j : j + sw * (ow - 1) + 1 : sw]


def _forward(x, w, b, stride, padding, dilation, groups):
    """conv2d(x, w) + b in oneDNN's order, or None where it does not apply."""
    if not (_fits(x, w) and _onednn(x.shape, w.shape, dilation, groups)):
        return None
    n, c = x.shape[:2]
    o, _, kh, kw = w.shape
    xp = _pad(x, padding)
    out = tuple((s - k) // st + 1 for s, k, st in zip(xp.shape[2:], (kh, kw), stride, strict=True))
    if n * o * out[0] * out[1] * c * kh * kw > _WORK:
        return None
    total = None
    for first in range(0, c, _BLOCK):
        acc = np.zeros((n, o, *out), np.float32)
        for i in range(kh):
            for j in range(kw):
                tap = _tap(xp, i, j, stride, out)
                for ch in range(first, min(c, first + _BLOCK)):
                    acc = fma32(tap[:, ch, None], w[None, :, ch, i, j, None, None], acc)
        if total is None:
            total = acc if b is None else acc + b.reshape(-1, 1, 1)
        else:
            total += acc
    return total


def _input_grad(grad, w, x_shape, stride, padding, dilation, groups):
    """d conv / d x in oneDNN's order, or None where it does not apply."""
    if not (_fits(grad, w) and _onednn(x_shape, w.shape, dilation, groups)):
        return None
    n, o, oh, ow = grad.shape
    _, c, kh, kw = w.shape
    full = (x_shape[2] + 2 * padding[0], x_shape[3] + 2 * padding[1])
    strided = stride != (1, 1)
    if (strided and o > _BLOCK) or n * c * oh * ow * o * kh * kw > _WORK:
        return None  # a strided gradient of more than 16 channels adds up otherwise
    # Where the strided taps leave the padded input's last columns untouched, each kernel
    # column has its own accumulator, added up at the end; otherwise one chain for all.
    split = not _tiles(full[1], kw, stride[1])
    dx = None
    for first in range(0, o, _BLOCK):
        parts = [np.zeros((n, c, *full), np.float32) for _ in range(kw if split else 1)]
        for i in range(kh):
            for j in range(kw):
                tap = _tap(parts[j if split else 0], i, j, stride, (oh, ow))
                for ch in range(first, min(o, first + _BLOCK)):
                    tap[...] = fma32(grad[:, ch, None], w[None, ch, :, i, j, None, None], tap)
        for part in parts:
            if dx is None:
                dx = part
            else:
                dx += part
    (ph, pw) = padding
    return dx[:, :, ph : ph + x_shape[2], pw : pw + x_shape[3]]


def _tiles(size, kernel, stride) -> bool:
    return stride == 1 or (size - kernel) % stride == 0


def _weight_grad(x, grad, w_shape, stride, padding, dilation, groups):
    """d conv / d w in oneDNN's order, or None where it does not apply."""
    if not (_fits(x, grad) and _onednn(x.shape, w_shape, dilation, groups)):
        return None
    n, o, oh, ow = grad.shape
    _, c, kh, kw = w_shape
    if n * oh * ow > _CHAIN or n * oh * ow * o * c * kh * kw > _WORK:
        return None
    xp = _pad(x, padding)
    (sh, sw) = stride
    # One position after another: the products exactly in float64 for a row of positions at
    # a time, each sum rounded to float32 (fma32 itself only where that rounding is a tie).
    acc = np.zeros(w_shape, np.float64)
    for b in range(n):
        g = grad[b].astype(np.float64)
        for y in range(oh):
            rows = xp[b, :, y * sh : y * sh + kh].astype(np.float64)
            for z in range(ow):
                patch = rows[:, :, z * sw : z * sw + kw]
                total = acc + g[:, y, z, None, None, None] * patch[None]
                if ((total.view(np.int64) & LOW29) == HALF29).any() or _subnormal(total):
                    patch32 = xp[b, :, y * sh : y * sh + kh, z * sw : z * sw + kw]
                    rounded = fma32(grad[b, :, y, z, None, None, None], patch32[None], acc)
                    acc = rounded.astype(np.float64)
                else:
                    acc = total.astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


def _subnormal(s) -> bool:
    return bool(((np.abs(s) < _F32_TINY) & (s != 0)).any())


def _bias_grad(grad, x_shape, w_shape, dilation, groups):
    """Σ of the gradient over batch and positions, one position after another, or None."""
    if not (_fits(grad) and _onednn(x_shape, w_shape, dilation, groups)):
        return None
    if np.prod(grad.shape) > _CHAIN * grad.shape[1]:
        return None
    rows = np.moveaxis(grad, 1, -1).reshape(-1, grad.shape[1])
    db = rows[0].copy()
    for row in rows[1:]:
        db += row
    return db


def forward(x, w, b, stride, padding, dilation, groups):
    """conv(x, w) + b in oneDNN's order (1- and 2-d), or None where it does not apply."""
    if x.ndim == 3:
        out = _forward(x[:, :, None], w[:, :, None], b, *_line((stride, padding, dilation, groups)))
        return None if out is None else out[:, :, 0]
    return _forward(x, w, b, stride, padding, dilation, groups)


def input_grad(grad, w, x_shape, stride, padding, dilation, groups):
    """d conv / d x in oneDNN's order (1- and 2-d), or None where it does not apply."""
    if grad.ndim == 3:
        options = _line((stride, padding, dilation, groups))
        dx = _input_grad(grad[:, :, None], w[:, :, None], _taller(x_shape), *options)
        return None if dx is None else dx[:, :, 0]
    return _input_grad(grad, w, x_shape, stride, padding, dilation, groups)


def weight_grad(x, grad, w_shape, stride, padding, dilation, groups):
    """d conv / d w in oneDNN's order (1- and 2-d), or None where it does not apply."""
    if x.ndim == 3:
        options = _line((stride, padding, dilation, groups))
        dw = _weight_grad(x[:, :, None], grad[:, :, None], _taller(w_shape), *options)
        return None if dw is None else dw[:, :, 0]
    return _weight_grad(x, grad, w_shape, stride, padding, dilation, groups)


def bias_grad(grad, x_shape, w_shape, dilation, groups):
    """Σ of the gradient over batch and positions, one position after another, or None."""
    if grad.ndim == 3:
        return _bias_grad(
            grad[:, :, None], _taller(x_shape), _taller(w_shape), (1, *dilation), groups
        )
    return _bias_grad(grad, x_shape, w_shape, dilation, groups)
