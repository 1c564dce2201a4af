"""Pooling layers: max, average, adaptive, power-average pooling and max unpooling."""

from ...engine.ops.arguments import ntuple
from ...engine.ops.pooling import ratios
from .. import functional as F
from .module import Module


class _MaxPoolNd(Module):
    function = None

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self).function(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPoolNd):
    """The largest value in each window along the last axis."""

    function = F.max_pool1d


class MaxPool2d(_MaxPoolNd):
    """The largest value in each kernel_size window of an image."""

    function = F.max_pool2d


class MaxPool3d(_MaxPoolNd):
    """The largest value in each window of a volume."""

    function = F.max_pool3d


class _AvgPoolNd(Module):
    nd = 2
    function = None

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        super().__init__()
        if self.nd == 1:
            self.kernel_size = ntuple(kernel_size, 1)
            self.stride = ntuple(stride if stride is not None else kernel_size, 1)
            self.padding = ntuple(padding, 1)
        else:
            self.kernel_size = kernel_size
            self.stride = stride if stride is not None else kernel_size
            self.padding = padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        if self.nd == 1:
            return F.avg_pool1d(
                input,
                self.kernel_size,
                self.stride,
                self.padding,
                self.ceil_mode,
                self.count_include_pad,
            )
        return type(self).function(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """The mean of each window along the last axis."""

    nd = 1

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True
    ):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """The mean of each kernel_size window of an image."""

    function = F.avg_pool2d


class AvgPool3d(_AvgPoolNd):
    """The mean of each window of a volume."""

    nd = 3
    function = F.avg_pool3d


class _AdaptivePool(Module):
    function = None

    def __init__(self, output_size, return_indices=False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return type(self).function(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    """Average over output_size near-equal windows along the last axis."""

    function = F.adaptive_avg_pool1d

    def __init__(self, output_size) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool2d(_AdaptivePool):
    """Average over output_size near-equal windows of an image ((1, 1): global average)."""

    function = F.adaptive_avg_pool2d

    def __init__(self, output_size) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool3d(_AdaptivePool):
    """Adaptive average pooling of a volume."""

    function = F.adaptive_avg_pool3d

    def __init__(self, output_size) -> None:
        super().__init__(output_size)


class _AdaptiveMax(_AdaptivePool):
    def forward(self, input):
        return type(self).function(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMax):
    """The largest value in output_size near-equal windows along the last axis."""

    function = F.adaptive_max_pool1d


class AdaptiveMaxPool2d(_AdaptiveMax):
    """The largest value in output_size near-equal windows of an image."""

    function = F.adaptive_max_pool2d


class AdaptiveMaxPool3d(_AdaptiveMax):
    """Adaptive max pooling of a volume."""

    function = F.adaptive_max_pool3d


class _LPPool(Module):
    function = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride = norm_type, kernel_size, stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return type(self).function(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPool):
    """The p-norm of each window along the last axis."""

    function = F.lp_pool1d


class LPPool2d(_LPPool):
    """The p-norm of each window of an image."""

    function = F.lp_pool2d


class LPPool3d(_LPPool):
    """The p-norm of each window of a volume."""

    function = F.lp_pool3d


class _MaxUnpool(Module):
    nd = 2
    function = None

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size = ntuple(kernel_size, self.nd)
        self.stride = ntuple(stride if stride is not None else kernel_size, self.nd)
        self.padding = ntuple(padding, self.nd)

    def forward(self, input, indices, output_size=None):
        return type(self).function(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    """Put max_pool1d's values back at their indices."""

    nd = 1
    function = F.max_unpool1d


class MaxUnpool2d(_MaxUnpool):
    """Put max_pool2d's values back at their indices."""

    function = F.max_unpool2d


class MaxUnpool3d(_MaxUnpool):
    """Put max_pool3d's values back at their indices."""

    nd = 3
    function = F.max_unpool3d


class _FractionalMaxPool(Module):
    nd = 2
    function = None

    def __init__(
        self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
        _random_samples=None,
    ) -> None:  # fmt: skip
        super().__init__()
        nd, name = self.nd, type(self).__name__
        self.kernel_size = ntuple(kernel_size, nd)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = ntuple(output_size, nd) if output_size is not None else None
        self.output_ratio = ratios(output_ratio, nd) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{name} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return type(self).function(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )


class FractionalMaxPool2d(_FractionalMaxPool):
    """Max pooling over pseudo-randomly placed windows (Graham's fractional max-pooling)."""

    function = F.fractional_max_pool2d


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling of a volume."""

    nd = 3
    function = F.fractional_max_pool3d
