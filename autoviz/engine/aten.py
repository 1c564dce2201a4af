"""torch's top-level spellings of ops whose home is nn.functional, in ATen's argument order
(`torch.embedding(weight, indices)`; a loss's reduction as 0, 1 or 2, "none" unless given), and
the functional twins of a few Tensor methods (`torch.detach(x)`, `torch.fill_(x, v)`)."""

from .ops import activations, dropout, losses, normalization, pooling
from .ops import embedding as _embedding
from .ops.convolution import pad
from .ops.vision import channel_shuffle, pixel_shuffle, pixel_unshuffle  # noqa: F401

_REDUCTION = ("none", "mean", "sum")  # ATen's Reduction enum: 0, 1, 2


def _reduction(value) -> str:
    if isinstance(value, str):
        return value
    if value not in (0, 1, 2) or isinstance(value, bool):
        raise RuntimeError(f"{value} is not a valid value for reduction")
    return _REDUCTION[value]


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    padding = None if padding_idx == -1 else padding_idx
    return _embedding.embedding(
        indices, weight, padding, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse
    )


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, _cudnn):
    return normalization.batch_norm(
        input, running_mean, running_var, weight, bias, training, momentum, eps
    )


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  _cudnn):  # fmt: skip
    return normalization.instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def kl_div(input, target, reduction=0, log_target=False):
    return losses.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return losses.binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return losses.cosine_embedding_loss(
        input1, input2, target, margin, reduction=_reduction(reduction)
    )


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return losses.margin_ranking_loss(
        input1, input2, target, margin, reduction=_reduction(reduction)
    )


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return losses.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        reduction=0):  # fmt: skip
    return losses.triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction)
    )


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return losses.poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=_reduction(reduction)
    )


def adaptive_max_pool1d(input, output_size):
    return pooling.adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1,
                            ceil_mode=False):  # fmt: skip
    return pooling.max_pool1d(
        input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True
    )


def constant_pad_nd(input, pad_, value=0):
    return pad(input, list(pad_), "constant", value)


def dropout_(input, p, train):
    return dropout.dropout(input, p, train, inplace=True)


def alpha_dropout_(input, p, train):
    return dropout.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout_(input, p, train):
    return dropout.feature_alpha_dropout(input, p, train, inplace=True)


def selu_(input):
    return activations.selu_(input)


def celu_(input, alpha=1.0):
    return activations.celu_(input, alpha)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return activations.rrelu_(input, lower, upper, training)


def threshold_(input, threshold, value):
    return activations.threshold_(input, threshold, value)


def detach(input):
    return input.detach()


def detach_(input):
    return input.detach_()


def fill_(input, value):
    return input.fill_(value)
