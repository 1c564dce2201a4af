"""PyTorch's names for the ops, made from one table: `torch.name` functions, `Tensor.name`
methods, in-place variants (`x.name_()`, and `torch.name_(x)` where torch has one) and
aliases; the names PyTorch has and autoviz lacks are marked "not in autoviz yet"."""

import numpy as np

from ..torchnames import in_torch, mark_missing
from . import creation, sampling, views
from .ops import (
    activations,
    arithmetic,
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
    segments,
    shape,
    special,
)
from .ops import linear as linear_ops
from .tensor import Tensor

# Where each name goes: "torch" (a function torch.name), "Tensor" (a method x.name) and "_"
# (x.name_(), computed out of place and written back into x, and torch.name_(x) where torch
# has it); "view_" (x.name_() of a view op: x takes the view's shape). `alias=name` gives a
# family's function another of PyTorch's names.
TABLE = (
    (arithmetic, "add sub mul div", "torch Tensor"),  # add_ and friends: Tensor's own, in place
    (arithmetic, "subtract=sub multiply=mul divide=div true_divide=div", "torch Tensor _"),
    (arithmetic, "maximum minimum fmax fmin clone", "torch Tensor"),
    (
        arithmetic,
        "pow square float_power atan2 arctan2 hypot xlogy copysign lerp",
        "torch Tensor _",
    ),
    (arithmetic, "logaddexp logaddexp2 heaviside addcmul addcdiv diff", "torch Tensor"),
    (arithmetic, "heaviside", "_"),
    (arithmetic, "addcmul addcdiv", "_"),
    (
        arithmetic,
        "eq ne lt le gt ge greater greater_equal less less_equal not_equal",
        "torch Tensor _",
    ),
    (arithmetic, "remainder fmod floor_divide", "torch Tensor _"),
    (arithmetic, "bitwise_and bitwise_or bitwise_xor bitwise_not", "torch Tensor _"),
    (arithmetic, "bitwise_left_shift bitwise_right_shift", "torch Tensor _"),
    (arithmetic, "logical_and logical_or logical_xor logical_not", "torch Tensor _"),
    (arithmetic, "where equal allclose isclose", "torch"),
    (arithmetic, "equal allclose isclose type_as where=where_method", "Tensor"),
    (arithmetic, "__mod__=remainder __floordiv__=floor_divide", "Tensor"),
    (arithmetic, "__rmod__=rremainder __rfloordiv__=rfloor_divide", "Tensor"),
    (pointwise, "negative=neg absolute=abs", "torch Tensor _"),
    (pointwise, "exp log sqrt abs sin cos tanh sigmoid relu neg", "torch Tensor _"),
    (pointwise, "tan log10 log2 log1p expm1 exp2 rsqrt reciprocal", "torch Tensor _"),
    (pointwise, "asin acos atan sinh cosh asinh acosh atanh", "torch Tensor _"),
    (pointwise, "arcsin arccos arctan arcsinh arccosh arctanh", "torch Tensor _"),
    (pointwise, "erf erfc erfinv sinc deg2rad rad2deg frac logit nan_to_num", "torch Tensor _"),
    (
        pointwise,
        "sign sgn floor ceil round trunc fix clamp clip clamp_min clamp_max",
        "torch Tensor _",
    ),
    (pointwise, "isnan isinf isfinite isposinf isneginf signbit isreal positive", "torch Tensor"),
    (reductions, "sum mean max min argmax argmin softmax log_softmax", "torch Tensor"),
    (reductions, "var std norm cumsum prod logsumexp all any", "torch Tensor"),
    (reductions, "cumsum cumprod", "_"),
    (
        reductions,
        "amax amin aminmax cumprod logcumsumexp cummax cummin nansum nanmean",
        "torch Tensor",
    ),
    (reductions, "median var_mean std_mean", "torch"),
    (reductions, "median trace=trace_method", "Tensor"),
    (shape, "reshape flatten transpose t permute unsqueeze squeeze", "torch Tensor"),
    (shape, "transpose t unsqueeze squeeze", "view_"),
    (shape, "cat concat concatenate stack flip", "torch"),
    (shape, "view contiguous expand repeat flip=flip_method expand_as view_as", "Tensor"),
    (shape, "reshape_as is_contiguous=is_contiguous_tensor ndimension", "Tensor"),
    (
        shape,
        "roll rot90 fliplr flipud tile repeat_interleave diag diagonal tril triu",
        "torch Tensor",
    ),
    (shape, "tril triu", "_"),
    (shape, "movedim moveaxis swapaxes swapdims ravel unflatten broadcast_to", "torch Tensor"),
    (shape, "atleast_1d atleast_2d atleast_3d broadcast_tensors broadcast_shapes", "torch"),
    (shape, "hstack vstack row_stack dstack column_stack meshgrid", "torch"),
    (indexing, "unbind sort argsort topk gather split chunk", "torch Tensor"),
    (indexing, "masked_fill", "torch Tensor _"),
    (indexing, "index_select masked_select take take_along_dim scatter_add", "torch Tensor"),
    (indexing, "index_add index_copy index_fill narrow select tensor_split", "torch Tensor"),
    (indexing, "hsplit vsplit dsplit count_nonzero unique unique_consecutive", "torch Tensor"),
    (indexing, "scatter argwhere msort", "torch"),
    (indexing, "scatter=scatter_method nonzero=nonzero_method argwhere msort", "Tensor"),
    (indexing, "scatter=scatter_method scatter_add index_add index_copy index_fill", "_"),
    (indexing, "nonzero searchsorted bucketize", "torch"),
    (linalg, "matmul mm mv dot outer bmm baddbmm cross det inverse=inv", "torch Tensor"),
    (linear_ops, "addmm", "torch Tensor _"),
    (linalg, "baddbmm", "_"),
    (linalg, "einsum tensordot chain_matmul cdist", "torch"),
    (linalg, "vdot inner ger addmv addr addbmm kron dist logdet", "torch Tensor"),
    (linalg, "addmv addr addbmm", "_"),
    (linalg, "svd=torch_svd qr=torch_qr slogdet matrix_power pinverse=pinv", "torch Tensor"),
    (
        linalg,
        "cholesky=torch_cholesky cholesky_solve cholesky_inverse triangular_solve",
        "torch Tensor",
    ),
    (reductions, "cov corrcoef kthvalue mode nanmedian quantile nanquantile histc", "torch Tensor"),
    (reductions, "bincount", "torch Tensor"),
    (reductions, "trapezoid trapz cumulative_trapezoid", "torch"),
    (shape, "block_diag cartesian_prod tril_indices triu_indices unravel_index", "torch"),
    (shape, "zero_ resize_as_", "torch"),
    (arithmetic, "rsub", "torch"),
    (shape, "diag_embed diagflat combinations", "torch"),
    (shape, "diag_embed diagflat sum_to_size unfold=unfold_method", "Tensor"),
    (shape, "swapaxes swapdims", "view_"),
    (arithmetic, "gcd lcm ldexp frexp nextafter", "torch Tensor"),
    (arithmetic, "gcd lcm ldexp nextafter", "_"),
    (arithmetic, "isin", "torch"),
    (indexing, "put index_put masked_scatter", "torch Tensor _"),
    (indexing, "scatter_reduce index_reduce", "torch Tensor _"),
    (indexing, "unsafe_chunk unsafe_split", "torch Tensor"),
    (indexing, "fill_diagonal_", "Tensor"),
    (shape, "adjoint=mT", "torch Tensor"),
    (reductions, "renorm histogram", "torch Tensor"),
    (reductions, "renorm", "_"),
    (reductions, "gradient histogramdd", "torch"),
    (reductions, "hash_tensor", "torch Tensor"),
    (segments, "segment_reduce", "torch"),
    (special, "lgamma digamma i0 igamma igammac mvlgamma", "torch Tensor _"),
    (special, "polygamma", "torch"),
    (special, "polygamma=polygamma_method", "Tensor _"),
    (linalg, "vander=torch_vander", "torch"),
    (creation, "new new_zeros new_ones new_empty new_full new_tensor", "Tensor"),
    (sampling, "uniform_ normal_ random_ bernoulli_ exponential_", "Tensor"),
    (sampling, "cauchy_ log_normal_ geometric_", "Tensor"),
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


# The view ops: what they return shares the input's memory, and `out._base` names the tensor
# it is a view of (PyTorch's base, the first tensor of a chain of views).
VIEWS = frozenset(
    "view view_as reshape reshape_as flatten transpose t permute unsqueeze squeeze expand "  # noqa: SIM905
    "expand_as narrow diagonal movedim moveaxis swapaxes swapdims unflatten ravel".split()
)


def _rows():
    for module, names, places in TABLE:
        for name in names.split():
            name, _, source = name.partition("=")
            function = getattr(module, source or name)
            yield name, _viewing(function) if name in VIEWS else function, places.split()


def _viewing(function):
    """`function` marking its result as a view of its input when numpy made it one."""

    def view_op(input, *args, **kwargs):
        out = function(input, *args, **kwargs)
        data, memory = getattr(out, "_data", None), getattr(input, "_data", None)
        viewed = isinstance(data, np.ndarray) and out is not input
        if viewed and isinstance(memory, np.ndarray) and np.shares_memory(data, memory):
            views.mark(out, input, None)  # its place in the base is found when written
        return out

    view_op.__name__ = view_op.__qualname__ = function.__name__
    view_op.__doc__ = function.__doc__
    return view_op


def functions() -> dict:
    """{name: function} of the table's torch-level names (`torch.exp`, `torch.cat`, ...), with
    the in-place `torch.exp_` ones where torch has them."""
    names = {name: function for name, function, places in _rows() if "torch" in places}
    for name, _, places in _rows():
        if "_" in places and in_torch("torch", name + "_"):
            names[name + "_"] = _inplace_function(getattr(Tensor, name + "_"))
    return names


def _inplace_function(method):
    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)

    function.__name__ = function.__qualname__ = method.__name__
    function.__doc__ = method.__doc__
    return function


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
    Tensor.mH, Tensor.H = property(shape.mH), property(shape.H)
    Tensor.__pos__ = Tensor.positive
    for name, function, places in rows:
        method = getattr(Tensor, name) if "Tensor" in places else function
        if "_" in places:
            setattr(Tensor, name + "_", base.inplace(method))
        if "view_" in places:
            setattr(Tensor, name + "_", base.inplace_view(method))
    Tensor.__imod__ = Tensor.remainder_
    Tensor.__ifloordiv__ = Tensor.floor_divide_
    Tensor.__iand__, Tensor.__ior__, Tensor.__ixor__ = (
        Tensor.bitwise_and_,
        Tensor.bitwise_or_,
        Tensor.bitwise_xor_,
    )
    Tensor.__ilshift__ = Tensor.bitwise_left_shift_
    Tensor.__irshift__ = Tensor.bitwise_right_shift_
    mark_missing(Tensor, "torch.Tensor")  # the rest of torch.Tensor's names: "not in autoviz yet"


attach()
