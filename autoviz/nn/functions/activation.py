"""The activation functions of torch.nn.functional, each recorded as PyTorch records it:
one node where PyTorch has a kernel (gelu, elu, ...), ordinary ops where it composes
(softsign, tanhshrink, softmin)."""

import warnings

import numpy as np

from ...engine import functional as _F
from ...engine import random as _random
from ...engine import shape_ops
from ...engine.tensor import make
from .. import activation_ops as ops

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def relu(input, inplace=False):
    return _maybe_inplace(input, _F.relu(input), inplace)


def relu_(input):
    return relu(input, True)


def tanh(input):
    return _F.tanh(input)


def sigmoid(input):
    return _F.sigmoid(input)


def _softmax_dim(ndim: int) -> int:
    """PyTorch's old implicit softmax axis, chosen (with a warning) when `dim` is omitted."""
    warnings.warn(
        "Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.log_softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input): the smallest value gets the largest weight."""
    if dtype is not None:
        input = input.to(dtype)
    return _F.softmax(-input, _softmax_dim(input.ndim) if dim is None else dim)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) with Gumbel noise g = -log(Exp(1)) samples; hard=True
    gives one-hot samples that pass the soft gradient (straight-through)."""
    noise = make(logits._data.copy()).exponential_()
    gumbels = (logits - make(np.log(noise._data)).to(logits.dtype)) / tau
    soft = gumbels.softmax(dim)
    if not hard:
        return soft
    index = soft.max(dim, keepdim=True)[1]
    hard_ = make(np.zeros_like(logits._data))
    np.put_along_axis(hard_._data, index._data, 1, axis=dim)
    return hard_ - soft.detach() + soft


def gelu(input, approximate="none"):
    """x Φ(x); approximate='tanh' uses the tanh formula of the GPT papers."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return ops.Gelu.apply(input, approximate=approximate)


def silu(input, inplace=False):
    """x σ(x) (also called swish)."""
    return _maybe_inplace(input, ops.Silu.apply(input), inplace)


def mish(input, inplace=False):
    """x tanh(softplus(x))."""
    return _maybe_inplace(input, ops.Mish.apply(input), inplace)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, else α (exp(x) - 1)."""
    return _maybe_inplace(input, ops.Elu.apply(input, alpha=alpha), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def selu(input, inplace=False):
    """scale · elu(x, α) with the self-normalising constants α ≈ 1.6733, scale ≈ 1.0507."""
    out = ops.Elu.apply(input, alpha=_SELU_ALPHA, scale=_SELU_SCALE)
    return _maybe_inplace(input, out, inplace)


def selu_(input):
    return selu(input, True)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, α (exp(x / α) - 1))."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    out = ops.Celu.apply(input, alpha=alpha, input_scale=1.0 / alpha)
    return _maybe_inplace(input, out, inplace)


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(βx)) / β, linear above threshold."""
    return ops.Softplus.apply(input, beta=beta, threshold=threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    out = ops.Hardtanh.apply(input, min_val=min_val, max_val=max_val)
    return _maybe_inplace(input, out, inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6), recorded as PyTorch records it: a hardtanh."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardswish(input, inplace=False):
    """x · relu6(x + 3) / 6."""
    return _maybe_inplace(input, ops.Hardswish.apply(input), inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return _maybe_inplace(input, ops.Hardsigmoid.apply(input), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x > 0, else negative_slope · x."""
    return _maybe_inplace(input, ops.LeakyRelu.apply(input, slope=negative_slope), inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def prelu(input, weight):
    """leaky_relu with a learnt slope per channel (axis 1), or one for all."""
    if weight.ndim != 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    channels = input.shape[1] if input.ndim >= 2 else 1
    if weight.numel() not in (1, channels):
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{weight.numel()} and channel size = {channels}."
        )
    if input.ndim >= 2:
        shape = (
            (weight.numel(),) + (1,) * (input.ndim - 2)
            if weight.numel() > 1
            else (1,) * (input.ndim - 1)
        )
        weight = shape_ops.View.apply(weight, shape=shape)
    return ops.PreluKernel.apply(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """leaky_relu with a random slope from [lower, upper] for each negative element in
    training (drawn from the default generator as PyTorch draws it), the mean slope in
    evaluation."""
    data = input._data
    dt = data.dtype
    if training:
        negative = data <= 0
        slopes = _random.uniform(
            _random.default_generator, int(np.count_nonzero(negative)), np.float64, lower, upper
        )
        noise = np.ones(data.shape, dt)
        noise[negative] = slopes.astype(dt)
    else:
        noise = np.where(data >= 0, 1, dt.type((lower + upper) / 2)).astype(dt)
    return _maybe_inplace(input, ops.RreluWithNoise.apply(input, noise=noise), inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def glu(input, dim=-1):
    """a ⊙ σ(b) for the two halves a, b of input along dim."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {dim % input.ndim} is size {size}"
        )
    return ops.Glu.apply(input, dim=dim)


def logsigmoid(input):
    """log σ(x), computed without overflow."""
    return ops.LogSigmoid.apply(input)


def softsign(input):
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    """Shrink towards zero by λ, zero within ±λ."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return ops.Softshrink.apply(input, lambd=lambd)


def hardshrink(input, lambd=0.5):
    """x where |x| > λ, else 0."""
    return ops.Hardshrink.apply(input, lambd=lambd)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    out = ops.Threshold.apply(input, threshold=threshold, value=value)
    return _maybe_inplace(input, out, inplace)


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, True)


def _maybe_inplace(input, out, inplace):
    """inplace=True outside autograd: the result written into the input, which is returned,
    as PyTorch's `_` kernels do. A tensor in a graph keeps its value and the result is a
    new tensor whose node is the op's, so the graph has the op PyTorch records."""
    if not inplace or input.requires_grad:
        return out
    input._storage()[...] = out._data
    return input
