"""How tracing reads tensors and backward nodes: autoviz's own here, torch's in the bridge."""

import numpy as np

from ..engine import AccumulateGrad, Tensor
from .modules import ModuleNames
from .preview import preview
from .saved import saved_entries

_DTYPE_NAMES = {}


def dtype_name(data) -> str:
    """str(dtype) is slow in numpy; a timeline asks for the same few many times."""
    dtype = getattr(data, "dtype", None) or np.asarray(data).dtype
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


class EngineView:
    """autoviz's engine objects, read directly; the bridge's TorchView answers the same calls.

    `modules` names the nn.Modules the caller's variables hold (paths such as `net.0`).
    """

    tensor_types = (Tensor,)
    accumulate_types = (AccumulateGrad,)

    def __init__(self, modules: ModuleNames | None = None) -> None:
        self.modules = modules or ModuleNames({})

    @staticmethod
    def given_name(t) -> str | None:
        """A name set with `tensor(..., name=)`, which wins over variable names."""
        return t._name

    def param_name(self, t) -> str | None:
        """`net.0.weight` for a parameter of a named module, which no variable holds."""
        return self.modules.param_names.get(id(t))

    @staticmethod
    def shape(t) -> tuple:
        return tuple(np.shape(t._data))

    @staticmethod
    def dtype(t) -> str:
        return dtype_name(t._data)

    @staticmethod
    def value(t):
        return preview(t._data)

    @staticmethod
    def grad(t):
        return preview(t._grad._data) if t._grad is not None else None

    @staticmethod
    def retains_grad(t) -> bool:
        return t._retains_grad

    @staticmethod
    def output(fn) -> tuple:
        """(shape, dtype, value) of what `fn` made, when no variable holds that tensor."""
        return tuple(np.shape(fn._out)), dtype_name(fn._out), preview(fn._out)

    def op_module(self, fn) -> list:
        """[[path, type], ...] of the modules an op ran in, outermost first."""
        return self.modules.of_op(fn)

    def param_module(self, t) -> list:
        """The module chain of the module owning parameter `t` ([] for other tensors)."""
        return self.modules.of_parameter(t)

    @staticmethod
    def saved(fn, inputs: dict, result) -> list:
        """What `fn` saved for backward, as {"name", "shape", "value"} (see saved.py)."""
        return saved_entries(fn, inputs, result)
