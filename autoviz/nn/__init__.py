"""`torch.nn`: modules, parameters, losses, and the `functional`, `init` and `utils` helpers."""

from . import attention, common_types, functional, grad, init, modules, parallel, parameter, utils
from .modules import *
from .modules import __all__ as _modules_all
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [
    *_modules_all,
    "Buffer",
    "DataParallel",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "attention",
    "common_types",
    "functional",
    "grad",
    "init",
    "modules",
    "parallel",
    "parameter",
    "utils",
]


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn", name)
