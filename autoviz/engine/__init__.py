"""The numpy autograd engine: tensors, ops, backward; knows nothing of drawing."""

from .dtypes import bool, float16, float32, float64, int32, int64, uint8
from .function import AccumulateGrad, Function, Node
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .tensor import Size, Tensor, tensor

__all__ = [
    "AccumulateGrad",
    "Function",
    "Node",
    "Size",
    "Tensor",
    "bool",
    "enable_grad",
    "float16",
    "float32",
    "float64",
    "int32",
    "int64",
    "is_grad_enabled",
    "no_grad",
    "set_grad_enabled",
    "tensor",
    "uint8",
]
