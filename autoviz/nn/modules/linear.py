"""Linear layers: Linear, Bilinear, Identity and LazyLinear."""

import math

import numpy as np

from ...engine.dtypes import default_float, to_numpy_dtype
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .module import Module


def factory_dtype(dtype) -> np.dtype:
    """The numpy dtype of a layer's new parameters (dtype=..., or the default float dtype)."""
    return to_numpy_dtype(dtype) or default_float()


class Identity(Module):
    """Returns its input unchanged."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x @ weightᵀ + bias, with weight of shape (out_features, in_features)."""

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        np_dtype = factory_dtype(dtype)
        self.weight = Parameter(np.empty((out_features, in_features), dtype=np_dtype))
        if bias:
            self.bias = Parameter(np.empty(out_features, dtype=np_dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: weight and bias uniform in ±1/√in_features."""
        # kaiming_uniform_ with a = √5 works out to exactly the bound 1/√fan_in.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Bilinear(Module):
    """y = x1ᵀ A x2 + b, with A of shape (out_features, in1_features, in2_features)."""

    def __init__(
        self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None
    ):
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        np_dtype = factory_dtype(dtype)
        self.weight = Parameter(np.empty((out_features, in1_features, in2_features), np_dtype))
        if bias:
            self.bias = Parameter(np.empty(out_features, np_dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class LazyLinear(Linear):
    """A Linear whose in_features is read from its first input (then it becomes a Linear)."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self._dtype = factory_dtype(dtype)
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        if self.in_features:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        """Make the parameters for input.shape[-1] inputs, with PyTorch's default draws."""
        self.in_features = input.shape[-1]
        self.weight = Parameter(np.empty((self.out_features, self.in_features), self._dtype))
        if self.bias is not None:
            self.bias = Parameter(np.empty(self.out_features, self._dtype))
        self.reset_parameters()

    def __call__(self, *args, **kwargs):
        if isinstance(self.weight, UninitializedParameter):
            self.initialize_parameters(args[0])
            self.__class__ = self.cls_to_become
        return Module.__call__(self, *args, **kwargs)


class NonDynamicallyQuantizableLinear(Linear):
    """The Linear that MultiheadAttention projects its output with (the name keeps it out of
    PyTorch's dynamic quantization)."""


def factory_kwargs(kwargs):
    """The device, dtype and memory_format entries of kwargs, as layers pass them on."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    extra = set(kwargs) - simple - {"factory_kwargs"}
    if extra:
        raise TypeError(f"unexpected kwargs {extra}")
    out = {k: v for k, v in kwargs.items() if k in simple}
    out.update(kwargs.get("factory_kwargs", {}) or {})
    return out
