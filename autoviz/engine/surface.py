"""PyTorch's names for the ops, made from one table: `torch.name` functions, `Tensor.name`
methods, in-place `x.name_()` variants and aliases; the names PyTorch has and autoviz lacks
are marked "not in autoviz yet"."""

from ..torchnames import mark_missing
from . import creation, sampling
from .ops import (
    activations,
    base,
    convolution,
    dropout,
    indexing,
    linalg,
    losses,
    normalization,
    pointwise,
    pooling,
    recurrent,
    reductions,
    shape,
)
from .ops import linear as linear_ops
from .tensor import Tensor

# Where each name goes: "torch" (a function torch.name), "Tensor" (a method x.name) and "_"
# (x.name_(), computed out of place and written back into x). `alias=name` gives a family's
# function another of PyTorch's names.
TABLE = (
    (pointwise, "add sub mul div", "torch Tensor"),  # add_ and friends: Tensor's own, in place
    (pointwise, "subtract=sub multiply=mul divide=div true_divide=div", "torch Tensor"),
    (pointwise, "negative=neg absolute=abs maximum minimum clone", "torch Tensor"),
    (pointwise, "exp log sqrt abs sin cos tanh sigmoid relu neg pow", "torch Tensor _"),
    (pointwise, "tan log10 log2 log1p expm1 exp2 rsqrt reciprocal square", "torch Tensor _"),
    (pointwise, "sign floor ceil round trunc clamp clip", "torch Tensor _"),
    (pointwise, "clamp_min", "Tensor _"),
    (pointwise, "eq ne lt le gt ge remainder fmod floor_divide", "torch Tensor"),
    (pointwise, "remainder floor_divide", "_"),
    (pointwise, "greater greater_equal less less_equal not_equal where", "torch"),
    (pointwise, "equal allclose isclose", "torch Tensor"),
    (pointwise, "type_as __mod__=remainder __floordiv__=floor_divide", "Tensor"),
    (pointwise, "__rmod__=rremainder __rfloordiv__=rfloor_divide", "Tensor"),
    (reductions, "sum mean max min argmax argmin softmax log_softmax", "torch Tensor"),
    (reductions, "var std norm cumsum prod logsumexp all any", "torch Tensor"),
    (shape, "reshape flatten transpose t permute unsqueeze squeeze", "torch Tensor"),
    (shape, "cat concat concatenate stack flip", "torch"),
    (shape, "view contiguous expand repeat flip=flip_method expand_as view_as", "Tensor"),
    (shape, "reshape_as is_contiguous=is_contiguous_tensor", "Tensor"),
    (indexing, "unbind sort argsort topk gather split chunk", "torch Tensor"),
    (indexing, "masked_fill", "Tensor _"),
    (linalg, "matmul mm mv dot outer", "torch Tensor"),
    (creation, "new_zeros new_ones new_empty new_full new_tensor", "Tensor"),
    (sampling, "uniform_ normal_ random_ bernoulli_ exponential_", "Tensor"),
    (sampling, "bernoulli=bernoulli_method multinomial=multinomial_method", "Tensor"),
    # the layer families: the torch-level names whose arguments are nn.functional's
    (convolution, "conv1d conv2d conv3d conv_transpose1d conv_transpose2d", "torch"),
    (convolution, "conv_transpose3d", "torch"),
    (pooling, "max_pool1d max_pool2d max_pool3d avg_pool1d adaptive_avg_pool1d", "torch"),
    (activations, "celu selu rrelu threshold", "torch"),
    (activations, "prelu hardshrink", "torch Tensor"),
    (dropout, "dropout alpha_dropout feature_alpha_dropout", "torch"),
    (normalization, "layer_norm group_norm rms_norm", "torch"),
    (linear_ops, "bilinear", "torch"),
    (losses, "pdist pairwise_distance cosine_similarity", "torch"),
    (recurrent, "rnn_tanh_cell rnn_relu_cell lstm_cell gru_cell", "torch"),
)

# One-input ops as methods without a call of Op.apply around them (scalar code's hot path).
FAST_METHODS = ("exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid", "relu", "neg")


def _rows():
    for module, names, places in TABLE:
        for name in names.split():
            name, _, source = name.partition("=")
            yield name, getattr(module, source or name), places.split()


def functions() -> dict:
    """{name: function} of the table's torch-level names (`torch.exp`, `torch.cat`, ...)."""
    return {name: function for name, function, places in _rows() if "torch" in places}


def attach() -> None:
    """Give Tensor the table's methods, the fast one-input ones, then the in-place variants."""
    rows = list(_rows())
    for name, function, places in rows:
        if "Tensor" in places:
            setattr(Tensor, name, function)
    for name in FAST_METHODS:
        setattr(Tensor, name, base.unary_method(getattr(pointwise, name.capitalize())))
    Tensor.__neg__ = Tensor.negative = Tensor.neg
    Tensor.absolute = Tensor.abs
    Tensor.mT = property(shape.mT)
    for name, _, places in rows:
        if "_" in places:
            setattr(Tensor, name + "_", base.inplace(getattr(Tensor, name)))
    Tensor.__imod__ = Tensor.remainder_
    Tensor.__ifloordiv__ = Tensor.floor_divide_
    mark_missing(Tensor, "torch.Tensor")  # the rest of torch.Tensor's names: "not in autoviz yet"


attach()
