"""Stochastic weight averaging: a running average of a model's weights (AveragedModel),
its learning-rate schedule (SWALR), and recomputing batch-norm statistics (update_bn)."""

import copy
import itertools
import math

import numpy as np

from ..engine.grad_mode import no_grad
from ..engine.tensor import make
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler


def get_ema_multi_avg_fn(decay=0.999):
    def ema_update(ema_param_list, current_param_list, num_averaged):
        for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
            p_ema._storage()[...] = p_ema._data + (p_model._data - p_ema._data) * (1 - decay)

    return ema_update


def get_swa_multi_avg_fn():
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        n = float(num_averaged) + 1
        for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
            p_avg._storage()[...] = p_avg._data + (p_model._data - p_avg._data) / n

    return swa_update


def get_ema_avg_fn(decay=0.999):
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters are the average of the model's over the calls of
    update_parameters (equal weights by default, or an exponential moving average)."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.register_buffer("n_averaged", make(np.array(0, np.int64)))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model) -> None:
        mine = (
            itertools.chain(self.module.parameters(), self.module.buffers())
            if self.use_buffers
            else self.parameters()
        )
        theirs = (
            itertools.chain(model.parameters(), model.buffers())
            if self.use_buffers
            else model.parameters()
        )
        mine = [p for p in mine if p is not self.n_averaged]
        theirs = list(theirs)
        n = int(self.n_averaged.item())
        with no_grad():
            if n == 0:
                for a, b in zip(mine, theirs, strict=True):
                    a._storage()[...] = b._data
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(mine, theirs, make(np.array(n)))
            else:
                update = self.avg_fn or get_swa_avg_fn()
                for a, b in zip(mine, theirs, strict=True):
                    a._storage()[...] = np.asarray(
                        update(a.detach(), b.detach(), make(np.array(n)))._data
                    )
        if not self.use_buffers:
            for a, b in zip(self.module.buffers(), model.buffers(), strict=True):
                a._storage()[...] = b._data
        self.n_averaged._storage()[...] += 1


@no_grad()
def update_bn(loader, model, device=None) -> None:
    """Recompute every batch norm's running statistics with one pass over loader."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to swa_lr over anneal_epochs (cosine or linear), then hold it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = (
            list(swa_lr)
            if isinstance(swa_lr, (list, tuple))
            else [swa_lr] * len(optimizer.param_groups)
        )
        for lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must by one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)
        ]
