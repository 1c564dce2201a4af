"""Instance normalisation: each channel of each sample normalised over its positions."""

import warnings

from .. import functional as F
from .batchnorm import _LazyNorm, _NormBase


class _InstanceNorm(_NormBase):
    spatial = 1

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=False,
        track_running_stats=False,
        device=None,
        dtype=None,
    ):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        batched = self.spatial + 2
        if input.ndim not in (batched - 1, batched):
            raise ValueError(
                f"expected {batched - 1}D or {batched}D input (got {input.ndim}D input)"
            )
        channels = input.shape[-self.spatial - 1]
        if channels != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={input.ndim - self.spatial - 1} to match "
                    f"num_features ({self.num_features}), but got: {channels}."
                )
            warnings.warn(
                f"input's size at dim={input.ndim - self.spatial - 1} does not match "
                f"num_features. You can silence this warning by not passing in num_features, "
                "which is not used because affine=False",
                UserWarning,
                stacklevel=2,
            )
        unbatched = input.ndim == batched - 1
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) input."""

    spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) input."""

    spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W) input."""

    spatial = 3


class LazyInstanceNorm1d(_LazyNorm, InstanceNorm1d):
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNorm, InstanceNorm2d):
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNorm, InstanceNorm3d):
    cls_to_become = InstanceNorm3d
