"""`torch.nn`: modules, parameters, losses, and the `functional` and `init` helpers."""

from . import functional, init, utils
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .layers import BatchNorm1d, Embedding, LeakyReLU
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module
from .modules import (
    Dropout,
    Flatten,
    Identity,
    Linear,
    LogSoftmax,
    ReLU,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "Identity",
    "L1Loss",
    "LeakyReLU",
    "Linear",
    "LogSoftmax",
    "MSELoss",
    "Module",
    "ModuleDict",
    "ModuleList",
    "NLLLoss",
    "Parameter",
    "ParameterDict",
    "ParameterList",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "functional",
    "init",
    "utils",
]


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.nn", name)
