"""`torch.nn.functional`: the functions behind the layers, recording PyTorch's nodes.

Each family lives in its module of autoviz/engine/ops/ (convolution, pooling, recurrent,
losses, activations, dropout, normalization, embedding, linear, vision); this module is their one
namespace, as PyTorch's is.
"""

from ..engine.ops.activations import (  # noqa: F401
    celu,
    celu_,
    elu,
    elu_,
    gelu,
    glu,
    gumbel_softmax,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    rrelu,
    rrelu_,
    selu,
    selu_,
    sigmoid,
    silu,
    softmax,
    softmin,
    softplus,
    softshrink,
    softsign,
    tanh,
    tanhshrink,
    threshold,
    threshold_,
)
from ..engine.ops.arguments import REDUCTIONS  # noqa: F401
from ..engine.ops.attention import (  # noqa: F401
    multi_head_attention_forward,
    scaled_dot_product_attention,
)
from ..engine.ops.convolution import (  # noqa: F401
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    pad,
)
from ..engine.ops.dropout import (  # noqa: F401
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from ..engine.ops.embedding import (  # noqa: F401
    embedding,
    embedding_bag,
    one_hot,
)
from ..engine.ops.linear import (  # noqa: F401
    bilinear,
    linear,
)
from ..engine.ops.losses import (  # noqa: F401
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cosine_embedding_loss,
    cosine_similarity,
    cross_entropy,
    ctc_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    huber_loss,
    kl_div,
    l1_loss,
    margin_ranking_loss,
    mse_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    nll_loss,
    pairwise_distance,
    pdist,
    poisson_nll_loss,
    smooth_l1_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from ..engine.ops.normalization import (  # noqa: F401
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    normalize,
    rms_norm,
)
from ..engine.ops.pooling import (  # noqa: F401
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from ..engine.ops.vision import (  # noqa: F401
    affine_grid,
    channel_shuffle,
    fold,
    grid_sample,
    interpolate,
    native_channel_shuffle,
    pixel_shuffle,
    pixel_unshuffle,
    unfold,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)
from ..engine.tensor import Tensor  # noqa: F401  (F.Tensor, as torch's module has it)


def has_torch_function(relevant_args) -> bool:
    """False: autoviz's tensors have no __torch_function__ overrides."""
    return False


has_torch_function_unary = has_torch_function_variadic = has_torch_function


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call public_api itself (nothing overrides it in autoviz)."""
    return public_api(*args, **kwargs)


def assert_int_or_pair(arg, arg_name, message) -> None:
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


def conv_tbc(input, weight, bias, pad=0):  # noqa: F811 (torch names the padding pad)
    """1-d convolution over (time, batch, channels) input, weight (kernel, in, out)."""
    out = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn.functional", name)
