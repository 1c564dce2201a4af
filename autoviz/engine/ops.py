"""Elementwise differentiable ops: one small class per op, its derivative in the docstring."""

import numpy as np

from . import events
from .function import (
    FREED,
    FREED_MESSAGE,
    NO_CONTEXT,
    Function,
    accumulator_for,
    attach,
    leaf_node,
    module_stack,
    new_node,
    next_seq,
)
from .grad_mode import _state
from .sums import cascade_sum
from .tensor import Tensor, make

_F64 = np.dtype("float64")
_F32 = np.dtype("float32")
_F32_SCALAR = np.float32  # the type of a 0-d float32 op result
_SCALARS = ((), ())  # the input shapes of an op on two 0-d values
NUMBER = (int, float, bool, np.number, np.bool_)


class Op(Function):
    """A built-in op: forward and backward work on numpy arrays, not tensors."""

    _builtin = True
    symbol = "op"

    @classmethod
    def apply(cls, *inputs, **params):
        # One loop for the data and whether to record, as ops have one or two inputs and a
        # comprehension or any(...) costs more than that work. isinstance, not `type(t) is
        # Tensor`: subclasses such as nn.Parameter are tensors too.
        data = []
        record = False
        for t in inputs:
            if isinstance(t, Tensor):
                record = record or t.requires_grad
                t = t._data
            data.append(t)
        ctx = new_node(cls, inputs) if record and _state["enabled"] else NO_CONTEXT
        try:
            out = cls.forward(ctx, *data, **params)
        except ValueError:
            if len(data) == 2:  # shapes that do not broadcast: PyTorch's message
                check_broadcast(cls.symbol, *data)
            raise
        if ctx is not NO_CONTEXT:
            return attach(ctx, out, inputs)
        out = make(out)
        if events.observers:
            events.on_untracked(out, inputs)
        return out


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


def check_broadcast(op: str, a, b) -> None:
    """PyTorch's message when two shapes cannot broadcast, naming the op and both shapes."""
    sa, sb = np.shape(a), np.shape(b)
    for i, (m, n) in enumerate(zip(reversed(sa), reversed(sb), strict=False)):
        if m != n and m != 1 and n != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            raise RuntimeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                f"non-singleton dimension {dim} ({op} of shapes {list(sa)} and {list(sb)})"
            ) from None  # raised while numpy's own error is handled: show only this one


def result(out, *inputs):
    """PyTorch's dtype rules on numpy's result: ints and Python floats stay float32."""
    dt = getattr(out, "dtype", None)
    if dt is _F64 and not any(getattr(x, "dtype", None) is _F64 for x in inputs):
        return out.astype(_F32)
    if dt is None:  # a Python number from two Python numbers
        return np.asarray(out, dtype=_F32 if isinstance(out, float) else None)
    return out


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
    symbol, forward, backward_cls = op.symbol, op.forward, op._backward_cls

    def method(a, b):
        if isinstance(b, Tensor):
            b_data, b_requires_grad = b._data, b.requires_grad
        elif isinstance(b, NUMBER):
            b_data, b_requires_grad = b, False
        else:
            return NotImplemented
        if not isinstance(a, Tensor):
            return op.apply(a, b)
        a_data = a._data
        if not ((a.requires_grad or b_requires_grad) and _state["enabled"]):
            try:
                out = make(forward(NO_CONTEXT, a_data, b_data))
            except ValueError:
                check_broadcast(symbol, a_data, b_data)
                raise
            if events.observers:
                events.on_untracked(out, (a, b))
            return out
        node = _new(backward_cls)
        # The nodes behind the inputs: a grad_fn, or a leaf's AccumulateGrad (next_node's
        # work without its calls: most ops have a leaf among their inputs).
        first = a.grad_fn
        if first is None and a.requires_grad:
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
            check_broadcast(symbol, a_data, b_data)
            raise
        out = _new(Tensor)
        out._data = node._out = data
        out.requires_grad = True
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
        if not (a.requires_grad and _state["enabled"]):
            out = make(forward(NO_CONTEXT, a._data))
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
        out.requires_grad = True
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
    """Integer inputs to a float op compute in float32, as PyTorch does."""
    kind = getattr(x, "dtype", None)
    return x.astype(_F32) if kind is not None and kind.kind in "biu" else x


class Add(Op):
    """z = a + b;  dz/da = 1, dz/db = 1."""

    _backward_name = "AddBackward0"
    symbol = "+"

    @staticmethod
    def forward(ctx, a, b):
        out = a + b
        if type(out) is _F32_SCALAR:  # 0-d inputs, the float32 result: scalar code's case
            ctx.info = _SCALARS
            return out
        ctx.info = (a.shape, getattr(b, "shape", ()))  # kept after backward, as in PyTorch
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        if ctx.info is _SCALARS:  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(grad, b_shape)


class Sub(Op):
    """z = a - b;  dz/da = 1, dz/db = -1."""

    _backward_name = "SubBackward0"
    symbol = "-"

    @staticmethod
    def forward(ctx, a, b):
        out = a - b
        if type(out) is _F32_SCALAR:
            ctx.info = _SCALARS
            return out
        ctx.info = (a.shape, getattr(b, "shape", ()))
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        if isinstance(grad, np.generic):  # a 0-d result: both inputs are 0-d, nothing to sum
            return grad, -grad
        a_shape, b_shape = ctx.info
        return unbroadcast(grad, a_shape), unbroadcast(-grad, b_shape)


class Rsub(Op):
    """z = c - a for a number c;  dz/da = -1."""

    _backward_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, c=0):
        ctx.info = c
        return result(c - a, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(Op):
    """z = a * b;  dz/da = b, dz/db = a."""

    _backward_name = "MulBackward0"
    symbol = "*"

    @staticmethod
    def forward(ctx, a, b):
        ctx._saved = (a, b)  # save_for_backward, without its call
        out = a * b
        if type(out) is _F32_SCALAR:
            return out
        return result(out, a, b) if out.dtype is _F64 else out

    @staticmethod
    def backward(ctx, grad):
        saved = ctx._saved  # saved_tensors, without its call
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        a, b = saved
        if type(grad) is _F32_SCALAR or isinstance(grad, np.generic):  # 0-d: nothing to sum
            return grad * b, grad * a
        return unbroadcast(grad * b, shape_of(a)), unbroadcast(grad * a, shape_of(b))


class Div(Op):
    """z = a / b;  dz/da = 1 / b, dz/db = -a / b²."""

    _backward_name = "DivBackward0"
    symbol = "/"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.true_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad / b, shape_of(a)), unbroadcast(-grad * a / (b * b), shape_of(b))


class Reciprocal(Op):
    """z = 1 / a;  dz/da = -1 / a² = -z²."""

    _backward_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        out = result(np.reciprocal(_float(a)), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -grad * out * out


class Pow(Op):
    """z = a ** p for a number p;  dz/da = p * a ** (p - 1)."""

    _backward_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, p=1):
        ctx.save_for_backward(a)
        ctx.info = p
        return result(np.power(_float(a) if p < 0 or isinstance(p, float) else a, p), a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        p = ctx.info
        return grad * (p * np.power(a, p - 1) if p != 0 else np.zeros_like(a))


class PowTensor(Op):
    """z = a ** b;  dz/da = b * a ** (b - 1), dz/db = z * log(a)."""

    _backward_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = result(np.power(_float(a), b), a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = grad * b * np.power(a, b - 1)
            gb = grad * out * np.where(a > 0, np.log(np.where(a > 0, a, 1)), np.nan)
        gb = np.where((a == 0) & (b >= 0), 0, gb)  # PyTorch's convention at a = 0
        return unbroadcast(ga, np.shape(a)), unbroadcast(gb.astype(out.dtype), np.shape(b))


class PowScalarBase(Op):
    """z = c ** b for a number c;  dz/db = z * log(c)."""

    _backward_name = "PowBackward2"

    @staticmethod
    def forward(ctx, b, c=1):
        out = np.asarray(result(np.power(c, _float(b)), b), order="C")  # row-major, as PyTorch
        ctx.save_for_backward(out)
        ctx.info = c
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * np.log(ctx.info).astype(out.dtype)


class Neg(Op):
    """z = -a;  dz/da = -1."""

    _backward_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, grad):
        return -grad


def _unary(name, fwd, chain, saves="input"):
    """An elementwise op z = f(a) whose gradient `chain(grad, a or z)` needs only a or z
    (written in PyTorch's order of operations, so it rounds as PyTorch's does)."""

    def forward(ctx, a):
        out = result(fwd(_float(a)), a)
        ctx.save_for_backward(a if saves == "input" else out)
        return out

    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return chain(grad, saved)

    doc = f"z = {name.removesuffix('Backward0').lower()}(a)."
    body = {
        "_backward_name": name,
        "forward": staticmethod(forward),
        "backward": staticmethod(backward),
        "__doc__": doc,
        "__module__": __name__,
    }
    return type(name.removesuffix("Backward0").capitalize(), (Op,), body)


def wide(f):
    """f computed in float64 and rounded once: PyTorch's float32 exp, sin, log, ... are (all
    but) correctly rounded, numpy's float32 loops are not (exp(12.) is one step below)."""

    def rounded(a):
        if a.dtype.itemsize >= 8:
            return f(a)
        return f(a, dtype=np.float64).astype(a.dtype)

    rounded.__name__ = f.__name__
    return rounded


exp, log, sin, cos, tanh = wide(np.exp), wide(np.log), wide(np.sin), wide(np.cos), wide(np.tanh)
log10, log2, log1p, expm1 = wide(np.log10), wide(np.log2), wide(np.log1p), wide(np.expm1)
_LN10, _LN2 = 2.3025850929940456, 0.6931471805599453


def _sigmoid(a):
    """1 / (1 + exp(-a)), in a's precision, as PyTorch's kernel computes it."""
    one = a.dtype.type(1)
    return one / (one + exp(-a))


Exp = _unary("ExpBackward0", exp, lambda g, z: g * z, saves="output")  # dz/da = z
Log = _unary("LogBackward0", log, lambda g, a: g / a)  # dz/da = 1 / a
Sqrt = _unary("SqrtBackward0", np.sqrt, lambda g, z: g / (2 * z), saves="output")
Abs = _unary("AbsBackward0", np.abs, lambda g, a: g * np.sign(a))  # dz/da = sign(a)
Sin = _unary("SinBackward0", sin, lambda g, a: g * cos(a))  # dz/da = cos(a)
Cos = _unary("CosBackward0", cos, lambda g, a: g * -sin(a))  # dz/da = -sin(a)
Tanh = _unary("TanhBackward0", tanh, lambda g, z: g * (1 - z * z), saves="output")  # 1 - z²
Sigmoid = _unary("SigmoidBackward0", _sigmoid, lambda g, z: g * (1 - z) * z, saves="output")
Log10 = _unary("Log10Backward0", log10, lambda g, a: g / (a * a.dtype.type(_LN10)))
Log2 = _unary("Log2Backward0", log2, lambda g, a: g / (a * a.dtype.type(_LN2)))
Log1p = _unary("Log1PBackward0", log1p, lambda g, a: g / (a + 1))  # dz/da = 1 / (1 + a)
Expm1 = _unary("Expm1Backward0", expm1, lambda g, z: g * (z + 1), saves="output")  # z + 1
Exp2 = _unary("Exp2Backward0", np.exp2, lambda g, z: g * z * z.dtype.type(_LN2), saves="output")
Tan = _unary("TanBackward0", np.tan, lambda g, z: g * (1 + z * z), saves="output")  # 1 + z²
Rsqrt = _unary(
    "RsqrtBackward0", lambda a: 1 / np.sqrt(a), lambda g, z: -0.5 * g * z**3, saves="output"
)


def _zero_slope(grad, a):
    return np.zeros(np.shape(a), np.result_type(grad))


# Piecewise constant: the derivative is 0 wherever it exists, as PyTorch defines it.
Sign = _unary("SignBackward0", np.sign, _zero_slope)
Floor = _unary("FloorBackward0", np.floor, _zero_slope)
Ceil = _unary("CeilBackward0", np.ceil, _zero_slope)
Round = _unary("RoundBackward0", np.round, _zero_slope)
Trunc = _unary("TruncBackward0", np.trunc, _zero_slope)


class Relu(Op):
    """z = max(a, 0);  dz/da = 1 where a > 0, else 0."""

    _backward_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, a):
        if type(a) is _F32_SCALAR or isinstance(a, np.floating):
            # A numpy scalar, what ops on 0-d data return: comparing is ten times quicker than
            # the ufunc. NaN stays NaN and -0.0 becomes 0.0, as with np.maximum.
            out = type(a)(0) if a <= 0 else a
        else:
            out = np.maximum(a, 0).astype(np.result_type(a))
        ctx._saved = (out,)
        return out

    @staticmethod
    def backward(ctx, grad):
        saved = ctx._saved  # saved_tensors, without its call
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        return grad * (saved[0] > 0)


class Clamp(Op):
    """z = min(max(a, lo), hi);  dz/da = 1 inside [lo, hi], else 0."""

    _backward_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a)
        ctx.info = (lo, hi)
        return np.clip(a, lo, hi).astype(np.result_type(a))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.info
        inside = np.ones(np.shape(a), dtype=bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return grad * inside


class ClampMin(Clamp):
    """z = a.clamp_min(lo);  dz/da = 1 where a >= lo, else 0."""

    _backward_name = "ClampMinBackward0"


class Where(Op):
    """z = a where cond else b;  dz/da = cond, dz/db = not cond."""

    _backward_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, a, b, cond=None):
        ctx.save_for_backward(cond)
        ctx.info = (np.shape(a), np.shape(b))
        return result(np.where(cond, a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        a_shape, b_shape = ctx.info
        zero = np.zeros((), dtype=np.result_type(grad))
        return (
            unbroadcast(np.where(cond, grad, zero), a_shape),
            unbroadcast(np.where(cond, zero, grad), b_shape),
        )


class Maximum(Op):
    """z = max(a, b) elementwise;  the gradient goes to the larger (split on ties)."""

    _backward_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.maximum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        return (
            unbroadcast(grad * share * (a >= b), np.shape(a)),
            unbroadcast(grad * share * (b >= a), np.shape(b)),
        )


class Minimum(Op):
    """z = min(a, b) elementwise;  the gradient goes to the smaller (split on ties)."""

    _backward_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.minimum(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        share = np.where(a == b, 0.5, 1.0).astype(np.result_type(grad))
        return (
            unbroadcast(grad * share * (a <= b), np.shape(a)),
            unbroadcast(grad * share * (b <= a), np.shape(b)),
        )


class ToDtype(Op):
    """z = a converted to another dtype;  dz/da = 1, converted back."""

    _backward_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.info = np.result_type(a)
        return np.asarray(a).astype(dtype)

    @staticmethod
    def backward(ctx, grad):
        return grad.astype(ctx.info)


class Clone(Op):
    """z = a copied;  dz/da = 1."""

    _backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Remainder(Op):
    """z = a mod b, with b's sign (Python's %);  dz/da = 1, dz/db = -floor(a / b)."""

    _backward_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.remainder(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad, shape_of(a)), unbroadcast(-grad * np.floor(a / b), np.shape(b))


class Fmod(Op):
    """z = a mod b, with a's sign (C's fmod);  dz/da = 1, dz/db = -trunc(a / b)."""

    _backward_name = "FmodBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return result(np.fmod(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return unbroadcast(grad, shape_of(a)), unbroadcast(-grad * np.trunc(a / b), np.shape(b))


class FloorDivide(Op):
    """z = floor(a / b): PyTorch has no derivative for it (its node says NotImplemented)."""

    _backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        return result(np.floor_divide(a, b), a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'floor_divide' is not implemented.")
