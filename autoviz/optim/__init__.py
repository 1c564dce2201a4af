"""`torch.optim`: optimizers that update parameters in place from their gradients."""

from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.optim", name)
