"""PyTorch's legacy tensor types: `torch.Tensor(data)`, `torch.FloatTensor(...)`, `x.type()`."""

import numpy as np

from . import dtypes
from .device import check_device
from .tensor import Tensor, as_tensor_data, new_leaf


class _LegacyMeta(type):
    """The type of torch.FloatTensor and friends: `isinstance(t, torch.LongTensor)` checks the
    dtype, and calling one makes a tensor of that dtype."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj._data.dtype == cls.dtype.numpy

    def __call__(cls, *args, device=None):
        return construct(cls.dtype.numpy, args, device)

    @property
    def is_cuda(cls) -> bool:
        return False

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(name: str, dtype) -> type:
    return _LegacyMeta(name, (), {"dtype": dtype, "__doc__": f"Tensors of dtype {dtype}."})


FloatTensor = _legacy("FloatTensor", dtypes.float32)
DoubleTensor = _legacy("DoubleTensor", dtypes.float64)
HalfTensor = _legacy("HalfTensor", dtypes.float16)
LongTensor = _legacy("LongTensor", dtypes.int64)
IntTensor = _legacy("IntTensor", dtypes.int32)
ShortTensor = _legacy("ShortTensor", dtypes.int16)
CharTensor = _legacy("CharTensor", dtypes.int8)
ByteTensor = _legacy("ByteTensor", dtypes.uint8)
BoolTensor = _legacy("BoolTensor", dtypes.bool)
_TYPES = (FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor)
_TYPES += (CharTensor, ByteTensor, BoolTensor)
_BY_DTYPE = {t.dtype.numpy: t for t in _TYPES}
_BY_NAME = {f"torch.{t.__name__}": t for t in _TYPES}


def legacy_type(value):
    """The legacy type for a numpy dtype, a legacy type, or its name ('torch.LongTensor')."""
    if isinstance(value, _LegacyMeta):
        return value
    if isinstance(value, str):
        if value not in _BY_NAME:
            raise ValueError(f"invalid type: '{value}'")
        return _BY_NAME[value]
    return _BY_DTYPE[np.dtype(value)]


def _signature_error(args) -> TypeError:
    got = ", ".join(type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in args)
    return TypeError(
        f"new() received an invalid combination of arguments - got ({got}), but expected one "
        "of:\n * (*, torch.device device = None)\n * (torch.Storage storage)\n"
        " * (Tensor other)\n * (tuple of ints size, *, torch.device device = None)\n"
        " * (object data, *, torch.device device = None)\n"
    )


def _options(np_dtype) -> str:
    name = dtypes.C_TYPE_NAMES[np.dtype(np_dtype).name]
    return (
        f"TensorOptions(dtype={name}, device=cpu, layout=Strided, "
        "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))"
    )


def construct(np_dtype, args, device, any_dtype=False) -> Tensor:
    """What `torch.Tensor(...)` and `torch.FloatTensor(...)` make: from sizes (zeros here,
    where PyTorch leaves the memory as it was), from a sequence, or empty; `torch.Tensor(t)`
    is `t` again (an alias, of any dtype)."""
    check_device(device)
    if not args:
        return new_leaf(np.zeros(0, np_dtype))
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return new_leaf(np.zeros(tuple(int(a) for a in args), np_dtype))
    if len(args) == 1 and isinstance(args[0], Tensor):
        data = args[0]._data
        if data.dtype != np_dtype and not any_dtype:
            raise TypeError(f"expected {_options(np_dtype)} (got {_options(data.dtype)})")
        from .ops.shape import Alias

        return Alias.apply(args[0])
    if len(args) == 1 and isinstance(args[0], (tuple, list, np.ndarray)):
        return new_leaf(np.asarray(as_tensor_data(args[0]), dtype=np_dtype))
    if len(args) == 1 and isinstance(args[0], (float, bool, int)):
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
    if len(args) == 1 and not hasattr(args[0], "__len__"):
        raise TypeError(f"new(): invalid data type '{type(args[0]).__name__}'")
    raise _signature_error(args)


def set_default_tensor_type(t) -> None:
    """The deprecated way to set the default float dtype: a float tensor type or its name."""
    import warnings

    warnings.warn(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
        UserWarning,
        stacklevel=2,
    )
    if isinstance(t, str):
        t = _BY_NAME.get(t)
        if t is None:
            raise TypeError("invalid type object: only floating-point types are supported")
    if not isinstance(t, _LegacyMeta):
        raise TypeError(
            "invalid type object: only floating-point types are supported as the default type"
        )
    if t.dtype.numpy.kind != "f":
        raise TypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(t.dtype)
