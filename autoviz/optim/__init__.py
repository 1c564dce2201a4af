"""`torch.optim`: optimizers that update parameters in place from their gradients, one
module per optimizer as in PyTorch (torch.optim.adam, torch.optim.sgd, ...)."""

from . import lr_scheduler, swa_utils
from ._adafactor import Adafactor
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = [
    "ASGD",
    "LBFGS",
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "lr_scheduler",
    "swa_utils",
]


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.optim", name)
