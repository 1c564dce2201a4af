"""torch.nn.grad: the gradients of a convolution with respect to its input and its weight,
as functions (what the convolution's backward computes)."""

import numpy as np

from ..engine.ops.arguments import ntuple
from ..engine.ops.convolution import scatter_patches, weight_grad
from ..engine.tensor import make


def _input(nd, input_size, weight, grad_output, stride, padding, dilation, groups):
    size = tuple(input_size)[-nd:]
    data = scatter_patches(
        grad_output._data,
        weight._data,
        size,
        ntuple(stride, nd),
        ntuple(padding, nd),
        ntuple(dilation, nd),
        groups,
    )
    return make(np.ascontiguousarray(data))


def _weight(nd, input, weight_size, grad_output, stride, padding, dilation, groups):
    data = weight_grad(
        input._data,
        grad_output._data,
        tuple(weight_size),
        ntuple(stride, nd),
        ntuple(padding, nd),
        ntuple(dilation, nd),
        groups,
    )
    return make(data)


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dinput of conv1d, given dL/doutput."""
    return _input(1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dweight of conv1d, given dL/doutput."""
    return _weight(1, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dinput of conv2d, given dL/doutput."""
    return _input(2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dweight of conv2d, given dL/doutput."""
    return _weight(2, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dinput of conv3d, given dL/doutput."""
    return _input(3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """dL/dweight of conv3d, given dL/doutput."""
    return _weight(3, input, weight_size, grad_output, stride, padding, dilation, groups)
