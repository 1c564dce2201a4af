"""What every op family shares: the `Op` class and its fast paths, broadcasting, PyTorch's
dtype rules, and its argument conventions (`dim`/`axis`, sizes as varargs, `out=`, in place)."""

import functools
import inspect
import os
import sys
import warnings
from collections import namedtuple

import numpy as np

from .. import events, versions
from ..dtypes import KIND_RANK, TYPE_NAMES, default_float, result_type
from ..fidelity.sums import cascade_sum
from ..function import (
    NO_CONTEXT,
    Function,
    accumulator_for,
    attach,
    attach_output,
    leaf_node,
    module_stack,
    new_node,
    next_seq,
    refuse_saved_inference,
)
from ..grad_mode import _state
from ..tensor import Tensor, make, tensor

_F64 = np.dtype("float64")


_F32_SCALAR = np.float32  # the type of a 0-d float32 op result


_SCALARS = ((), ())  # the input shapes of an op on two 0-d values


NUMBER = (int, float, bool, np.number, np.bool_)


class Op(Function):
    """A built-in op: forward and backward work on numpy arrays, not tensors."""

    _builtin = True

    @classmethod
    def apply(cls, *inputs, **params):
        # One loop for the data and whether to record, as ops have one or two inputs and a
        # comprehension or any(...) costs more than that work. isinstance, not `type(t) is
        # Tensor`: subclasses such as nn.Parameter are tensors too.
        data = []
        record = False
        for t in inputs:
            if isinstance(t, Tensor):
                record = record or t._requires_grad
                t = t._data
            data.append(t)
        ctx = new_node(cls, inputs) if record and _state["enabled"] else NO_CONTEXT
        try:
            out = cls.forward(ctx, *data, **params)
        except ValueError:
            if len(data) == 2:  # shapes that do not broadcast: PyTorch's message
                check_broadcast(*data)
            raise
        if ctx is not NO_CONTEXT:
            return attach(ctx, out, inputs)
        out = make(out)
        if _state["inference"]:
            out._inference = True
        if events.observers:
            events.on_untracked(out, inputs)
        return out


class SeveralOutputs(Op):
    """A built-in op with several outputs (split's pieces): one node, as PyTorch records it.
    forward returns a tuple of arrays; backward gets one gradient per output (a Parts: None
    for an output no gradient reached; see `parts`)."""

    _node_slots = ("_outs", "_several")  # each output's data, shape and dtype

    @classmethod
    def apply(cls, *inputs, **params):
        data = [t._data if isinstance(t, Tensor) else t for t in inputs]
        record = _state["enabled"] and any(getattr(t, "requires_grad", False) for t in inputs)
        ctx = new_node(cls, inputs) if record else NO_CONTEXT
        outs = cls.forward(ctx, *data, **params)
        if ctx is NO_CONTEXT:
            results = tuple(map(make, outs))
            for out in results:
                if _state["inference"]:
                    out._inference = True
                if events.observers:
                    events.on_untracked(out, inputs)
            return results
        ctx._several = [(out.shape, out.dtype) for out in outs]
        ctx._outs = list(outs)
        ctx._out = outs[0] if outs else None
        if len(outs) == 1:  # one piece: an ordinary node (its gradient comes alone, as torch's)
            return (attach(ctx, outs[0], inputs),)
        return tuple(attach_output(ctx, i, out, inputs) for i, out in enumerate(outs))


def parts(grads) -> tuple:
    """The gradients a SeveralOutputs op's backward gets, as a tuple even for one output."""
    return grads if isinstance(grads, tuple) else (grads,)


def shape_of(x) -> tuple:
    """np.shape(x) without its dispatch (a third of a microsecond): numpy data has `.shape`."""
    shape = getattr(x, "shape", None)
    return np.shape(x) if shape is None else shape


def unbroadcast(grad, shape):
    """Sum `grad` over the axes broadcasting added, so it has `shape` again."""
    gshape = shape_of(grad)
    if gshape == shape:
        return grad
    extra = len(gshape) - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, n in enumerate(shape) if n == 1 and gshape[i + extra] != 1
    )
    return cascade_sum(grad, axes).reshape(shape)  # added up in PyTorch's order


def check_broadcast(a, b) -> None:
    """PyTorch's message, word for word, when two shapes cannot broadcast (lessons on
    broadcasting print it)."""
    sa, sb = np.shape(a), np.shape(b)
    for i, (m, n) in enumerate(zip(reversed(sa), reversed(sb), strict=False)):
        if m != n and m != 1 and n != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            raise RuntimeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                f"non-singleton dimension {dim}"
            ) from None  # raised while numpy's own error is handled: show only this one


def result(out, *inputs):
    """numpy's result in the dtype PyTorch's promotion gives (dtypes.result_type); a float
    result of integer inputs (division, exp) in the default float dtype."""
    dt = getattr(out, "dtype", None)
    if dt is None:  # a Python number from two Python numbers
        return np.asarray(out, dtype=default_float() if isinstance(out, float) else None)
    want = result_type(*inputs)
    if want is None or want is dt:
        return out
    if dt.kind == "f" and want.kind != "f":
        want = default_float()
    return out if want is dt else out.astype(want)


def binary(op, a, b):
    """Apply a two-input op where one side may be a Python number."""
    method = _BINARY.get(op)
    if method is None:
        method = _BINARY[op] = binary_method(op)
    return method(a, b)


def binary_method(op):
    """The function computing `a op b` for tensor `a`, what Tensor's operators are.

    What Op.apply, new_node and attach do, written out in one function for two inputs: scalar
    code spends its time here, and each call saved is a tenth of an op's cost.
    """
    forward, backward_cls = op.forward, op._backward_cls

    def method(a, b):
        if isinstance(b, Tensor):
            b_data, b_requires_grad = b._data, b._requires_grad
        elif isinstance(b, NUMBER):
            b_data, b_requires_grad = b, False
        else:
            return NotImplemented
        if not isinstance(a, Tensor):
            return op.apply(a, b)
        a_data = a._data
        if not ((a._requires_grad or b_requires_grad) and _state["enabled"]):
            try:
                out = make(forward(NO_CONTEXT, a_data, b_data))
            except ValueError:
                check_broadcast(a_data, b_data)
                raise
            if _state["inference"]:
                out._inference = True
            if events.observers:
                events.on_untracked(out, (a, b))
            return out
        node = _new(backward_cls)
        # The nodes behind the inputs: a grad_fn, or a leaf's AccumulateGrad (next_node's
        # work without its calls: most ops have a leaf among their inputs).
        first = a.grad_fn
        if first is None and a._requires_grad:
            ref = a._acc
            first = ref() if ref is not None else None
            if first is None:
                first = accumulator_for(a)
        second = None
        if b_requires_grad:
            second = b.grad_fn
            if second is None:
                ref = b._acc
                second = ref() if ref is not None else None
                if second is None:
                    second = accumulator_for(b)
        node._next = (first, second)
        if first is None or second is None:  # a constant input: kept for drawings
            node._inputs = (a, b)
            inference = _state["inference_used"]  # only a constant can be an inference tensor
        node._seq = next_seq()
        node._pre_hooks = None
        node._saved = ()
        node.info = None
        if module_stack:
            node._modules = module_stack[-1]
        try:
            data = forward(node, a_data, b_data)
        except ValueError:
            # Shapes that do not broadcast: raise PyTorch's message, naming the op and both
            # shapes. Checked only on failure, as comparing shapes before every op costs time.
            check_broadcast(a_data, b_data)
            raise
        if (first is None or second is None) and inference:
            refuse_saved_inference(node, (a, b))
        out = _new(Tensor)
        out._data = node._out = data
        out._requires_grad = True
        out.grad_fn = node
        out._grad = out._name = out._acc = None
        out._retains_grad = False
        if events.observers:  # from here, so the recorder finds the user's line one frame out
            events.on_op(node, out, (a, b))
        return out

    method.__name__ = method.__qualname__ = f"{op.__name__.lower()}"
    return method


_BINARY = {}  # op -> its binary_method


def unary_method(op):
    """The method computing `op(a)` for tensor `a` (a.relu(), a.exp(), -a): Op.apply for one
    input and no options, written out as binary_method is."""
    forward, backward_cls = op.forward, op._backward_cls

    def method(a):
        if not (a._requires_grad and _state["enabled"]):
            out = make(forward(NO_CONTEXT, a._data))
            if _state["inference"]:
                out._inference = True
            if events.observers:
                events.on_untracked(out, (a,))
            return out
        node = _new(backward_cls)
        first = a.grad_fn
        node._next = (first if first is not None else leaf_node(a),)
        node._seq = next_seq()
        node._pre_hooks = None
        node._saved = ()
        node.info = None
        if module_stack:
            node._modules = module_stack[-1]
        out = _new(Tensor)
        out._data = node._out = forward(node, a._data)
        if _state["inference_used"]:
            refuse_saved_inference(node, (a,))
        out._requires_grad = True
        out.grad_fn = node
        out._grad = out._name = out._acc = None
        out._retains_grad = False
        if events.observers:
            events.on_op(node, out, (a,))
        return out

    method.__name__ = method.__qualname__ = op.__name__.lower()
    return method


_new = object.__new__


def _float(x):
    """Integer inputs to a float op compute in the default float dtype, as PyTorch's do."""
    kind = getattr(x, "dtype", None)
    return x.astype(default_float()) if kind is not None and kind.kind in "biu" else x


# -- PyTorch's argument conventions --------------------------------------------------------


def wrap_dim(dim: int, ndim: int) -> int:
    """`dim` counted from 0, or PyTorch's IndexError (a 0-d tensor takes dims -1 and 0)."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def to_tensor(x) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def dim_arg(dim, axis):
    """`dim`, or numpy's name for it, `axis`, which PyTorch accepts too."""
    return axis if axis is not None else dim


def shape_arg(shape) -> tuple:
    return tuple(shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape)


def return_type(name: str, fields=("values", "indices")) -> type:
    """The class of torch.return_types.<name>: a named tuple printed as PyTorch prints it."""
    body = {"__slots__": (), "__module__": "torch.return_types"}
    return type(name, (ReturnType, namedtuple(name, fields)), body)


class ReturnType:
    """PyTorch's printing of `torch.return_types.max(values=..., indices=...)`."""

    __slots__ = ()

    def __repr__(self) -> str:
        parts = ",\n".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True)
        )
        return f"torch.return_types.{type(self).__name__}(\n{parts})"


def into(out, result, name: str):
    """Write `result` into `out` (resized, with PyTorch's warning, if its shape differs)."""
    if _state["enabled"] and (result._requires_grad or out._requires_grad):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    data = np.asarray(result._data)
    have, want = np.result_type(out._data), data.dtype
    if KIND_RANK.get(want.kind, 0) > KIND_RANK.get(have.kind, 0):
        raise RuntimeError(
            f"result type {TYPE_NAMES.get(want.name, want.name)} can't be cast to the desired "
            f"output type {TYPE_NAMES.get(have.name, have.name)}"
        )
    if np.shape(out._data) == data.shape:
        out._storage()[...] = data
    else:
        if np.size(out._data):
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(np.shape(out._data))}, which does not match the required output shape "
                f"{list(data.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        out._data = data.astype(have)
    if events.observers:
        events.on_inplace(out)
    return out


def warn_once(key: str, message: str) -> None:
    """A UserWarning PyTorch gives once per process, pointing at the user's line (the first
    frame outside the engine, however many of its calls led here)."""
    from ..tensor import _warned

    if key in _warned:
        return
    _warned.add(key)
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


_ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check_inplace_shape(shape: tuple, other: tuple) -> None:
    """An in-place op's result must keep the tensor's shape: torch's error when broadcasting
    with the other operand would grow it (`zeros(3).add_(ones(2, 3))`)."""
    check_broadcast(np.empty(shape, np.bool_), np.empty(other, np.bool_))
    wanted = np.broadcast_shapes(shape, other)
    if wanted != tuple(shape):
        raise RuntimeError(
            f"output with shape {list(shape)} doesn't match the broadcast shape {list(wanted)}"
        )


def _write_back(self, out):
    """Make `self` hold `out`, the result of an in-place op computed out of place."""
    if np.shape(out._data) != np.shape(self._data):
        check_inplace_shape(np.shape(self._data), np.shape(out._data))
    if out.grad_fn is not None:
        self._become(out)  # recorded: this tensor gets the op's node, as in PyTorch
        return self
    have, want = np.result_type(self._data), np.result_type(out._data)
    if KIND_RANK.get(want.kind, 0) > KIND_RANK.get(have.kind, 0):
        raise RuntimeError(
            f"result type {TYPE_NAMES.get(want.name, want.name)} can't be cast to the desired "
            f"output type {TYPE_NAMES.get(have.name, have.name)}"
        )
    self._storage()[...] = out._data
    versions.changed_by(self, self._data)
    if events.observers:
        from ..tensor import announce_inplace

        announce_inplace(self)
    return self


def inplace_view(function):
    """`x.name_(...)` for a view op (`x.unsqueeze_(0)`, `x.t_()`): x takes on the view's shape,
    and its node when one is recorded, as PyTorch's in-place view ops do."""

    def method(self, *args, **kwargs):
        self._check_inplace()
        out = function(self, *args, **kwargs)
        if out.grad_fn is not None:
            self._become(out)
        else:
            self._data = out._data
        return self

    method.__name__ = method.__qualname__ = function.__name__ + "_"
    method.__doc__ = f"In-place `{function.__name__}`: this tensor takes the new shape."
    return method


def inplace(function):
    """`x.name_(...)` from `function(x, ...)`."""

    def method(self, *args, **kwargs):
        self._check_inplace()
        return _write_back(self, function(self, *args, **kwargs))

    method.__name__ = method.__qualname__ = function.__name__ + "_"
    method.__doc__ = f"In-place `{function.__name__}`: changes this tensor and returns it."
    return method


def writes_out(function):
    """`function(..., out=t)` as torch has it: the result written into `out` (each of several
    results into the matching tensor of a tuple), which is then returned."""
    name = function.__name__.removeprefix("torch_").removeprefix("linalg_")

    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        result = function(*args, **kwargs)
        return result if out is None else into_each(out, result, name)

    signature = inspect.signature(function)
    extra = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)
    call.__signature__ = signature.replace(parameters=[*signature.parameters.values(), extra])
    return call


def into_each(out, result, name: str):
    """`into` for a function of one result, or of several (torch's return types)."""
    if not isinstance(result, tuple):
        return into(out, result, name)
    if not isinstance(out, (tuple, list)) or len(out) != len(result):
        raise TypeError(f"{name}(): argument 'out' must be tuple of {len(result)} Tensors")
    written = [into(o, r, name) for o, r in zip(out, result, strict=True)]
    return type(result)(*written) if hasattr(result, "_fields") else tuple(written)


def need_tensor(function: str, value, position: int = 1, name: str = "input") -> None:
    """PyTorch's TypeError when an argument that must be a tensor is a number."""
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def refuse_bool(x, message: str, error=RuntimeError) -> None:
    """PyTorch's refusal of a bool tensor where an op needs numbers (argmax, topk, median)."""
    if np.result_type(getattr(x, "_data", x)) == np.bool_:
        raise error(message)


def type_word(a) -> str:
    """PyTorch's word for a's dtype in "not implemented for 'Long'" messages."""
    name = np.result_type(a).name
    return TYPE_NAMES.get(name, name)


def dtype_word(a) -> str:
    """PyTorch's word for a's dtype in some messages ("Long", "Bool", else numpy's name)."""
    return {"i": "Long", "b": "Bool"}.get(np.result_type(a).kind, str(np.result_type(a)))
