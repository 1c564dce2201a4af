"""Dropout layers: active in training, the identity in evaluation."""

from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    function = None

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return type(self).function(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability p and scale the rest by 1 / (1 - p)."""

    function = F.dropout


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) input."""

    function = F.dropout1d


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) input."""

    function = F.dropout2d


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) input."""

    function = F.dropout3d


class AlphaDropout(_DropoutNd):
    """Dropout that keeps a SELU network's mean and variance."""

    function = F.alpha_dropout


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels."""

    function = F.feature_alpha_dropout
