"""A tensor's memory as PyTorch shows it: storages shared by views, data pointers, strides."""

import numpy as np


def root(array: np.ndarray) -> np.ndarray:
    """The array that owns the memory `array` views (itself when it owns it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


class UntypedStorage:
    """The bytes behind a tensor and every view of it: `x.untyped_storage()`."""

    def __init__(self, array: np.ndarray) -> None:
        self._array = root(array)

    def data_ptr(self) -> int:
        return address(self._array)

    def nbytes(self) -> int:
        return self._array.nbytes

    def size(self) -> int:
        return self._array.nbytes

    def __len__(self) -> int:
        return self._array.nbytes

    @property
    def device(self):
        from .device import CPU

        return CPU

    def __eq__(self, other) -> bool:
        return isinstance(other, UntypedStorage) and other.data_ptr() == self.data_ptr()

    __hash__ = None

    def __repr__(self) -> str:
        values = "\n".join(f" {b}" for b in self._array.view(np.uint8).reshape(-1).tolist())
        return f"{values}\n[torch.storage.UntypedStorage(device=cpu) of size {self.nbytes()}]"


class TypedStorage(UntypedStorage):
    """`x.storage()`: the storage's elements in the tensor's dtype (PyTorch warns that it is
    deprecated in favour of untyped_storage())."""

    def __init__(self, array: np.ndarray) -> None:
        super().__init__(array)
        self.dtype = array.dtype

    def size(self) -> int:
        return self._array.nbytes // self.dtype.itemsize

    def __len__(self) -> int:
        return self.size()

    def tolist(self) -> list:
        return self._array.reshape(-1).view(self.dtype).tolist()

    def __getitem__(self, i):
        return self.tolist()[i]

    def __setitem__(self, i, value) -> None:
        """Write element(s) i: every tensor viewing this storage sees it (DLWP's ch. 3)."""
        self._array.reshape(-1).view(self.dtype)[i] = value

    def __repr__(self) -> str:
        from .dtypes import from_numpy_dtype

        values = "\n".join(f" {v}" for v in self.tolist())
        kind = f"dtype={from_numpy_dtype(self.dtype)!r}, device=cpu"
        return f"{values}\n[torch.storage.TypedStorage({kind}) of size {self.size()}]"


TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)


def strides(array) -> tuple:
    """PyTorch's strides: numpy's, in elements rather than bytes."""
    if not isinstance(array, np.ndarray) or not array.ndim:
        return ()
    return tuple(s // array.itemsize for s in array.strides)


def storage_offset(array: np.ndarray) -> int:
    return (address(array) - address(root(array))) // array.itemsize
