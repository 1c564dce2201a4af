"""What a torch function call is to the recorder, and which arguments feed a node's inputs."""

import torch

from .values import ACCUMULATE_GRAD, Unseen, tensor_preview

_BACKWARD = (torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad)
_INPLACE_DUNDERS = frozenset(
    ["__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__", "__imatmul__"]
)

_KINDS = {}
_NUMBERS = (int, float)  # a tuple: isinstance with a union is slower, per call
_STATE_CHANGES = {"retain_grad": "retain", "detach": "detach", "requires_grad_": "requires_grad_"}


def kind_of(func) -> str:
    """What a torch function is to the recorder: a property read, backward, in place, ..."""
    kind = _KINDS.get(func)
    if kind is None:
        name = getattr(func, "__name__", "")
        if name in ("__get__", "__set__"):
            kind = name.strip("_")
        elif any(func is b for b in _BACKWARD):
            kind = "backward"
        elif name in _STATE_CHANGES:
            kind = _STATE_CHANGES[name]
        elif name in _INPLACE_DUNDERS or (name.endswith("_") and not name.startswith("_")):
            kind = "inplace"
        else:
            kind = "call"
        _KINDS[func] = kind
    return kind


def tensors_in(value) -> list:
    """The torch tensors in `value`, looking inside tuples, lists and dicts."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is tuple or kind is list:  # the call's (args, kwargs) and its args: most items
            stack.extend(reversed(item))
        elif isinstance(item, torch.Tensor):
            found.append(item)
        elif isinstance(item, list | tuple):  # a named tuple, torch.Size
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
    return found


def as_list(value) -> list:
    """backward()'s tensors or gradients argument, one tensor or a sequence, as a list."""
    if value is None:
        return []
    return [value] if isinstance(value, torch.Tensor) else list(value)


def positional_constants(nexts, args) -> list | None:
    """The call's arguments when they line up with a node's next_functions `nexts` (x * 3.0),
    so inputs that need no gradient can be drawn as constants; None when they do not
    (F.linear's addmm takes its arguments in another order)."""
    if len(args) != len(nexts):
        return None
    for arg, (child, _) in zip(args, nexts, strict=True):
        if child is None:
            constant = isinstance(arg, _NUMBERS) or (
                isinstance(arg, torch.Tensor) and not arg.requires_grad
            )
            if not constant:
                return None
        elif not isinstance(arg, torch.Tensor) or not _feeds(child, arg):
            return None
    return list(args)


def spare_constants(nexts, args) -> list | None:
    """The call's tensor arguments that need no gradient, in order, as the inputs behind the
    (None, 0) entries of a node's next_functions `nexts` when there are as many of each:
    F.linear(x, w, b) runs addmm(b, x, w.t()), whose one such entry is x."""
    spare = [a for a in args if isinstance(a, torch.Tensor) and not a.requires_grad]
    slots = [child is None for child, _ in nexts]
    if sum(slots) != len(spare):
        return None
    remaining = iter(spare)
    return [next(remaining) if slot else None for slot in slots]


def _feeds(child, t) -> bool:
    """Whether node `child` carries gradient back to tensor `t`."""
    if isinstance(child, ACCUMULATE_GRAD):
        return child.variable is t
    return t.grad_fn is child


def constant_value(value):
    """The value of an input that may change later in the block: a leaf or a constant."""
    if isinstance(value, torch.Tensor):
        return tensor_preview(value) if value.grad_fn is None else None
    if isinstance(value, Unseen) or value is None:
        return None
    return value
