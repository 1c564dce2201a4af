"""Tensor methods that are PyTorch's functions called on a tensor, and their in-place `x.op_()`
variants: computed out of place, then written back or, on a graph, recorded as PyTorch does
(the tensor takes on the op's node, `CosBackward0` for `x.cos_()`)."""

import numpy as np

from . import events, ops, reducing, selecting, shape_ops
from . import functional as F
from .dtypes import TYPE_NAMES
from .keywords import into
from .tensor import Tensor, make

_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _write_back(self, out):
    """Make `self` hold `out`, the result of an in-place op computed out of place."""
    if out.grad_fn is not None:
        self._become(out)  # recorded: this tensor gets the op's node, as in PyTorch
        return self
    have, want = np.result_type(self._data), np.result_type(out._data)
    if _RANK.get(want.kind, 0) > _RANK.get(have.kind, 0):
        raise RuntimeError(
            f"result type {TYPE_NAMES.get(want.name, want.name)} can't be cast to the desired "
            f"output type {TYPE_NAMES.get(have.name, have.name)}"
        )
    self._storage()[...] = out._data
    if events.observers:
        events.on_inplace(self)
    return self


def inplace(function):
    """`x.name_(...)` from `function(x, ...)`."""

    def method(self, *args, **kwargs):
        self._check_inplace()
        return _write_back(self, function(self, *args, **kwargs))

    method.__name__ = method.__qualname__ = function.__name__ + "_"
    method.__doc__ = f"In-place `{function.__name__}`: changes this tensor and returns it."
    return method


# -- comparisons, as functions and methods (`torch.eq(a, b)`, `a.eq(b)`) ------------------------
def _compare(name, operator):
    def function(input, other, *, out=None):
        result = operator(input, other)
        return result if out is None else into(out, result, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: elementwise, a bool tensor."
    return function


eq = _compare("eq", Tensor.__eq__)
ne = _compare("ne", Tensor.__ne__)
lt = _compare("lt", Tensor.__lt__)
le = _compare("le", Tensor.__le__)
gt = _compare("gt", Tensor.__gt__)
ge = _compare("ge", Tensor.__ge__)
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def _binary(op, name):
    def function(input, other, *, out=None):
        if not isinstance(input, Tensor):
            input = make(np.asarray(input))
        result = ops.binary(op, input, other)
        return result if out is None else into(out, result, name)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: {op.__doc__}"
    return function


remainder = _binary(ops.Remainder, "remainder")
fmod = _binary(ops.Fmod, "fmod")
floor_divide = _binary(ops.FloorDivide, "floor_divide")


def _reflected(function):
    def method(self, other):
        return function(other if isinstance(other, Tensor) else make(np.asarray(other)), self)

    return method


def masked_fill(input, mask, value):
    """`value` where `mask` is True, else the input; the gradient flows where mask is False."""
    cond = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if np.result_type(cond) != np.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{np.result_type(cond).name if np.result_type(cond).name != 'int64' else 'long int'}"
        )
    fill = value._data if isinstance(value, Tensor) else value
    return shape_ops.MaskedFill.apply(input, cond=cond, value=fill)


def repeat(input, *sizes):
    """The tensor tiled `sizes` times along each axis."""
    sizes = F._shape_arg(sizes)
    if len(sizes) < input.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
            "tensor"
        )
    return shape_ops.Repeat.apply(input, sizes=tuple(sizes))


def _new(fill):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        from .creation import full

        shape = F._shape_arg(size)
        return full(shape, fill, dtype=dtype or self.dtype, requires_grad=requires_grad)

    return method


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    from .tensor import tensor

    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    from .creation import full

    return full(tuple(size), fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


_METHODS = {
    # name: function(self, ...)
    "add": F.add,
    "sub": F.sub,
    "mul": F.mul,
    "div": F.div,
    "subtract": F.sub,
    "multiply": F.mul,
    "divide": F.div,
    "true_divide": F.div,
    "square": F.square,
    "maximum": F.maximum,
    "minimum": F.minimum,
    "mm": F.mm,
    "mv": F.mv,
    "dot": F.dot,
    "outer": F.outer,
    "tan": F.tan,
    "log10": F.log10,
    "log2": F.log2,
    "log1p": F.log1p,
    "expm1": F.expm1,
    "exp2": F.exp2,
    "rsqrt": F.rsqrt,
    "reciprocal": F.reciprocal,
    "sign": F.sign,
    "floor": F.floor,
    "ceil": F.ceil,
    "round": F.round,
    "trunc": F.trunc,
    "clip": F.clamp,
    "flip": lambda self, *dims: F.flip(self, F._shape_arg(dims)),
    "sort": selecting.sort,
    "argsort": selecting.argsort,
    "topk": selecting.topk,
    "gather": selecting.gather,
    "split": selecting.split,
    "chunk": selecting.chunk,
    "var": reducing.var,
    "std": reducing.std,
    "norm": reducing.norm,
    "cumsum": reducing.cumsum,
    "prod": reducing.prod,
    "logsumexp": reducing.logsumexp,
    "all": reducing.all,
    "any": reducing.any,
    "equal": reducing.equal,
    "allclose": reducing.allclose,
    "isclose": reducing.isclose,
    "eq": eq,
    "ne": ne,
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "masked_fill": masked_fill,
    "repeat": repeat,
    "expand_as": lambda self, other: F.expand(self, other.shape),
    "view_as": lambda self, other: F.view(self, other.shape),
    "reshape_as": lambda self, other: F.reshape(self, other.shape),
    "type_as": lambda self, other: self.to(other.dtype),
    "new_zeros": _new(0),
    "new_ones": _new(1),
    "new_empty": _new(0),
    "new_full": new_full,
    "new_tensor": new_tensor,
}

_INPLACE = (
    "exp log sqrt abs sin cos tan tanh sigmoid relu neg clamp clamp_min pow square reciprocal "
    "floor ceil round trunc sign log10 log2 log1p expm1 exp2 rsqrt masked_fill clip"
)


def attach() -> None:
    """Give Tensor the methods and in-place variants above."""
    for name, function in _METHODS.items():
        setattr(Tensor, name, function)
    for name in _INPLACE.split():
        setattr(Tensor, name + "_", inplace(getattr(Tensor, name)))
    Tensor.negative = Tensor.neg
    Tensor.absolute = Tensor.abs
    Tensor.remainder, Tensor.fmod, Tensor.floor_divide = remainder, fmod, floor_divide
    Tensor.__mod__, Tensor.__floordiv__ = remainder, floor_divide
    Tensor.__rmod__, Tensor.__rfloordiv__ = _reflected(remainder), _reflected(floor_divide)
    Tensor.remainder_ = inplace(remainder)
    Tensor.__imod__ = Tensor.remainder_
    Tensor.__ifloordiv__ = Tensor.floor_divide_ = inplace(floor_divide)


attach()
