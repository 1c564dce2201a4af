"""`torch.autograd.Variable`: the name tensors had before PyTorch 0.4, kept for old lessons."""

from ..engine.tensor import Tensor, make


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)  # every tensor is a Variable, as in PyTorch


class Variable(metaclass=_VariableMeta):
    """`Variable(t, requires_grad=True)` is a new leaf sharing t's data; `isinstance(t,
    Variable)` holds for every tensor."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = make(data._storage())
        if requires_grad:
            out.requires_grad_(True)
        return out
