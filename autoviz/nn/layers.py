"""Layers with state beyond a weight: BatchNorm1d, Embedding, and LeakyReLU."""

import numpy as np

from ..engine.tensor import make
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class LeakyReLU(Module):
    """x where x > 0, else negative_slope · x."""

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class BatchNorm1d(Module):
    """Normalise each feature over the batch, then scale and shift (weight, bias); keeps
    running averages of mean and variance for evaluation."""

    def __init__(
        self,
        num_features: int,
        eps=1e-05,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        bias=True,
        dtype=None,
        device=None,
    ) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats, self._bias = affine, track_running_stats, bias
        if affine:
            self.weight = Parameter(np.ones(num_features, np.float32))
            self.bias = Parameter(np.zeros(num_features, np.float32)) if bias else None
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", make(np.zeros(num_features, np.float32)))
            self.register_buffer("running_var", make(np.ones(num_features, np.float32)))
            self.register_buffer("num_batches_tracked", make(np.array(0, np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def forward(self, input):
        if input.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")
        momentum = self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked._storage()[...] += 1
            if momentum is None:  # a cumulative average
                momentum = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or self.running_mean is None
        return F.batch_norm(
            input,
            self.running_mean if not self.training or self.track_running_stats else None,
            self.running_var if not self.training or self.track_running_stats else None,
            self.weight,
            self.bias,
            use_batch,
            momentum or 0.0,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self._bias}, "
            f"track_running_stats={self.track_running_stats}"
        )


class Embedding(Module):
    """A lookup table: row i of `weight` (num_embeddings × embedding_dim) for index i."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx=None,
        max_norm=None,
        norm_type=2.0,
        scale_grad_by_freq=False,
        sparse=False,
        _weight=None,
        _freeze=False,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx, self.max_norm = padding_idx, max_norm
        if _weight is None:
            self.weight = Parameter(np.empty((num_embeddings, embedding_dim), np.float32))
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight._storage()[self.padding_idx] = 0

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        return text + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "")

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, **kwargs):
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze)
