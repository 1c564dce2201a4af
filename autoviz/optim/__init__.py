"""`torch.optim`: optimizers that update parameters in place from their gradients."""

from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
