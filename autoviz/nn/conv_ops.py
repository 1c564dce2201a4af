"""Convolution as PyTorch records it: one ConvolutionBackward0 node for every rank (1-, 2-
and 3-d), stride, padding, dilation, groups, and the transposed convolution.

Patches are strided views of the padded input, so the forward is one matrix product per
group; its adjoint, the "col2im" that scatters patch gradients back, is one strided add
per kernel offset.
"""

import itertools

import numpy as np

from ..engine.ops import Op


def windows(x, kernel, stride, dilation):
    """The (N, C, *out, *kernel) view of every patch of `x` (N, C, *spatial), without copying."""
    spatial = x.shape[2:]
    out = tuple(
        (n - d * (k - 1) - 1) // s + 1
        for n, k, s, d in zip(spatial, kernel, stride, dilation, strict=True)
    )
    steps = x.strides[2:]
    strides = (
        *x.strides[:2],
        *(st * s for st, s in zip(steps, stride, strict=True)),
        *(st * d for st, d in zip(steps, dilation, strict=True)),
    )
    return np.lib.stride_tricks.as_strided(
        x, (*x.shape[:2], *out, *kernel), strides, writeable=False
    )


def pad_zeros(x, padding):
    """x with `padding` zeros before and after each spatial axis."""
    if not any(padding):
        return np.ascontiguousarray(x)
    return np.pad(x, ((0, 0), (0, 0), *((p, p) for p in padding)))


def correlate(x, w, stride, padding, dilation, groups):
    """out[n, o, l] = Σ_c,k w[o, c, k] · x_padded[n, c, l·stride + k·dilation] per group."""
    patches = windows(pad_zeros(x, padding), w.shape[2:], stride, dilation)
    nd = w.ndim - 2
    n, c = patches.shape[:2]
    o = w.shape[0]
    per_in, per_out = c // groups, o // groups
    out_spatial = patches.shape[2 : 2 + nd]
    out = np.empty((n, o, *out_spatial), np.result_type(x, w))
    k_axes = list(range(2 + nd, 2 + 2 * nd))
    for g in range(groups):
        part = patches[:, g * per_in : (g + 1) * per_in]
        wg = w[g * per_out : (g + 1) * per_out]
        prod = np.tensordot(part, wg, axes=([1, *k_axes], [1, *range(2, 2 + nd)]))
        out[:, g * per_out : (g + 1) * per_out] = np.moveaxis(prod, -1, 1)
    return out


def scatter_patches(grad, w, spatial, stride, padding, dilation, groups):
    """The adjoint of `correlate` in its input: each output's gradient spread over the patch
    it came from; `spatial` is the unpadded input's spatial shape."""
    nd = w.ndim - 2
    kernel = w.shape[2:]
    n, o = grad.shape[:2]
    per_out = o // groups
    per_in = w.shape[1]
    out_spatial = grad.shape[2:]
    full = tuple(s + 2 * p for s, p in zip(spatial, padding, strict=True))
    dx = np.zeros((n, per_in * groups, *full), np.result_type(grad, w))
    for g in range(groups):
        gg = grad[:, g * per_out : (g + 1) * per_out]
        wg = w[g * per_out : (g + 1) * per_out]
        cols = np.tensordot(gg, wg, axes=([1], [0]))  # (N, *out, C/G, *kernel)
        cols = np.moveaxis(cols, 1 + nd, 1)  # (N, C/G, *out, *kernel)
        target = dx[:, g * per_in : (g + 1) * per_in]
        for offset in itertools.product(*(range(k) for k in kernel)):
            where = tuple(
                slice(i * d, i * d + s * (lo - 1) + 1, s)
                for i, d, s, lo in zip(offset, dilation, stride, out_spatial, strict=True)
            )
            target[(slice(None), slice(None), *where)] += cols[(Ellipsis, *offset)]
    crop = tuple(slice(p, p + s) for p, s in zip(padding, spatial, strict=True))
    return dx[(slice(None), slice(None), *crop)]


def weight_grad(x, grad, w_shape, stride, padding, dilation, groups):
    """dout/dw of `correlate`: Σ_n,l grad[n, o, l] · x_padded[n, c, l·stride + k·dilation]."""
    nd = len(w_shape) - 2
    kernel = w_shape[2:]
    patches = windows(pad_zeros(x, padding), kernel, stride, dilation)
    out_spatial = grad.shape[2:]
    patches = patches[(slice(None), slice(None), *(slice(0, lo) for lo in out_spatial))]
    o = w_shape[0]
    per_in, per_out = w_shape[1], o // groups
    dw = np.empty(w_shape, np.result_type(x, grad))
    spatial_axes = list(range(2, 2 + nd))
    for g in range(groups):
        part = patches[:, g * per_in : (g + 1) * per_in]
        gg = grad[:, g * per_out : (g + 1) * per_out]
        dw[g * per_out : (g + 1) * per_out] = np.tensordot(
            gg, part, axes=([0, *spatial_axes], [0, *spatial_axes])
        )
    return dw


def bias_grad(grad):
    return np.sum(grad, axis=(0, *range(2, grad.ndim)))


class Convolution(Op):
    """z = conv(x, w) + b (a cross-correlation, as in every deep-learning library);
    dz/dx = the gradient spread back over each patch with w (a transposed convolution),
    dz/dw = Σ over batch and positions of the gradient times each patch, dz/db = Σ of the
    gradient over batch and positions. Transposed: the roles of x's forward and gradient swap.
    """

    _backward_name = "ConvolutionBackward0"

    @staticmethod
    def forward(
        ctx,
        x,
        w,
        b=None,
        stride=(1,),
        padding=(0,),
        dilation=(1,),
        transposed=False,
        output_padding=(0,),
        groups=1,
    ):
        ctx.save_for_backward(x, w)
        ctx.info = (stride, padding, dilation, transposed, output_padding, groups)
        if transposed:
            size = transposed_size(x.shape[2:], w.shape[2:], *ctx.info[:3], output_padding)
            out = scatter_patches(x, w, size, stride, padding, dilation, groups)
        else:
            out = correlate(x, w, stride, padding, dilation, groups)
        if b is not None:
            out += b.reshape(-1, *(1,) * (out.ndim - 2))
        return out

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        stride, padding, dilation, transposed, _, groups = ctx.info
        need = ctx.needs_input_grad
        gx = gw = None
        if transposed:
            if need[0]:
                gx = correlate(grad, w, stride, padding, dilation, groups)
            if need[1]:
                gw = weight_grad(grad, x, w.shape, stride, padding, dilation, groups)
        else:
            if need[0]:
                gx = scatter_patches(grad, w, x.shape[2:], stride, padding, dilation, groups)
            if need[1]:
                gw = weight_grad(x, grad, w.shape, stride, padding, dilation, groups)
        gb = bias_grad(grad) if len(need) > 2 and need[2] else None
        return gx, gw, gb


def transposed_size(spatial, kernel, stride, padding, dilation, output_padding):
    """The output size of a transposed convolution, without its padding crop."""
    return tuple(
        (n - 1) * s - 2 * p + d * (k - 1) + op + 1
        for n, k, s, p, d, op in zip(
            spatial, kernel, stride, padding, dilation, output_padding, strict=True
        )
    )
