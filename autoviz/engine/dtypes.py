"""PyTorch's dtype objects (`torch.float32`, ...) over numpy dtypes."""

import builtins

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
uint16 = dtype("uint16")  # torch's "limited support" unsigned types: what hash_tensor returns
uint32 = dtype("uint32")
uint64 = dtype("uint64")
bool = dtype("bool")

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool)
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
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "bool": "Bool",
}

# torch's C++ names for dtypes in some messages ("long int", "c10::complex<double>").
C_TYPE_NAMES = {
    "float16": "c10::Half",
    "float32": "float",
    "float64": "double",
    "int8": "signed char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
    "uint8": "unsigned char",
    "bool": "bool",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}

# How far each numpy kind is from bool: a result may be stored only in a dtype at least as far
# (PyTorch's "result type Float can't be cast to the desired output type Long").
KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


# -- PyTorch's type promotion ---------------------------------------------------------------------
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_BOOL, _INT64 = np.dtype("bool"), np.dtype("int64")
_DEFAULT = {"float": np.dtype("float32")}  # torch.get_default_dtype(), as a numpy dtype


def default_float() -> np.dtype:
    """The numpy dtype of torch.get_default_dtype(): what Python floats and float ops of
    integers become."""
    return _DEFAULT["float"]


def promote(a, b):
    """torch.promote_types for numpy dtypes: floats by width whatever the integers, integers
    as numpy promotes them (uint8 with int8 is int16), bool under everything."""
    if a is b or a == b:
        return a
    if a.kind == "f" or b.kind == "f":
        if a.kind == "f" and b.kind == "f":
            return a if a.itemsize >= b.itemsize else b
        return a if a.kind == "f" else b
    return np.promote_types(a, b)


def _combine(higher, lower):
    """c10's combine_categories: a lower tier's dtype counts only for a higher category."""
    if higher is None:
        return lower
    if lower is None or higher.kind == "f":
        return higher
    if higher.kind == "b" or lower.kind == "f":
        return promote(higher, lower)
    return higher


def result_type(*values):
    """The dtype PyTorch gives an op on `values` (arrays, numpy scalars, Python numbers):
    tensors with dims first, then 0-d tensors, then Python numbers, each counting only where
    it is of a higher category (float over integer over bool)."""
    dims = zeros = numbers = None
    for v in values:
        dtype = getattr(v, "dtype", None)
        if dtype is not None:
            if getattr(v, "ndim", 0):
                dims = dtype if dims is None else promote(dims, dtype)
            else:
                zeros = dtype if zeros is None else promote(zeros, dtype)
            continue
        if isinstance(v, builtins.bool):  # `bool` here is torch.bool
            kind = _BOOL
        elif isinstance(v, int):
            kind = _INT64
        elif isinstance(v, float):
            kind = _DEFAULT["float"]
        else:
            continue
        numbers = kind if numbers is None else promote(numbers, kind)
    return _combine(dims, _combine(zeros, numbers))


def torch_result_type(tensor, other) -> dtype:
    """`torch.result_type(a, b)`: the dtype of an op on two tensors or numbers."""
    values = [getattr(v, "_data", v) for v in (tensor, other)]
    values = [np.asarray(v) if isinstance(v, np.generic) else v for v in values]
    return from_numpy_dtype(result_type(*values))


def promote_types(type1, type2) -> dtype:
    return from_numpy_dtype(promote(type1.numpy, type2.numpy))


def can_cast(from_, to) -> builtins.bool:
    """Whether PyTorch's casting rules allow from_ into to (no lower category: float into int
    and anything into bool are refused)."""
    return _CATEGORY[from_.numpy.kind] <= _CATEGORY[to.numpy.kind]


def get_default_dtype() -> dtype:
    return _BY_NUMPY[_DEFAULT["float"]]


def set_default_dtype(d) -> None:
    """torch.set_default_dtype: the dtype Python floats, creation functions and new layers'
    parameters get (float32, float64 or float16), with torch's errors for the others."""
    if not isinstance(d, dtype):
        raise TypeError(
            "invalid dtype object: only floating-point types are supported as the default type"
        )
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _DEFAULT["float"] = d.numpy


# -- torch.finfo and torch.iinfo ------------------------------------------------------------------
class finfo:
    """A float dtype's limits, as torch.finfo gives them (Python floats, printed with %g)."""

    def __init__(self, type=None) -> None:
        type = float32 if type is None else type
        info = np.finfo(to_numpy_dtype(type)) if to_numpy_dtype(type).kind == "f" else None
        if info is None:
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                "'torch.finfo'"
            )
        self.bits, self.dtype = int(info.bits), to_numpy_dtype(type).name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self) -> str:
        parts = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")
        shown = ", ".join(f"{name}={getattr(self, name):g}" for name in parts)
        return f"finfo({shown}, dtype={self.dtype})"


class iinfo:
    """An integer dtype's limits, as torch.iinfo gives them."""

    def __init__(self, type) -> None:
        kind = to_numpy_dtype(type)
        if kind.kind not in "iub":
            raise TypeError(
                "torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                "'torch.iinfo'"
            )
        info = np.iinfo(kind) if kind.kind != "b" else None
        self.bits, self.dtype = kind.itemsize * 8, kind.name
        self.min, self.max = (0, 1) if info is None else (int(info.min), int(info.max))

    def __repr__(self) -> str:
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"
