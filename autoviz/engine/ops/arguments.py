"""What the layer families share: argument checks and PyTorch's words in their errors."""

import numpy as np

from ...errors import NotInAutoviz
from ..dtypes import TYPE_NAMES
from ..tensor import Tensor, tensor

REDUCTIONS = ("none", "mean", "sum")


def int_arg(value):
    """A one-element integer tensor given for an int argument, as the int torch's argument
    parser reads it (`torch.randperm(torch.tensor(5))`); anything else as it is."""
    return value.__index__() if isinstance(value, Tensor) else value


def as_tensor(x) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def dtype_word(t) -> str:
    """PyTorch's scalar type name for a tensor's dtype, as its error messages print it."""
    return TYPE_NAMES.get(t._data.dtype.name, str(t._data.dtype))


def check_reduction(reduction: str) -> None:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def legacy_reduction(size_average, reduce, reduction: str) -> str:
    """The reduction the deprecated size_average / reduce pair asks for, as PyTorch maps it."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def ntuple(value, n: int, name: str = "") -> tuple:
    """An int or a sequence as an n-tuple of ints (kernel_size=3 means (3, 3) in 2-d)."""
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            return tuple(int(value[0]) for _ in range(n))
        if len(value) != n:
            raise RuntimeError(f"expected {name or 'argument'} to have {n} elements, got {value}")
        return tuple(int(v) for v in value)
    return (int(value),) * n


def size_list(shape) -> str:
    return f"[{', '.join(str(int(n)) for n in shape)}]"


def data(t) -> np.ndarray:
    return t._data if isinstance(t, Tensor) else np.asarray(t)


def row_major(memory_format) -> bool:
    """Whether `memory_format` asks for row-major memory (contiguous_format); None and
    preserve_format keep a layout; any other layout autoviz has not is refused."""
    from ..device import contiguous_format, preserve_format

    if memory_format not in (None, contiguous_format, preserve_format):
        raise NotInAutoviz(
            f"memory_format={memory_format} is not in autoviz: it keeps row-major "
            "and preserved layouts only"
        )
    return memory_format is contiguous_format
