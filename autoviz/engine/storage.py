"""A tensor's memory as PyTorch shows it: storages shared by views, data pointers, strides."""

import weakref

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


class _Record:
    """One storage as torch.save writes it: every tensor saved with it points to this one
    object, so pickle writes its bytes once and a load rebuilds one shared storage."""

    __slots__ = ("__weakref__", "array")

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __reduce__(self):
        return (rebuild_storage, (self.array.tobytes(),))


_RECORDS = weakref.WeakValueDictionary()  # {id(owner): record}, alive while a save holds it


def saved_view(array) -> tuple | None:
    """(storage record, dtype name, shape, byte strides, byte offset) of `array` for
    torch.save, or None where its memory is not one C-ordered block of non-negative strides."""
    if not isinstance(array, np.ndarray) or any(s < 0 for s in array.strides):
        return None
    owner = root(array)
    if not owner.flags.c_contiguous:
        return None
    record = _RECORDS.get(id(owner))
    if record is None or record.array is not owner:
        record = _Record(owner)
        _RECORDS[id(owner)] = record
    offset = address(array) - address(owner)
    return (record, array.dtype.name, array.shape, array.strides, offset)


def rebuild_storage(data: bytes) -> np.ndarray:
    """A storage's bytes, writable (torch.load)."""
    return np.frombuffer(data, np.uint8).copy()


def viewed(storage, dtype: str, shape: tuple, strides: tuple, offset: int) -> np.ndarray:
    """The array `saved_view` described, over `storage` (still the record under copy.copy,
    which shares the memory, as PyTorch's does)."""
    if isinstance(storage, _Record):
        storage = storage.array
    return np.ndarray(shape, np.dtype(dtype), buffer=storage, offset=offset, strides=strides)


def index_in(base: np.ndarray, view: np.ndarray) -> tuple | None:
    """Where each element of `view`, a numpy view of `base`'s memory, sits in `base`: a tuple
    of index arrays shaped like `view` (so `base[key]` reads it and `base[key] = v` writes
    it), or None when the two no longer share memory or `view` reaches outside `base`."""
    if not np.shares_memory(base, view):
        return None
    origin = address(base)
    at_base = _offsets(base.shape, base.strides)
    at_view = _offsets(view.shape, view.strides) + (address(view) - origin)
    order = np.argsort(at_base, axis=None, kind="stable")
    ranked = at_base.reshape(-1)[order]
    where = np.searchsorted(ranked, at_view.reshape(-1))
    if where.size and (where.max() >= ranked.size or (ranked[where] != at_view.reshape(-1)).any()):
        return None
    return np.unravel_index(order[where].reshape(view.shape), base.shape)


def _offsets(shape: tuple, strides: tuple) -> np.ndarray:
    """The byte offset of each element of an array of `shape` and `strides` from its first."""
    out = np.zeros(shape, dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(shape, strides, strict=True)):
        steps = np.arange(size, dtype=np.int64) * stride
        out += steps.reshape((size,) + (1,) * (len(shape) - axis - 1))
    return out
