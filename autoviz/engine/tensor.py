"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps beside it."""

import functools
import operator

import numpy as np

from . import events
from .device import CPU, NO_CUDA, check_device
from .dtypes import (
    KIND_RANK,
    TYPE_NAMES,
    default_float,
    float32,
    float64,
    int64,
    promote,
    to_numpy_dtype,
)
from .dtypes import dtype as _dtype_class
from .fidelity.printing import format_tensor
from .function import NO_CONTEXT, Output, accumulator_for
from .grad_mode import _state

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


SCALAR_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)
T_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor."
)
COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)
_warned = set()  # PyTorch gives some warnings once per process


def _comparison(compare):
    """`t < other` and the rest: a bool tensor; NotImplemented for what torch does not compare
    with (so `x == None` is False and `x < None` a TypeError, as in torch)."""

    def method(self, other):
        if not isinstance(other, _COMPARABLE):
            return NotImplemented
        return make(np.asarray(compare(self._data, _raw(other))))

    method.__name__ = method.__qualname__ = f"__{compare.__name__}__"
    return method


class Tensor:
    """An n-dimensional array that can record the operations applied to it."""

    # __dict__: lesson code hangs its own attributes on tensors (an optimiser's `p.grad_avg`)
    __slots__ = (
        "__dict__",
        "__weakref__",
        "_acc",
        "_data",
        "_grad",
        "_hook_owner",
        "_inference",
        "_name",
        "_requires_grad",
        "_retains_grad",
        "_view",
        "grad_fn",
    )

    # -- identity and autograd state ------------------------------------------------------
    @property
    def layout(self):
        """torch.strided: autoviz's tensors are dense."""
        from .device import strided

        return strided

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def output_nr(self) -> int:
        """Which output of its grad_fn this tensor is (0 for all but a node's later outputs)."""
        fn = self.grad_fn
        return fn.index if isinstance(fn, Output) else 0

    @property
    def _base(self):
        """The tensor this one is a view of (the first of a chain of views), or None."""
        view, base = getattr(self, "_view", None), None
        while view is not None:
            base = view[0]
            view = getattr(base, "_view", None)
        return base

    @property
    def name(self) -> str | None:
        """The name given with `tensor(..., name=...)`, used by diagrams."""
        return self._name

    @property
    def grad(self):
        # torch warns only while the non-leaf's grad is unset (backward(inputs=[h]) sets it)
        if self._grad is None and self.grad_fn is not None and not self._retains_grad:
            import warnings

            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            self._check_grad(value)
        self._grad = value
        if events.observers:
            events.on_grad_set(self, value)

    def _check_grad(self, value) -> None:
        """Refuse a grad of another type, size or dtype, with PyTorch's messages."""
        if not isinstance(value, Tensor):
            raise TypeError(
                "assigned grad expected to be a Tensor or None but got grad of type "
                f"{type(value).__name__}"
            )
        if value._data.shape != self._data.shape:
            raise RuntimeError(
                f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are "
                "the same size"
            )
        if value._data.dtype != self._data.dtype:
            got, want = TYPE_NAMES[value._data.dtype.name], TYPE_NAMES[self._data.dtype.name]
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{got.lower()}' to a tensor with "
                f"grad_dtype '{want}'. The gradient must match the tensor's grad_dtype "
                "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute "
                "with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
                "Diverging the dtypes of a tensor and its gradient may break downstream systems "
                "that assume they match."
            )

    def _accumulator(self):
        return accumulator_for(self)

    def _accumulate(self, grad) -> None:
        """Add `grad` into `.grad`, as AccumulateGrad does for a leaf."""
        if self._grad is None:
            # Copy: backward may hand the same array to several inputs.
            self._grad = make(np.array(grad, dtype=self._data.dtype))
        else:
            store = self._grad._storage()
            store += grad  # in place, as PyTorch does: a held reference to .grad sees it
        if events.observers:
            events.on_accumulate(self, grad)

    # -- numpy data ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return _as_size(np.shape(self._data))

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
        return _as_size(shape) if dim is None else shape[_base.wrap_dim(dim, len(shape))]

    def item(self):
        if np.size(self._data) != 1:
            raise RuntimeError(
                f"a Tensor with {np.size(self._data)} elements cannot be converted to Scalar"
            )
        return np.asarray(self._data).reshape(()).item()

    def tolist(self):
        return np.asarray(self._data).tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The tensor's memory as a numpy array (force=True: of a tensor that requires grad
        too, detached, as torch's force does on the CPU)."""
        if self.requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._storage()

    def _storage(self) -> np.ndarray:
        """The data as a mutable ndarray; scalars from ops are numpy scalars until shared."""
        if not isinstance(self._data, np.ndarray):
            self._data = np.array(self._data)
        elif events.observers:  # a recorder copies what it kept of this memory first
            events.on_write(self)
        return self._data

    def __len__(self) -> int:
        shape = np.shape(self._data)
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __float__(self) -> float:
        if self.requires_grad:
            _warn_scalar(stacklevel=3)
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def _scalar(self):
        if np.size(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __bool__(self) -> bool:
        if np.size(self._data) != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    @property
    def grad_dtype(self):
        """The dtype a gradient assigned to .grad must have: this tensor's."""
        return self.dtype

    def is_inference(self) -> bool:
        """Whether this tensor was made inside `inference_mode()`."""
        return getattr(self, "_inference", False)

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor's memory has had (shared with its views)."""
        return _versions.version_of(self)

    # -- memory: sizes, strides, the storage views share ---------------------------------------
    def nelement(self) -> int:
        return int(np.size(self._data))

    def element_size(self) -> int:
        return self._data.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return int(np.size(self._data)) * self._data.dtype.itemsize

    def stride(self, dim: int | None = None):
        strides = _memory.strides(self._storage())
        return strides if dim is None else strides[_base.wrap_dim(dim, len(strides))]

    def storage_offset(self) -> int:
        return _memory.storage_offset(self._storage())

    def data_ptr(self) -> int:
        """The address of the first element: views of one storage give addresses inside it."""
        return _memory.address(self._storage())

    def untyped_storage(self):
        return _memory.UntypedStorage(self._storage())

    def storage(self):
        if "storage" not in _warned:
            import warnings

            _warned.add("storage")
            warnings.warn(_memory.TYPED_STORAGE_WARNING, UserWarning, stacklevel=2)
        return _memory.TypedStorage(self._storage())

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_complex(self) -> bool:
        return self._data.dtype.kind == "c"

    def is_signed(self) -> bool:
        return self._data.dtype.kind in "fic"

    def get_device(self) -> int:
        return -1  # the CPU

    def is_same_size(self, other) -> bool:
        return tuple(self.shape) == tuple(other.shape)

    def is_nonzero(self) -> bool:
        """The truth of a one-element tensor (PyTorch's error for any other size)."""
        if self._data.size != 1:
            if self._data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()) != 0)

    @property
    def is_cpu(self) -> bool:
        return True

    def resize_(self, *sizes, memory_format=None):
        """A new shape, keeping the elements in memory order (new ones are zeros here)."""
        self._check_inplace()
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        shape = tuple(
            sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
        )
        flat = np.ascontiguousarray(self._data).reshape(-1)
        count = int(np.prod(shape, dtype=np.int64))
        grown = np.zeros(count, flat.dtype)
        grown[: min(count, flat.size)] = flat[:count]
        self._data = grown.reshape(shape)
        return self

    def resize_as_(self, other, memory_format=None):
        return self.resize_(tuple(other.shape))

    # -- printing ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        fn = self.grad_fn
        return format_tensor(
            np.asarray(self._data),
            grad_fn=fn.name().removeprefix("torch::autograd::") if fn is not None else None,
            requires_grad=self.requires_grad and fn is None,
        )

    def __format__(self, spec: str) -> str:
        if np.ndim(self._data) == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    # -- autograd ----------------------------------------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the graph's leaves."""
        from .backward import run_backward

        run_backward((self,), (gradient,), retain_graph, create_graph, inputs)

    def retain_grad(self) -> None:
        """Keep `.grad` on this non-leaf tensor after backward."""
        from .backward import retain_grad

        retain_grad(self)

    # -- operators (+, -, *, / and more methods are attached below) --------------------------
    def __rsub__(self, other):
        if isinstance(other, Tensor):  # called directly: x.__rsub__(y) is y - x
            return _arithmetic.rsub(self, other)
        return _arithmetic.Rsub.apply(self, c=other)  # `1 - x`, scalar code's hot path

    def __rtruediv__(self, other):
        return _base.binary(_arithmetic.Mul, _pointwise.Reciprocal.apply(self), other)

    def __pow__(self, other):
        return _arithmetic.pow(self, other)

    def __rpow__(self, other):
        return _arithmetic.pow(other, self)

    def __matmul__(self, other):
        return _linalg.matmul(self, other)

    def __getitem__(self, key):
        return _indexing.index(self, key)

    __lt__ = _comparison(operator.lt)
    __le__ = _comparison(operator.le)
    __gt__ = _comparison(operator.gt)
    __ge__ = _comparison(operator.ge)
    __eq__ = _comparison(operator.eq)
    __ne__ = _comparison(operator.ne)

    def __iter__(self):
        if not np.ndim(self._data):
            raise TypeError("iteration over a 0-d tensor")
        return iter(_indexing.unbind(self))

    def __setitem__(self, key, value) -> None:
        """`a[key] = value`: in place, recorded as CopySlices when gradients are tracked."""
        if _uint8_mask(key):
            raise RuntimeError(
                "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
            )
        raw, key = key, _indexing.index_key(key)
        if not isinstance(key, (bool, np.bool_)):
            _indexing.check_key(np.shape(self._data), raw, key)
        if _state["enabled"] and (self.requires_grad or getattr(value, "requires_grad", False)):
            if self.grad_fn is None and self.requires_grad:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )
            if _indexing.whole(key):  # torch writes into the tensor itself, as its copy_to does
                value = value if isinstance(value, Tensor) else tensor(value)
                if value.ndim == 0 and self.ndim:
                    self.fill_(value)
                else:
                    self.copy_(value)
                return
            self._become(_indexing.put_class(key).apply(self, value, key=key))
            return
        store = self._storage()
        try:
            store[key] = _raw(value)
        except ValueError:
            _store_reshaped(store, key, _raw(value))
        _versions.changed_by(self, self._data)
        if events.observers:
            announce_inplace(self)

    def __abs__(self):
        return _pointwise.abs(self)

    def __invert__(self):
        return make(np.asarray(~self._data))

    def __and__(self, other):
        return _arithmetic.bitwise_and(self, other)

    def __or__(self, other):
        return _arithmetic.bitwise_or(self, other)

    def __xor__(self, other):
        return _arithmetic.bitwise_xor(self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__  # `2 | mask`: both orders agree

    def __lshift__(self, other):
        return _arithmetic.bitwise_left_shift(self, other)

    def __rshift__(self, other):
        return _arithmetic.bitwise_right_shift(self, other)

    def __rlshift__(self, other):  # `1 << t`
        return _arithmetic.bitwise_left_shift(_base.to_tensor(other), self)

    def __rrshift__(self, other):
        return _arithmetic.bitwise_right_shift(_base.to_tensor(other), self)

    def __rmatmul__(self, other):
        return _linalg.matmul(other, self)

    def __index__(self) -> int:
        """`names[t]`, `range(n)[t]`: a one-element integer tensor as a Python int."""
        if np.size(self._data) != 1 or np.result_type(self._data).kind not in "iu":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    # numpy hands `array * t` to the tensor's __rmul__, as with torch, instead of converting it
    __array_priority__ = 1000

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """What numpy computes from a tensor and an array (`t * np.array(...)`) comes back as
        a tensor, as in torch (bools as uint8, as torch's wrap makes them)."""
        array = np.asarray(array)
        return new_leaf(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """`np.asarray(t)`: the values, as `t.numpy()` gives them (refused when t needs grad)."""
        data = self.numpy()
        return data if dtype is None else data.astype(dtype, copy=False)

    # -- views, copies, dtypes -------------------------------------------------------------
    @property
    def T(self):
        if self.ndim != 2 and "T" not in _warned:
            import warnings

            _warned.add("T")
            warnings.warn(T_WARNING, UserWarning, stacklevel=2)
        return _shape.permute(self, tuple(reversed(range(self.ndim))))

    @property
    def data(self):
        alias = make(self._storage())
        _versions.data_alias(alias)
        _views.alias(alias, self)
        return alias

    @data.setter
    def data(self, value) -> None:
        self._data = value._data if isinstance(value, Tensor) else np.asarray(value)

    def detach(self):
        """A tensor sharing this one's data, cut off from the graph."""
        out = make(self._storage())
        _views.alias(out, self)
        if events.observers:
            events.on_detach(self, out)
        return out

    def detach_(self):
        self.grad_fn = None
        self._requires_grad = False
        return self

    def requires_grad_(self, requires_grad: bool = True):
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(_NOT_LEAF)
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad) or self.grad_fn is not None
        return self

    def to(self, *args, dtype=None, device=None, non_blocking=False, copy=False, **kwargs):
        """A tensor of another dtype (the same one if nothing changes); devices: CPU only."""
        for arg in args:
            if isinstance(arg, Tensor):
                dtype = arg.dtype
            elif isinstance(arg, (_dtype_class, type, np.dtype)):  # torch.float64, float, ...
                dtype = arg
            elif not isinstance(arg, bool):  # a bool is non_blocking, meaningless here
                device = arg
        if device is not None:
            check_device(device)
        out = self if dtype is None else self._as(to_numpy_dtype(dtype))
        return _arithmetic.clone(out) if copy and out is self else out

    @property
    def device(self):
        return CPU

    @property
    def is_cuda(self) -> bool:
        return False

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False):
        raise AssertionError(NO_CUDA)

    def _as(self, np_dtype):
        if self._data.dtype == np_dtype:
            return self
        if np.dtype(np_dtype).kind not in "fc":  # integer results never require grad
            return make(np.asarray(self._data).astype(np_dtype))
        return _arithmetic.ToDtype.apply(self, dtype=np_dtype)

    def float(self, memory_format=None):
        return self._as(float32.numpy)

    def double(self, memory_format=None):
        return self._as(float64.numpy)

    def half(self, memory_format=None):
        return self._as(np.dtype("float16"))  # numpy's float16: torch.half's IEEE format

    def long(self, memory_format=None):
        return self._as(int64.numpy)

    def int(self, memory_format=None):
        return self._as(np.dtype("int32"))

    def short(self, memory_format=None):
        return self._as(np.dtype("int16"))

    def char(self, memory_format=None):
        return self._as(np.dtype("int8"))

    def byte(self, memory_format=None):
        return self._as(np.dtype("uint8"))

    def bool(self, memory_format=None):
        return self._as(np.dtype("bool"))

    def type(self, dtype=None, non_blocking=False):
        """`x.type()` names the legacy type ('torch.FloatTensor'); given a type, converts."""
        from .legacy import legacy_type

        if dtype is None:
            return f"torch.{legacy_type(self._data.dtype).__name__}"
        return self.to(legacy_type(dtype).dtype if isinstance(dtype, (str, type)) else dtype)

    # -- in place ------------------------------------------------------------------------------
    def _check_inplace(self) -> None:
        if self.grad_fn is None and self.requires_grad and _state["enabled"]:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )

    def _become(self, out, counted=False, displaced=None) -> None:
        """Take on the result of an in-place op on a graph tensor: its data and its node. A
        view (x[i], x.view(...), x.t()) writes it into its base too, recorded as CopySlices
        there, as PyTorch's views share their base's memory and version counter (`counted`:
        the change was counted already, by the view); then every view of the first base is
        pointed at its new memory (`displaced`: id -> the data the views on the way had)."""
        node = out.grad_fn  # PyTorch writes into the memory; its own node saved before
        view = getattr(self, "_view", None)
        if view is not None:
            _check_view_inplace(*view)
            base, key, _ = view
            if key is None:  # a view op's result (view, t, permute): found by its memory
                key = _memory.index_in(base._data, self._data)
                if key is None:
                    raise NotInAutoviz(_STALE_VIEW)
            elif not counted and not _same_values(base._data[key], self._data):
                raise NotInAutoviz(_STALE_VIEW)  # its base changed there since it was taken
        if counted:
            _versions.moved(self._data, out._data, node)
        else:
            at = None if node is None else node._seq
            _versions.changed_by(self, self._data, None if view else out._data, at, node)
        displaced = {} if displaced is None else displaced
        displaced[id(self)] = self._data
        self._data, self.grad_fn, self._requires_grad = out._data, out.grad_fn, True
        if events.observers:
            events.on_rebind(self, out)
        if view is not None:
            written = _indexing.CopySlices.apply(base, self, key=key)
            base._become(written, counted=True, displaced=displaced)
        else:
            _views.refresh(self, displaced[id(self)], displaced)

    def _inplace(self, ufunc, other):
        self._check_inplace()
        _check_cast(self._data, other, ufunc is Tensor.__truediv__)
        if isinstance(other, Tensor) and np.shape(other._data) != np.shape(self._data):
            _base.check_inplace_shape(np.shape(self._data), np.shape(other._data))
        if _state["enabled"] and (self.grad_fn is not None or getattr(other, "requires_grad", 0)):
            self._become(ufunc(self, other))  # as PyTorch records it: this tensor gets the node
            return self
        if ufunc is Tensor.__sub__:
            _arithmetic.refuse_bool_sub(self._data, _raw(other))
        store = self._storage()
        # Straight into the storage: no temporary as large as the tensor (an SGD step does
        # this for every parameter). _check_cast has ruled out results that cannot be stored.
        _RAW_UFUNC[ufunc](store, _raw(other), out=store)
        _versions.changed_by(self, store)  # after: an inference tensor changes, then refuses
        if events.observers:
            announce_inplace(self)
        return self

    def add_(self, other, alpha=1):
        if alpha != 1 and isinstance(other, Tensor):  # one node and one rounding, as torch's
            return _base.inplace(_arithmetic.add)(self, other, alpha=alpha)
        return self._inplace(Tensor.__add__, other if alpha == 1 else other * alpha)

    def sub_(self, other, alpha=1):
        if alpha != 1 and isinstance(other, Tensor):
            return _base.inplace(_arithmetic.sub)(self, other, alpha=alpha)
        return self._inplace(Tensor.__sub__, other if alpha == 1 else other * alpha)

    def mul_(self, other):
        return self._inplace(Tensor.__mul__, other)

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is not None:
            from .ops.arithmetic import div

            return _base.inplace(div)(self, other, rounding_mode=rounding_mode)
        return self._inplace(Tensor.__truediv__, other)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_

    def zero_(self):
        self._check_inplace()
        if self.requires_grad and _state["enabled"]:  # recorded: no gradient to old values
            return _base._write_back(self, _pointwise.Zero.apply(self))
        self._storage()[...] = 0
        _versions.changed_by(self, self._data)
        if events.observers:
            events.on_zero(self)
        return self

    def fill_(self, value):
        self._check_inplace()
        recorded = self.requires_grad or getattr(value, "requires_grad", False)
        if recorded and _state["enabled"]:
            if isinstance(value, Tensor):
                return _base._write_back(self, _pointwise.FillTensor.apply(self, value))
            return _base._write_back(self, _pointwise.Fill.apply(self, value=value))
        self._storage()[...] = value
        _versions.changed_by(self, self._data)
        if events.observers:
            announce_inplace(self)
        return self

    def copy_(self, src, non_blocking=False):
        """src's values written into this tensor (broadcast, cast to its dtype); recorded as
        CopyBackwards while either needs gradients, so none flows to the values replaced."""
        self._check_inplace()
        recorded = self.requires_grad or getattr(src, "requires_grad", False)
        if recorded and _state["enabled"] and isinstance(src, Tensor):
            return _base._write_back(self, _pointwise.Copy.apply(self, src))
        self._storage()[...] = _raw(src)
        _versions.changed_by(self, self._data)
        if events.observers:
            announce_inplace(self)
        return self

    def apply_(self, callable):
        """Each element replaced by callable(element), in Python (CPU tensors only, as torch)."""
        self._check_inplace()
        store = self._storage()
        flat = store.reshape(-1)
        flat[...] = [callable(v) for v in flat.tolist()]
        _versions.changed_by(self, store)
        return self

    def map_(self, tensor, callable):
        """Each element replaced by callable(element, tensor's element), broadcast."""
        self._check_inplace()
        store = self._storage()
        other = np.broadcast_to(np.asarray(_raw(tensor)), store.shape)
        flat = store.reshape(-1)
        flat[...] = [
            callable(a, b) for a, b in zip(flat.tolist(), other.reshape(-1).tolist(), strict=True)
        ]
        _versions.changed_by(self, store)
        return self

    def register_post_accumulate_grad_hook(self, hook):
        """Call hook(tensor) after backward accumulated into this leaf's .grad."""
        from .backward import register_post_accumulate

        return register_post_accumulate(self, hook)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; it may return a new one."""
        from .backward import register_hook

        return register_hook(self, hook)

    __hash__ = object.__hash__

    def __new__(cls, *args, device=None):
        """`torch.Tensor(data)` or `torch.Tensor(*sizes)`: the legacy constructor, in the default
        float dtype."""
        from .legacy import construct

        return construct(default_float(), args, device, any_dtype=True)

    def __deepcopy__(self, memo):
        """A copy of a leaf with its grad (torch refuses a tensor made by an op)."""
        if self.grad_fn is not None:
            raise RuntimeError(DEEPCOPY_NON_LEAF)
        import copy

        rebuild, args = self.__reduce_ex__(4)
        new = memo[id(self)] = rebuild(*copy.deepcopy(args, memo))
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)
        return new

    def __reduce_ex__(self, protocol):
        # Data as bytes, not a numpy array: torch.load(weights_only=True) then needs to trust
        # only these functions (pickle.py's weakref to the AccumulateGrad is never saved).
        # A view and its base saved together share one storage record, as in PyTorch.
        view = _memory.saved_view(self._data)
        if view is None:
            return (_rebuild, _saved(self))
        return (_rebuild_view, (*view, self.requires_grad))


class Size(tuple):
    """A shape, printed as PyTorch prints it: `torch.Size([2, 3])`; its slices, sums with
    tuples and repeats are Sizes too."""

    def __new__(cls, sizes=()):
        items = []
        for i, n in enumerate(sizes):
            if isinstance(n, Tensor) and not n.ndim and n._data.dtype.kind in "iu":
                n = int(n._data)
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
                raise TypeError(
                    f"torch.Size() takes an iterable of 'int' (item {i} is '{type(n).__name__}')"
                )
            items.append(int(n))
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def __getitem__(self, key):
        got = tuple.__getitem__(self, key)
        return Size(got) if isinstance(key, slice) else got

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(
                f"can only concatenate tuple (not {type(other).__name__}) to torch.Size"
            )
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__

    def numel(self) -> int:
        return int(np.prod(self))

    def __reduce__(self):
        return (_rebuild_size, (tuple(self),))  # a function: pickled by its own module's name


def _as_size(dims: tuple) -> Size:
    """A numpy shape as a Size, without the checks a user's sizes get (its items are ints)."""
    return tuple.__new__(Size, dims)


def _rebuild_size(values) -> Size:
    return Size(values)


def dtype_of(data):
    """The dtype object for `data`, printed as PyTorch names it."""
    from .dtypes import from_numpy_dtype

    return from_numpy_dtype(data.dtype)


_new = object.__new__
_NOT_LEAF = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)


def _saved(t) -> tuple:
    data = t._data  # not np.ascontiguousarray: it makes a 0-d array 1-d
    return (data.tobytes(order="C"), data.dtype.name, data.shape, t.requires_grad)


def _rebuild(data: bytes, dtype: str, shape: tuple, requires_grad: bool) -> Tensor:
    """A tensor from what `__reduce_ex__` saved (torch.save, pickle, copy)."""
    arr = np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape).copy()
    return new_leaf(arr, requires_grad)


def _rebuild_view(storage, dtype: str, shape: tuple, strides: tuple, offset: int, requires_grad):
    """A tensor over a storage torch.load rebuilt once for all the tensors that share it."""
    return new_leaf(_memory.viewed(storage, dtype, shape, strides, offset), requires_grad)


def make(data, requires_grad=False, grad_fn=None, name=None) -> Tensor:
    """A tensor over `data` without copying; the engine's one way to build tensors."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t.grad_fn = grad_fn
    t._grad = None
    t._name = name
    t._retains_grad = False
    t._acc = None
    return t


def wrap(data) -> Tensor:
    """A constant tensor over `data`."""
    return make(data)


def _check_cast(data, other, divides: bool) -> None:
    """PyTorch's error when an in-place op's result cannot be stored in this dtype (`i /= 2`)."""
    mine = np.result_type(data)
    if mine.kind == "f":
        return
    if isinstance(other, Tensor):
        theirs = np.result_type(other._data)
    elif isinstance(other, (bool, np.bool_)):
        theirs = np.dtype(bool)
    elif isinstance(other, int):
        theirs = np.dtype("int64")
    else:
        theirs = default_float()
    if divides and theirs.kind != "f":
        theirs = default_float()  # true division of integers gives floats
    if KIND_RANK.get(theirs.kind, 0) > KIND_RANK.get(mine.kind, 0):
        raise RuntimeError(
            f"result type {TYPE_NAMES.get(theirs.name, theirs.name)} can't be cast to the "
            f"desired output type {TYPE_NAMES.get(mine.name, mine.name)}"
        )


def _ragged(value, sizes=None, dim=0) -> str | None:
    """PyTorch's message for nested lists of uneven lengths, or None."""
    if sizes is None:
        sizes, probe = [], value
        while isinstance(probe, (list, tuple)):
            sizes.append(len(probe))
            probe = probe[0] if probe else None
    if not isinstance(value, (list, tuple)) or dim >= len(sizes):
        return None
    if len(value) != sizes[dim]:
        return f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(value)})"
    for item in value:
        message = _ragged(item, sizes, dim + 1)
        if message:
            return message
    return None


def _warn_scalar(stacklevel: int) -> None:
    """torch's once-per-process warning, given only while grad mode is on (as torch gives it)."""
    if _state["enabled"] and "scalar" not in _warned:
        import warnings

        _warned.add("scalar")
        warnings.warn(SCALAR_WARNING, UserWarning, stacklevel=stacklevel)


def as_tensor_data(value, dtype=None):
    """Python numbers, lists and arrays as an ndarray with PyTorch's default dtypes."""
    if isinstance(value, (list, tuple)):
        found = []
        value = _tensors_as_scalars(value, found)
        # each tensor and numpy scalar counts with its dtype, as torch infers it
        if dtype is None and (found or any(isinstance(v, np.generic) for v in _flat(value))):
            dtype = functools.reduce(promote, map(_number_dtype, _flat(value)))
        if any(t.requires_grad for t in found):
            _warn_scalar(stacklevel=4)
    try:
        arr = np.array(value, dtype=dtype)
    except ValueError:
        message = _ragged(value)
        if message:
            raise ValueError(message) from None
        raise
    python = not isinstance(value, np.ndarray | np.generic)
    if dtype is None and arr.dtype == np.float64 and python:
        arr = arr.astype(default_float())
    if python and (arr.dtype.kind in "USO" or (dtype is None and arr.dtype == np.uint64)):
        _refuse_data(value, arr)
    return arr


def _refuse_data(value, arr) -> None:
    """torch's errors for Python data no tensor dtype holds: text, integers past int64."""
    if arr.dtype.kind in "US":
        if arr.ndim == 0:
            raise TypeError(f"new(): invalid data type '{type(value).__name__}'")
        raise ValueError("too many dimensions 'str'")
    if arr.dtype.kind == "u" or any(isinstance(v, int) for v in _flat(_listed(value))):
        raise ValueError("Overflow when unpacking long long")
    raise TypeError(f"Could not infer dtype of {type(value).__name__}")


def _listed(value):
    return (
        list(value) if isinstance(value, tuple) else value if isinstance(value, list) else [value]
    )


def _tensors_as_scalars(value, found: list):
    """Nested lists with each tensor in them read as its one number (torch's rule: a tensor
    inside a list is a scalar), the tensors appended to `found`."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        found.append(value)
        return np.asarray(value._data).reshape(())[()]
    if isinstance(value, (list, tuple)):
        return [_tensors_as_scalars(v, found) for v in value]
    return value


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _number_dtype(value):
    """The dtype torch infers for one element of a list: a Python number's default one."""
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, (bool, np.bool_)):
        return np.dtype(bool)
    return np.dtype("int64") if isinstance(value, int) else default_float()


def new_leaf(arr: np.ndarray, requires_grad=False, name=None) -> Tensor:
    """A leaf tensor over `arr`, announced to observers when it requires grad."""
    if requires_grad and arr.dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    if arr.ndim == 0:
        # Held as a numpy scalar, like the results of ops, until something needs its storage
        # (`_storage()`): arithmetic with a 0-d array goes through the ufunc machinery and
        # costs several times more than with a scalar.
        arr = arr[()]
    t = make(arr, bool(requires_grad), None, name)
    if _state["inference"]:
        t._inference = True
    if requires_grad and events.observers:
        events.on_leaf(t)
    return t


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False, name=None):
    """A new leaf tensor holding a copy of `data`."""
    if device is not None:
        check_device(device)
    if isinstance(data, Tensor):
        import warnings

        warnings.warn(COPY_WARNING, UserWarning, stacklevel=2)
        data = data._data
    return new_leaf(as_tensor_data(data, to_numpy_dtype(dtype)), requires_grad, name)


def announce_inplace(t) -> None:
    """Tell observers `t` changed in place, and each tensor it is a view of (x[i], x.select,
    x.unbind), whose memory changed with it."""
    while t is not None:
        events.on_inplace(t)
        view = getattr(t, "_view", None)
        t = None if view is None else view[0]


def _check_view_inplace(base, key, several) -> None:
    """PyTorch's refusals of an in-place op on a view while gradients are recorded (`several`:
    the name and number of a piece of split, chunk or unbind)."""
    if several:
        name, number = several
        raise RuntimeError(
            f"Output {number} of {name} is a view and is being modified inplace. This view is "
            "the output of a function that returns multiple views. Such functions do not allow "
            "the output views to be modified inplace. You should replace the inplace operation "
            "by an out-of-place one."
        )
    if base.grad_fn is None and base.requires_grad:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )


def _uint8_mask(key) -> bool:
    """Whether `a[key] = v` uses a uint8 tensor as its mask, which torch refuses."""
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(p, Tensor) and p._data.dtype == np.uint8 for p in parts)


def _same_values(a, b) -> bool:
    return np.array_equal(a, b, equal_nan=np.result_type(a).kind in "fc")


# autoviz records an in-place op on a graph tensor as a new array for it: a view made before
# its base changed that way no longer shares the base's memory, so it cannot write into it.
_STALE_VIEW = (
    "an in-place op on a view whose base was changed in place after the view was made, while "
    "gradients are recorded, is not in autoviz yet: take the view again after changing its base"
)


DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)
_COMPARABLE = (Tensor, int, float, complex, np.generic, np.ndarray)


def _raw(value):
    return value._data if isinstance(value, Tensor) else value


from ..errors import NotInAutoviz  # noqa: E402
from . import storage as _memory  # noqa: E402
from . import versions as _versions  # noqa: E402
from . import views as _views  # noqa: E402
from .ops import arithmetic as _arithmetic  # noqa: E402  (the ops need Tensor defined first)
from .ops import base as _base  # noqa: E402
from .ops import indexing as _indexing  # noqa: E402
from .ops import linalg as _linalg  # noqa: E402
from .ops import pointwise as _pointwise  # noqa: E402
from .ops import shape as _shape  # noqa: E402


def _store_reshaped(store, key, value) -> None:
    """store[key] = value with the value's extra leading 1s dropped, as torch writes it
    (`b[0] = tensor([5.])`); torch's message for shapes that still do not broadcast."""
    want = np.shape(store[key])
    raw = np.reshape(value, _without_leading_ones(np.shape(value), len(want)))
    try:
        store[key] = raw
    except ValueError:
        parts = key if isinstance(key, tuple) else (key,)
        if any(isinstance(part, np.ndarray) for part in parts):  # indices or a mask
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {list(np.shape(value))} cannot be "
                f"broadcast to indexing result of shape {list(want)}"
            ) from None
        _shape.Expand.forward(NO_CONTEXT, raw, shape=want)
        raise


def _without_leading_ones(shape: tuple, ndim: int) -> tuple:
    """`shape` less the leading 1s it has beyond `ndim` dimensions."""
    while len(shape) > ndim and shape[0] == 1:
        shape = shape[1:]
    return shape


def _set_requires_grad(t, value) -> None:
    """`t.requires_grad = value`, checked as torch checks it."""
    if not isinstance(value, bool):
        raise RuntimeError("requires_grad must be a bool")
    if t.grad_fn is not None:  # torch's hint to detach only when turning it off
        raise RuntimeError(_NOT_LEAF if not value else _NOT_LEAF.split(" If")[0])
    if value and t._data.dtype.kind not in "fc":
        raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
    t._requires_grad = value


# Read through the slot's own C getter, so the engine's many reads stay cheap; only a user's
# assignment pays for torch's checks.
Tensor.requires_grad = property(Tensor._requires_grad.__get__, _set_requires_grad)

# The arithmetic operators as one function each, without a call of base.binary around it.
Tensor.__add__ = Tensor.__radd__ = _base.binary_method(_arithmetic.Add)  # the tensor goes first
Tensor.__sub__ = _base.binary_method(_arithmetic.Sub)
Tensor.__mul__ = Tensor.__rmul__ = _base.binary_method(_arithmetic.Mul)
Tensor.__truediv__ = _base.binary_method(_arithmetic.Div)

_RAW_UFUNC = {
    Tensor.__add__: np.add,
    Tensor.__sub__: np.subtract,
    Tensor.__mul__: np.multiply,
    Tensor.__truediv__: np.true_divide,
}
