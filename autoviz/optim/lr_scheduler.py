"""`torch.optim.lr_scheduler`: learning rates that change from epoch to epoch, each step
computed from the last as PyTorch computes it (so the floats are PyTorch's)."""

import math
import warnings
from collections import Counter

from .optimizer import Optimizer

__all__ = ["CosineAnnealingLR", "ExponentialLR", "LRScheduler", "LambdaLR", "MultiStepLR", "StepLR"]

_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
    "of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


class LRScheduler:
    """Base of the schedulers: `step()` once an epoch, after `optimizer.step()`."""

    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        optimizer._stepped = False  # set by the optimizer's step, to warn about the order
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def get_lr(self) -> list:
        raise NotImplementedError

    def get_last_lr(self) -> list:
        """The learning rates the last step set, one per parameter group."""
        return self._last_lr

    def step(self, epoch=None) -> None:
        if self._step_count == 1 and not getattr(self.optimizer, "_stepped", True):
            warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)

    def _current(self) -> list:
        return [group["lr"] for group in self.optimizer.param_groups]


class StepLR(LRScheduler):
    """lr × gamma every step_size epochs."""

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self._is_initial or self.last_epoch % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class MultiStepLR(LRScheduler):
    """lr × gamma at each milestone epoch."""

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1):
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self._is_initial or self.last_epoch not in self.milestones:
            return self._current()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._current()]


class ExponentialLR(LRScheduler):
    """lr × gamma every epoch."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self._is_initial:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class LambdaLR(LRScheduler):
    """base lr × lr_lambda(epoch) (one function, or one per parameter group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        groups = len(optimizer.param_groups)
        lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [lr_lambda] * groups
        if len(lambdas) != groups:
            raise ValueError(f"Expected {groups} lr_lambdas, but got {len(lambdas)}")
        self.lr_lambdas = lambdas
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [base * f(self.last_epoch) for f, base in zip(self.lr_lambdas, self.base_lrs)]  # noqa: B905

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}


class CosineAnnealingLR(LRScheduler):
    """lr following half a cosine from the base lr down to eta_min over T_max epochs (each
    step from the last, as PyTorch computes it)."""

    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        t, T, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self._current()
        if (t - 1 - T) % (2 * T) == 0:
            return [
                lr + (base - low) * (1 - math.cos(math.pi / T)) / 2
                for lr, base in zip(self._current(), self.base_lrs)  # noqa: B905
            ]
        ratio = (1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
        return [ratio * (lr - low) + low for lr in self._current()]


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.optim.lr_scheduler", name)
