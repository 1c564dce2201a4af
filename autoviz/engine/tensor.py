"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps beside it."""

import numpy as np

from . import events
from .function import accumulator_for
from .printing import format_tensor

float32 = np.dtype("float32")
float64 = np.dtype("float64")
int64 = np.dtype("int64")
bool_ = np.dtype("bool")

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more informations."
)


class Tensor:
    """An n-dimensional array that can record the operations applied to it."""

    __slots__ = (
        "__weakref__",
        "_acc",
        "_data",
        "_grad",
        "_name",
        "_retains_grad",
        "grad_fn",
        "requires_grad",
    )

    # -- identity and autograd state ------------------------------------------------------
    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def name(self) -> str | None:
        """The name given with `tensor(..., name=...)`, used by diagrams."""
        return self._name

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad and self.requires_grad:
            import warnings

            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        self._grad = value

    def _accumulator(self):
        return accumulator_for(self)

    def _accumulate(self, grad) -> None:
        """Add `grad` into `.grad`, as AccumulateGrad does for a leaf."""
        if self._grad is None:
            # Copy: backward may hand the same array to several inputs.
            self._grad = make(np.array(grad, dtype=self._data.dtype))
        else:
            self._grad._data = np.asarray(self._grad._data + grad, dtype=self._data.dtype)
        if events.observers:
            events.emit("on_accumulate", self, grad)

    # -- numpy data ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return Size(np.shape(self._data))

    @property
    def dtype(self):
        return dtype_of(self._data)

    @property
    def ndim(self) -> int:
        return np.ndim(self._data)

    def dim(self) -> int:
        return np.ndim(self._data)

    def numel(self) -> int:
        return int(np.size(self._data))

    def size(self, dim: int | None = None):
        shape = np.shape(self._data)
        return Size(shape) if dim is None else shape[dim]

    def item(self):
        if np.size(self._data) != 1:
            raise RuntimeError(
                f"a Tensor with {np.size(self._data)} elements cannot be converted to Scalar"
            )
        return np.asarray(self._data).reshape(()).item()

    def tolist(self):
        return np.asarray(self._data).tolist()

    def numpy(self) -> np.ndarray:
        if self.requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._storage()

    def _storage(self) -> np.ndarray:
        """The data as a mutable ndarray; scalars from ops are numpy scalars until shared."""
        if not isinstance(self._data, np.ndarray):
            self._data = np.array(self._data)
        return self._data

    def __len__(self) -> int:
        shape = np.shape(self._data)
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        if np.size(self._data) != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    # -- printing ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        fn = self.grad_fn
        return format_tensor(
            np.asarray(self._data),
            grad_fn=fn.name() if fn is not None else None,
            requires_grad=self.requires_grad and fn is None,
        )

    def __format__(self, spec: str) -> str:
        if np.ndim(self._data) == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    # -- autograd ----------------------------------------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the graph's leaves."""
        from .graph import run_backward

        run_backward((self,), (gradient,), retain_graph)

    def retain_grad(self) -> None:
        """Keep `.grad` on this non-leaf tensor after backward."""
        from .graph import retain_grad

        retain_grad(self)

    # -- operators ---------------------------------------------------------------------------
    def __add__(self, other):
        return _ops.binary(_ops.Add, self, other)

    def __radd__(self, other):
        return _ops.binary(_ops.Add, other, self)

    def __mul__(self, other):
        return _ops.binary(_ops.Mul, self, other)

    def __rmul__(self, other):
        return _ops.binary(_ops.Mul, other, self)

    __hash__ = object.__hash__


class Size(tuple):
    """A shape, printed as PyTorch prints it: `torch.Size([2, 3])`."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self))


def dtype_of(data):
    """The dtype object for `data`, printed as PyTorch names it."""
    from .dtypes import from_numpy_dtype

    return from_numpy_dtype(data.dtype)


_new = object.__new__


def make(data, requires_grad=False, grad_fn=None, name=None) -> Tensor:
    """A tensor over `data` without copying; the engine's one way to build tensors."""
    t = _new(Tensor)
    t._data = data
    t.requires_grad = requires_grad
    t.grad_fn = grad_fn
    t._grad = None
    t._name = name
    t._retains_grad = False
    t._acc = None
    return t


def wrap(data) -> Tensor:
    """A constant tensor over `data`."""
    return make(data)


def as_tensor_data(value, dtype=None):
    """Python numbers, lists and arrays as an ndarray with PyTorch's default dtypes."""
    arr = np.array(value, dtype=dtype)
    if dtype is None and arr.dtype == float64 and not isinstance(value, np.ndarray):
        arr = arr.astype(float32)  # PyTorch's default float dtype
    if arr.dtype == object:
        raise TypeError(f"Could not infer dtype of {type(value).__name__}")
    return arr


def tensor(data, dtype=None, requires_grad=False, name=None) -> Tensor:
    """A new leaf tensor holding a copy of `data`."""
    if isinstance(data, Tensor):
        data = data._data
    arr = as_tensor_data(
        data, None if dtype is None else np.dtype(str(dtype).replace("torch.", ""))
    )
    if requires_grad and arr.dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t = make(arr, bool(requires_grad), None, name)
    if requires_grad and events.observers:
        events.emit("on_leaf", t)
    return t


from . import ops as _ops  # noqa: E402  (ops need Tensor defined first)
