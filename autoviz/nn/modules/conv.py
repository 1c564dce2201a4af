"""Convolution layers, 1-, 2- and 3-d, and their transposes (and the lazy forms)."""

import math

import numpy as np

from ...engine.ops.arguments import ntuple
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import factory_dtype
from .module import Module

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """What every convolution layer holds: its options, weight and bias."""

    nd = 2
    transposed = False

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
        output_padding=0,
    ) -> None:
        super().__init__()
        nd = self.nd
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and any(s != 1 for s in ntuple(stride, nd)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                f"padding_mode='{padding_mode}'"
            )
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = ntuple(kernel_size, nd)
        self.stride, self.dilation = ntuple(stride, nd), ntuple(dilation, nd)
        self.padding = padding if isinstance(padding, str) else ntuple(padding, nd)
        self.output_padding = ntuple(output_padding, nd)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = self._reversed_padding()
        if self.transposed:
            shape = (in_channels, out_channels // groups, *self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *self.kernel_size)
        dt = factory_dtype(dtype)
        self.weight = Parameter(np.empty(shape, dt))
        if bias:
            self.bias = Parameter(np.empty(out_channels, dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _reversed_padding(self) -> list:
        """F.pad's argument for a padding_mode other than zeros: last axis first."""
        if self.padding == "valid":
            return [0, 0] * self.nd
        if self.padding == "same":
            out = []
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size), strict=True):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return out
        return [p for p in reversed(self.padding) for _ in range(2)]

    def reset_parameters(self) -> None:
        """PyTorch's default: kaiming_uniform_(a=√5) weights, bias uniform in ±1/√fan_in."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        text = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if isinstance(self.padding, str) or self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class _Conv(_ConvNd):
    function = None

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _conv_forward(self, input, weight, bias):
        conv = type(self).function
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-d convolution: out_channels filters of kernel_size slid along (N, C, L) input."""

    nd = 1
    function = F.conv1d


class Conv2d(_Conv):
    """2-d convolution: out_channels filters slid over (N, C, H, W) images."""

    nd = 2
    function = F.conv2d


class Conv3d(_Conv):
    """3-d convolution over (N, C, D, H, W) volumes."""

    nd = 3
    function = F.conv3d


class _ConvTranspose(_ConvNd):
    transposed = True
    function = None

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
            output_padding,
        )

    def _output_padding(self, input, output_size) -> tuple:
        if output_size is None:
            return self.output_padding
        nd = self.nd
        size = list(output_size)[-nd:]
        spatial = input.shape[input.ndim - nd :]
        pads = []
        for i in range(nd):
            smallest = (
                (spatial[i] - 1) * self.stride[i]
                - 2 * self.padding[i]
                + self.dilation[i] * (self.kernel_size[i] - 1)
                + 1
            )
            largest = smallest + self.stride[i] - 1
            if not smallest <= size[i] <= largest:
                raise ValueError(
                    f"requested an output size of {size}, but valid sizes range from "
                    f"{[smallest]} to {[largest]} (for an input of {list(spatial)})"
                )
            pads.append(size[i] - smallest)
        return tuple(pads)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return type(self).function(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose1d(_ConvTranspose):
    """The transposed 1-d convolution (upsampling by a learnt kernel)."""

    nd = 1
    function = F.conv_transpose1d


class ConvTranspose2d(_ConvTranspose):
    """The transposed 2-d convolution, as in decoders and GAN generators."""

    nd = 2
    function = F.conv_transpose2d


class ConvTranspose3d(_ConvTranspose):
    """The transposed 3-d convolution."""

    nd = 3
    function = F.conv_transpose3d


def _lazy(base):
    """A lazy form of conv layer `base`: in_channels is read from the first input."""

    class Lazy(base):
        cls_to_become = base

        def __init__(self, out_channels, kernel_size, *args, **kwargs):
            Module.__init__(self)
            self._lazy = (out_channels, kernel_size, args, kwargs)

        def __call__(self, input, *args, **kwargs):
            out_channels, kernel_size, rest, options = self._lazy
            channels = input.shape[1] if input.ndim == self.nd + 2 else input.shape[0]
            base.__init__(self, channels, out_channels, kernel_size, *rest, **options)
            self.__class__ = base
            return Module.__call__(self, input, *args, **kwargs)

    Lazy.__name__ = Lazy.__qualname__ = f"Lazy{base.__name__}"
    Lazy.__doc__ = f"{base.__name__} whose in_channels is read from its first input."
    return Lazy


LazyConv1d = _lazy(Conv1d)
LazyConv2d = _lazy(Conv2d)
LazyConv3d = _lazy(Conv3d)
LazyConvTranspose1d = _lazy(ConvTranspose1d)
LazyConvTranspose2d = _lazy(ConvTranspose2d)
LazyConvTranspose3d = _lazy(ConvTranspose3d)
