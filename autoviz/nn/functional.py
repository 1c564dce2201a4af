"""`torch.nn.functional`: the functions behind the layers, recording PyTorch's nodes.

Each family lives in a module of nn/functions/; this module is their one namespace.
"""

from .functions.activation import (  # noqa: F401
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
from .functions.common import REDUCTIONS  # noqa: F401
from .functions.conv import (  # noqa: F401
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from .functions.distance import (  # noqa: F401
    cosine_similarity,
    pairwise_distance,
    pdist,
)
from .functions.dropout import (  # noqa: F401
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from .functions.linear import (  # noqa: F401
    bilinear,
    linear,
)
from .functions.loss import (  # noqa: F401
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cosine_embedding_loss,
    cross_entropy,
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
    poisson_nll_loss,
    smooth_l1_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from .functions.normalization import (  # noqa: F401
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    local_response_norm,
    normalize,
    rms_norm,
)
from .functions.padding import (  # noqa: F401
    pad,
)
from .functions.pooling import (  # noqa: F401
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
from .functions.sparse import (  # noqa: F401
    embedding,
    embedding_bag,
    one_hot,
)


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn.functional", name)
