"""`nn.Parameter`: a leaf tensor that a Module registers as something to learn."""

import numpy as np

from ..engine.dtypes import default_float
from ..engine.tensor import Tensor, _rebuild, _saved, as_tensor_data, make


class Parameter(Tensor):
    """A leaf Tensor that requires grad by default and is registered when set on a Module."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            arr = np.empty(0, dtype=default_float())
        elif isinstance(data, Tensor):
            arr = data._storage()  # shares memory with `data`, as PyTorch's Parameter does
        else:
            arr = as_tensor_data(data)
        if requires_grad and arr.dtype.kind not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        p = object.__new__(cls)
        p._data, p._requires_grad, p.grad_fn, p._grad = arr, bool(requires_grad), None, None
        # No leaf event here: a Module fills its parameters in place right after making them
        # (reset_parameters), so a trace shows a parameter at its first use, with its real value.
        p._name, p._retains_grad, p._acc = None, False, None
        return p

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        # A fresh leaf: the default copy would share this one's AccumulateGrad weakref.
        new = Parameter(np.array(self._data, copy=True), self.requires_grad)
        if self._grad is not None:
            new._grad = make(np.array(self._grad._data, copy=True))
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (rebuild_parameter, _saved(self))


def rebuild_parameter(data: bytes, dtype: str, shape: tuple, requires_grad: bool) -> Parameter:
    """A Parameter from what `__reduce_ex__` saved (torch.save, pickle)."""
    return Parameter(_rebuild(data, dtype, shape, False), requires_grad)


class UninitializedParameter(Parameter):
    """The parameter of a lazy module before its first input fixes its shape."""

    __slots__ = ()

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return super().__new__(cls, None, requires_grad)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


class Buffer(Tensor):
    """A tensor that a Module registers as a buffer when set as an attribute
    (`self.mask = nn.Buffer(t)`); persistent=False keeps it out of state_dict."""

    __slots__ = ("persistent",)

    def __new__(cls, data=None, *, persistent=True):
        arr = np.empty(0, default_float()) if data is None else as_tensor_data(data)
        if isinstance(data, Tensor):
            arr = data._data
        b = object.__new__(cls)
        b._data, b._requires_grad, b.grad_fn, b._grad = arr, False, None, None
        b._name, b._retains_grad, b._acc = None, False, None
        b.persistent = persistent
        return b


class UninitializedBuffer(Buffer):
    """The buffer of a lazy module before its first input fixes its shape."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"
