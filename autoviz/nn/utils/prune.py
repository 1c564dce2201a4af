"""Pruning: masks that zero some of a parameter's entries, kept as name_orig and name_mask and
applied before each forward (torch.nn.utils.prune)."""

import numbers

import numpy as np

from ...engine.tensor import make
from ..parameter import Parameter


def _count(amount, total: int) -> int:
    if isinstance(amount, numbers.Integral):
        if amount > total:
            raise ValueError(
                f"amount={amount} should be smaller than the number of parameters to prune={total}"
            )
        return int(amount)
    if not 0.0 <= amount <= 1.0:
        raise ValueError("amount must be a float in [0, 1] or a non-negative integer")
    return round(amount * total)


class BasePruningMethod:
    """A pruning method: compute_mask(t, default_mask), applied by apply(module, name, ...)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        raise NotImplementedError

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    def apply_mask(self, module):
        orig = getattr(module, self._tensor_name + "_orig")
        mask = getattr(module, self._tensor_name + "_mask")
        return orig * mask

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        method = cls(*args, **kwargs)
        method._tensor_name = name
        hooks = getattr(module, "_prune_hooks", {})
        if name in hooks:
            previous = hooks[name]
            orig = getattr(module, name + "_orig")
            default_mask = getattr(module, name + "_mask").detach().clone()
            previous_handle = module.__dict__.pop("_prune_handle_" + name)
            previous_handle.remove()
        else:
            orig = getattr(module, name)
            module.register_parameter(name + "_orig", Parameter(orig.detach(), orig.requires_grad))
            del module._parameters[name]
            orig = getattr(module, name + "_orig")
            default_mask = make(np.ones(orig.shape, orig._data.dtype))
            previous = None
        if previous is None:
            scores = importance_scores if importance_scores is not None else orig
            mask = method.compute_mask(scores, default_mask)
        else:  # pruned again: by the pruned values, on what is still unpruned
            scores = importance_scores if importance_scores is not None else getattr(module, name)
            mask = _combined(method, scores, default_mask)
        module.register_buffer(name + "_mask", mask)
        setattr(module, name, method.apply_mask(module))
        module.__dict__.setdefault("_prune_hooks", {})[name] = method
        module.__dict__["_prune_handle_" + name] = module.register_forward_pre_hook(method)
        return method

    def remove(self, module):
        weight = self.apply_mask(module).detach()
        name = self._tensor_name
        del module._parameters[name + "_orig"]
        del module._buffers[name + "_mask"]
        module.__dict__.pop(name, None)
        module.register_parameter(name, Parameter(weight))


def _combined(method, t, mask):
    """A new pruning on top of `mask`, as torch's PruningContainer makes it: the method sees
    only what is unpruned (the entries still 1, or the channels not yet wholly cut), so its
    amount is a share of those."""
    values, old = np.asarray(t._data), np.asarray(mask._data)
    if method.PRUNING_TYPE == "unstructured":
        where = old == 1
    elif method.PRUNING_TYPE == "structured":
        dim = method.dim % values.ndim
        others = tuple(d for d in range(values.ndim) if d != dim)
        where = tuple(
            old.sum(axis=others) != 0 if d == dim else slice(None) for d in range(old.ndim)
        )
    else:
        where = (slice(None),) * values.ndim
    partial = method.compute_mask(make(values[where]), make(old[where]))
    new = old.astype(values.dtype)
    new[where] = np.asarray(partial._data)
    return make(new)


class Identity(BasePruningMethod):
    """Prunes nothing (a mask of ones)."""

    def compute_mask(self, t, default_mask):
        return default_mask


class _Unstructured(BasePruningMethod):
    """Zero `amount` single entries (a count, or a fraction of them), the ones `_chosen` picks."""

    def __init__(self, amount) -> None:
        self.amount = amount

    def compute_mask(self, t, default_mask):
        k = _count(self.amount, t.numel())
        mask = np.array(default_mask._data, copy=True)
        if k:
            mask.reshape(-1)[self._chosen(t, k)] = 0
        return make(mask)


class RandomUnstructured(_Unstructured):
    """Zero `amount` entries chosen at random (the largest of a rand_like draw)."""

    def _chosen(self, t, k):
        prob = make(np.zeros(t.shape, t._data.dtype)).uniform_()
        return prob.view(-1).topk(k).indices._data


class L1Unstructured(_Unstructured):
    """Zero the `amount` entries smallest in absolute value."""

    def _chosen(self, t, k):
        magnitudes = make(np.abs(np.asarray(t._data))).view(-1)
        return magnitudes.topk(k, largest=False).indices._data


class LnStructured(BasePruningMethod):
    """Zero the `amount` channels (slices along dim) of smallest Ln norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1) -> None:
        self.amount, self.n, self.dim = amount, n, dim

    def compute_mask(self, t, default_mask):
        data = np.asarray(t._data)
        dim = self.dim % data.ndim
        k = _count(self.amount, data.shape[dim])
        axes = tuple(i for i in range(data.ndim) if i != dim)
        norms = (
            np.sum(np.abs(data) ** self.n, axis=axes) ** (1 / self.n)
            if self.n != np.inf
            else np.max(np.abs(data), axis=axes)
        )
        mask = np.array(default_mask._data, copy=True)
        if k:
            keep = make(norms.astype(data.dtype)).topk(len(norms) - k).indices._data
            drop = np.setdiff1d(np.arange(len(norms)), keep)
            index = [slice(None)] * data.ndim
            index[dim] = drop
            mask[tuple(index)] = 0
        return make(mask)


class RandomStructured(LnStructured):
    """Zero `amount` channels along dim chosen at random."""

    def __init__(self, amount, dim=-1) -> None:
        super().__init__(amount, 2, dim)

    def compute_mask(self, t, default_mask):
        data = np.asarray(t._data)
        dim = self.dim % data.ndim
        k = _count(self.amount, data.shape[dim])
        mask = np.array(default_mask._data, copy=True)
        if k:
            prob = make(np.zeros(data.shape[dim], data.dtype)).uniform_()
            drop = prob.topk(k).indices._data
            index = [slice(None)] * data.ndim
            index[dim] = drop
            mask[tuple(index)] = 0
        return make(mask)


class CustomFromMask(BasePruningMethod):
    """The mask given."""

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        return make(
            np.asarray(default_mask._data) * np.asarray(self.mask._data, default_mask._data.dtype)
        )


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """One mask over several parameters together (e.g. the smallest 20% of all weights), by
    their values or by `importance_scores[(module, name)]`, on top of earlier masks."""
    parameters = list(parameters)
    importance_scores = importance_scores or {}
    scores = [importance_scores.get((m, n), getattr(m, n)) for m, n in parameters]
    flat = make(np.concatenate([np.ravel(np.asarray(s._data)) for s in scores]))
    masks = [  # an earlier pruning's mask, so pruning again keeps what it cut
        np.ravel(np.asarray(getattr(m, n + "_mask", make(np.ones(s.shape)))._data))
        for (m, n), s in zip(parameters, scores, strict=True)
    ]
    default = make(np.concatenate(masks).astype(flat._data.dtype))
    mask = _combined(pruning_method(**kwargs), flat, default)._data
    start = 0
    for (module, name), s in zip(parameters, scores, strict=True):
        n = s.numel()
        CustomFromMask.apply(module, name, make(mask[start : start + n].reshape(s.shape)))
        start += n


def remove(module, name):
    """Make the pruning permanent: the masked values become the parameter again."""
    hooks = module.__dict__.get("_prune_hooks", {})
    if name not in hooks:
        raise ValueError(
            f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
        )
    method = hooks.pop(name)
    module.__dict__.pop("_prune_handle_" + name).remove()
    method.remove(module)
    return module


def is_pruned(module) -> bool:
    return any(m.__dict__.get("_prune_hooks") for m in module.modules())
