"""Fold a following batch norm into a convolution or linear layer (for inference)."""

import copy

import numpy as np

from ..parameter import Parameter


def _fused(w, b, mean, var, eps, gamma, beta, transpose=False, linear=False):
    dt = w.dtype
    gamma = np.ones_like(mean) if gamma is None else gamma
    beta = np.zeros_like(mean) if beta is None else beta
    b = np.zeros_like(mean) if b is None else b
    scale = gamma / np.sqrt(var + eps)
    if linear:
        shape = (-1, 1)
    else:
        shape = [1] * w.ndim
        shape[1 if transpose else 0] = -1
    return (w * scale.reshape(shape)).astype(dt), ((b - mean) * scale + beta).astype(dt)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """(weight, bias) of the convolution that computes conv then batch norm (eval mode)."""
    w, b = _fused(
        conv_w._data,
        None if conv_b is None else conv_b._data,
        bn_rm._data,
        bn_rv._data,
        bn_eps,
        None if bn_w is None else bn_w._data,
        None if bn_b is None else bn_b._data,
        transpose,
    )
    return Parameter(w, conv_w.requires_grad), Parameter(b, conv_w.requires_grad)


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of conv with the batch norm (in eval mode) folded into its weight and bias."""
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight,
        fused.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
        transpose,
    )
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """(weight, bias) of the linear layer that computes linear then batch norm (eval mode)."""
    w, b = _fused(
        linear_w._data,
        None if linear_b is None else linear_b._data,
        bn_rm._data,
        bn_rv._data,
        bn_eps,
        bn_w._data,
        bn_b._data,
        linear=True,
    )
    return Parameter(w, linear_w.requires_grad), Parameter(b, linear_w.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """A copy of linear with the batch norm (in eval mode) folded in."""
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused
