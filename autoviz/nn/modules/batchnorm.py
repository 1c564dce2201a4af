"""Batch normalisation over 1-, 2- and 3-d features (and their lazy forms)."""

import numpy as np

from ...engine.tensor import make
from .. import functional as F
from ..parameter import Parameter
from .linear import factory_dtype
from .module import Module


class _NormBase(Module):
    """Affine weight and bias, and running statistics, per feature (channel)."""

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
        bias=True,
    ) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self._bias = bias and affine
        dt = factory_dtype(dtype)
        if affine:
            self.weight = Parameter(np.ones(num_features, dt))
            self.bias = Parameter(np.zeros(num_features, dt)) if bias else None
            if not bias:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", make(np.zeros(num_features, dt)))
            self.register_buffer("running_var", make(np.ones(num_features, dt)))
            self.register_buffer("num_batches_tracked", make(np.array(0, np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean._storage()[...] = 0
            self.running_var._storage()[...] = 1
            self.num_batches_tracked._storage()[...] = 0

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            self.weight._storage()[...] = 1
            if self.bias is not None:
                self.bias._storage()[...] = 0

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self._bias}, "
            f"track_running_stats={self.track_running_stats}"
        )


class _BatchNorm(_NormBase):
    dims = (2, 3)

    def _check_input_dim(self, input) -> None:
        if input.ndim not in self.dims:
            names = " or ".join(f"{d}D" for d in self.dims)
            raise ValueError(f"expected {names} input (got {input.ndim}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked._storage()[...] += 1
            if self.momentum is None:  # a cumulative average
                momentum = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or self.running_mean is None
        keep = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if keep else None,
            self.running_var if keep else None,
            self.weight,
            self.bias,
            use_batch,
            momentum,
            self.eps,
        )


class BatchNorm1d(_BatchNorm):
    """Normalise each feature of (N, C) or (N, C, L) input over the batch, then scale and
    shift; running averages of mean and variance serve in evaluation."""

    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of each channel of (N, C, H, W) input."""

    dims = (4,)

    def _check_input_dim(self, input) -> None:
        if input.ndim != 4:
            raise ValueError(f"expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of each channel of (N, C, D, H, W) input."""

    def _check_input_dim(self, input) -> None:
        if input.ndim != 5:
            raise ValueError(f"expected 5D input (got {input.ndim}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics span every process of a distributed run; in one
    process (autoviz's only kind) it is the batch norm of any (N, C, ...) input."""

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        process_group=None,
        device=None,
        dtype=None,
        *,
        bias=True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias
        )
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """module with every BatchNorm*d in it replaced by a SyncBatchNorm sharing its
        parameters and running statistics."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = cls(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
                bias=module._bias,
            )
            for name in ("weight", "bias", "running_mean", "running_var", "num_batches_tracked"):
                setattr(converted, name, getattr(module, name))
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted


class _LazyNorm:
    """A norm layer whose num_features is read from its first input's axis 1."""

    def __init__(
        self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None
    ):
        self._lazy = (eps, momentum, affine, track_running_stats, dtype)
        Module.__init__(self)

    def __call__(self, input, *args, **kwargs):
        eps, momentum, affine, track, dtype = self._lazy
        self.cls_to_become.__init__(self, input.shape[1], eps, momentum, affine, track, dtype=dtype)
        self.__class__ = self.cls_to_become
        return Module.__call__(self, input, *args, **kwargs)


class LazyBatchNorm1d(_LazyNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d
