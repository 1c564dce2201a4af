"""`torch.nn.functional`: activations, `linear` and the losses, recording PyTorch's nodes."""

import warnings

import numpy as np

from .. import engine as _F
from ..engine.dtypes import TYPE_NAMES
from ..engine.fidelity import random as _random
from ..engine.ops import linalg
from ..engine.ops import shape as shape_ops
from ..engine.tensor import Tensor, make, tensor
from . import ops

REDUCTIONS = ("none", "mean", "sum")


def relu(input, inplace=False):
    return _F.relu(input)  # computed out of place: the graph PyTorch shows is the same


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


def softmax(input, dim=None, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def log_softmax(input, dim=None, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _F.log_softmax(input, _softmax_dim(input.ndim) if dim is None else dim)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p): torch's CPU
    mask (bernoulli_(1 - p) on the default generator), recorded as its MulBackward0."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input  # torch returns the input itself: no node, no random numbers drawn
    dt = input._data.dtype
    if p == 1:
        noise = np.zeros((), dt)
    else:
        keep = _random.bernoulli_scalar(_random.default_generator, input.numel(), 1 - p)
        scale = np.float64(1 - p) if dt == np.float64 else np.float32(1 - p)
        noise = (keep.reshape(input.shape).astype(dt) / scale).astype(dt)
    return input.mul_(make(noise)) if inplace else input * make(noise)


def linear(input, weight, bias=None):
    """y = input @ weightᵀ + bias, recorded as PyTorch records it (Addmm, or Mm without bias)."""
    if weight.ndim == 2 and input.ndim >= 1 and input.shape[-1] != weight.shape[1]:
        # Before the transpose is recorded: PyTorch records nothing for a failing linear.
        rows = int(np.prod(input.shape[:-1])) if input.ndim > 1 else 1
        linalg.check_matmul(np.empty((rows, input.shape[-1])), np.empty(weight.shape[::-1]))
    w_t = shape_ops.T.apply(weight, dim0=0, dim1=1) if weight.ndim == 2 else weight
    if input.ndim == 2:
        return _matmul_2d(input, w_t, bias)
    if input.ndim == 1 and bias is None:
        # PyTorch multiplies a vector as a one-row matrix, then squeezes the row away.
        row = shape_ops.Unsqueeze.apply(input, dim=0)
        return ops.SqueezeRow.apply(_matmul_2d(row, w_t, None))
    # Other ranks fold the leading axes into one batch axis and unfold them afterwards.
    flat = shape_ops.View.apply(input, shape=(-1, input.shape[-1]))
    out = _matmul_2d(flat, w_t, bias)
    unfold = shape_ops.View if bias is not None else ops.UnsafeView
    return unfold.apply(out, shape=(*input.shape[:-1], w_t.shape[-1]))


def _matmul_2d(x, w_t, bias):
    _check_same_dtype(x, w_t, bias is not None)
    linalg.check_matmul(x._data, w_t._data)
    if bias is None:
        return linalg.Matmul.apply(x, w_t)
    return ops.Addmm.apply(bias, x, w_t)


# How PyTorch's C++ names scalar types in the plain-matmul dtype error.
_C10_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int"}


def _check_same_dtype(x, w, with_bias: bool) -> None:
    """No silent promotion: a float64 input to a float32 layer is an error, as in PyTorch."""
    a, b = x._data.dtype.name, w._data.dtype.name
    if a == b:
        return
    if with_bias:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_dtype_word(x)} and {_dtype_word(w)}"
        )
    raise RuntimeError(
        "expected m1 and m2 to have the same dtype, but got: "
        f"{_C10_NAMES.get(a, a)} != {_C10_NAMES.get(b, b)}"
    )


def _check_reduction(reduction: str) -> None:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _as_tensor(x) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean (or sum) of squared differences, one `MseLossBackward0` node."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if input.shape != target.shape:
        # The classic lesson bug: (N, 1) against (N,) broadcasts to (N, N) silently.
        warnings.warn(
            f"Using a target size ({target.shape!r}) that is different to the input size "
            f"({input.shape!r}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=2,
        )
    return ops.MseLoss.apply(input, target, reduction=reduction)


def _check_nll_shapes(input, target) -> None:
    if input.ndim >= 2 and target.ndim >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0]})."
        )
    if target._data.dtype.kind not in "iu":
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_dtype_word(target)}"
        )


def _dtype_word(t) -> str:
    """PyTorch's scalar type name for a tensor's dtype, as its error messages print it."""
    return TYPE_NAMES.get(t._data.dtype.name, str(t._data.dtype))


def _check_targets(target, classes: int, ignore_index: int) -> None:
    data = np.asarray(target._data)
    bad = data[(data != ignore_index) & ((data < 0) | (data >= classes))]
    if bad.size:
        raise IndexError(f"Target {bad.flat[0]} is out of bounds.")


def nll_loss(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index=-100,
    reduce=None,
    reduction="mean",
):
    """Negative log-likelihood of the target classes, given log-probabilities `input`."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    _check_nll_shapes(input, target)
    _check_targets(target, input.shape[0 if input.ndim == 1 else 1], ignore_index)
    options = {
        "weight": None if weight is None else np.asarray(weight._data, dtype=input._data.dtype),
        "ignore_index": ignore_index,
        "reduction": reduction,
        "labels": target,
    }
    labels = np.asarray(target._data)
    if input.ndim <= 2:
        return ops.NllLoss.apply(input, target=labels, **options)
    if input.ndim == 4:
        return ops.NllLoss2d.apply(input, target=labels, **options)
    # PyTorch folds other spatial ranks into the 4-D case, and unfolds a 'none' result.
    image = shape_ops.View.apply(input, shape=(*input.shape[:3], -1))
    out = ops.NllLoss2d.apply(image, target=labels.reshape(*labels.shape[:2], -1), **options)
    return shape_ops.View.apply(out, shape=labels.shape) if reduction == "none" else out


def cross_entropy(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index=-100,
    reduce=None,
    reduction="mean",
    label_smoothing=0.0,
):
    """nll_loss(log_softmax(input, class dim), target); soft (probability) targets too."""
    if label_smoothing:
        raise NotImplementedError("autoviz: cross_entropy does not support label_smoothing yet")
    target = _as_tensor(target)
    class_dim = 0 if input.ndim == 1 else 1
    logp = _F.log_softmax(input, class_dim)
    if target._data.dtype.kind == "f" and target.shape == input.shape:
        return _soft_cross_entropy(logp, target, weight, class_dim, reduction)
    return nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)


def _soft_cross_entropy(logp, target, weight, class_dim, reduction):
    """-Σ target · logp over classes, from plain ops as PyTorch records it."""
    _check_reduction(reduction)
    prod = logp * target
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = -1
        prod = prod * weight.reshape(shape)
    if reduction == "none":
        return -_F.sum(prod, dim=class_dim)
    total = -_F.sum(prod)
    if reduction == "sum":
        return total
    batch = logp.shape[0] if logp.ndim > 1 else 1
    return ops.DivScalar.apply(total, c=batch)


def binary_cross_entropy(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """-(y log p + (1 - y) log(1 - p)), with the logs clamped at -100 as PyTorch does."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if input.shape != target.shape:
        raise ValueError(
            f"Using a target size ({target.shape!r}) that is different to the input size "
            f"({input.shape!r}) is deprecated. Please ensure they have the same size."
        )
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_dtype_word(target)} but expected {_dtype_word(input)}")
    data = np.asarray(input._data)
    if np.any((data < 0) | (data > 1)) or np.any(np.isnan(data)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    w = None if weight is None else np.asarray(weight._data, dtype=data.dtype)
    return ops.BinaryCrossEntropy.apply(input, target, weight=w, reduction=reduction)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return ops.LeakyRelu.apply(input, slope=negative_slope)  # out of place, as relu


def one_hot(tensor_, num_classes=-1):
    """Each integer class index as a row of zeros with a one at that index (int64)."""
    data = np.asarray(tensor_._data)
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(data.max()) + 1 if data.size else 0
    elif data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros((*data.shape, num_classes), np.int64)
    np.put_along_axis(out, data[..., None], 1, axis=-1)
    return make(out)


def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
):
    """Binary cross-entropy on logits (sigmoid inside, computed stably); pos_weight scales the
    positive targets' term."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape!r}) must be the same as input size ({input.shape!r})"
        )
    w = None if weight is None else np.asarray(weight._data, dtype=input._data.dtype)
    pw = None if pos_weight is None else np.asarray(pos_weight._data, dtype=input._data.dtype)
    return ops.BinaryCrossEntropyWithLogits.apply(
        input, target, weight=w, pos_weight=pw, reduction=reduction
    )


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean (or sum) of absolute differences."""
    _check_reduction(reduction)
    losses = _F.abs(input - _as_tensor(target))
    if reduction == "none":
        return losses
    return _F.sum(losses) if reduction == "sum" else _F.mean(losses)


def embedding(
    input,
    weight,
    padding_idx=None,
    max_norm=None,
    norm_type=2.0,
    scale_grad_by_freq=False,
    sparse=False,
):
    """The rows of `weight` at the integer indices `input`."""
    indices = np.asarray(input._data)
    if indices.dtype.kind not in "iu":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{_dtype_word(input)}Tensor instead (while "
            "checking arguments for embedding)"
        )
    if indices.size and (indices.max() >= weight.shape[0] or indices.min() < 0):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return ops.Embedding.apply(weight, indices=indices, padding_idx=padding_idx)


def batch_norm(
    input,
    running_mean,
    running_var,
    weight=None,
    bias=None,
    training=False,
    momentum=0.1,
    eps=1e-05,
):
    """Normalise each channel (axis 1) by the batch's statistics in training, updating the
    running ones, or by the running ones in evaluation."""
    if training:
        size = int(np.prod([n for i, n in enumerate(input.shape) if i != 1]))
        if size == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{input.shape!r}"
            )
        if running_mean is not None:
            _update_running(input, running_mean, running_var, momentum)
    stats = None if training else (running_mean._data, running_var._data)
    return ops.NativeBatchNorm.apply(input, weight, bias, stats=stats, eps=eps, training=training)


def _update_running(input, running_mean, running_var, momentum) -> None:
    """running = momentum · batch statistic + (1 - momentum) · running, in float64 as
    PyTorch does it (the variance unbiased)."""
    mean, var_sum = ops.batch_stats(input._data)
    n = input.numel() // input.shape[1]
    unbiased = var_sum.astype(np.float64) / (n - 1)
    for stat, value in ((running_mean, mean.astype(np.float64)), (running_var, unbiased)):
        store = stat._storage()
        store[...] = momentum * value + (1 - momentum) * store.astype(np.float64)


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn.functional", name)
