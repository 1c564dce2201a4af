"""`torch.nn`: modules, parameters, losses, and the `functional` and `init` helpers."""

from . import functional, init
from .loss import BCELoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .modules import (
    Dropout,
    Flatten,
    Identity,
    Linear,
    LogSoftmax,
    ModuleList,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter

__all__ = [
    "BCELoss",
    "CrossEntropyLoss",
    "Dropout",
    "Flatten",
    "Identity",
    "Linear",
    "LogSoftmax",
    "MSELoss",
    "Module",
    "ModuleList",
    "NLLLoss",
    "Parameter",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "functional",
    "init",
]
