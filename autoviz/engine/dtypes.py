"""PyTorch's dtype objects (`torch.float32`, ...) over numpy dtypes."""

import numpy as np


class dtype:
    """A tensor element type, printed as PyTorch prints it: `torch.float32`."""

    __slots__ = ("is_floating_point", "is_signed", "itemsize", "name", "numpy")

    def __init__(self, name: str) -> None:
        self.name = name
        self.numpy = np.dtype(name)
        self.itemsize = self.numpy.itemsize
        self.is_floating_point = self.numpy.kind == "f"
        self.is_signed = self.numpy.kind in "fi"

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (from_name, (self.name,))


float16 = dtype("float16")
float32 = dtype("float32")
float64 = dtype("float64")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
bool = dtype("bool")

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool)
_BY_NUMPY = {d.numpy: d for d in _ALL}


def from_name(name: str) -> dtype:
    """The dtype called `name`."""
    return _BY_NUMPY[np.dtype(name)]


def from_numpy_dtype(np_dtype) -> dtype:
    """The PyTorch-style dtype for a numpy dtype."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(f"autoviz does not support numpy dtype {np_dtype}") from None


def to_numpy_dtype(value):
    """A numpy dtype from a dtype object, a numpy dtype or a name; None stays None."""
    if value is None:
        return None
    if isinstance(value, dtype):
        return value.numpy
    return np.dtype(value)


# PyTorch's words for dtypes in error messages ("expected ... Long", "FloatTensor").
TYPE_NAMES = {
    "float16": "Half",
    "float32": "Float",
    "float64": "Double",
    "int8": "Char",
    "int16": "Short",
    "int32": "Int",
    "int64": "Long",
    "uint8": "Byte",
    "bool": "Bool",
}

# How far each numpy kind is from bool: a result may be stored only in a dtype at least as far
# (PyTorch's "result type Float can't be cast to the desired output type Long").
KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
