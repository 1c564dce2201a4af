"""Backward that records itself (`create_graph=True`): each op's gradient rule written again
with tensor ops, so gradients have a graph and can be differentiated (Hessians, jvp)."""

import heapq
import itertools
import math

import numpy as np

from . import functional as F
from . import linalg, ops, reducing, reductions, shape_ops
from .function import FREED, FREED_MESSAGE, AccumulateGrad
from .grad_mode import enable_grad
from .graph import dependencies
from .tensor import Tensor, make

RULES = {}  # forward class -> rule(node, grad) -> tuple of gradient tensors (or None)


def rule(*classes):
    """Register the recorded gradient rule of ops `classes` (and their subclasses)."""

    def register(function):
        for cls in classes:
            RULES[cls] = function
        return function

    return register


def _rule_for(node):
    for cls in type(node)._forward_cls.__mro__:
        if cls in RULES:
            return RULES[cls]
    raise RuntimeError(
        f"create_graph=True through {node.name()} is not in autoviz yet: its gradient cannot "
        "be differentiated again"
    )


def execute_graph(seeds: dict, capture: set | None = None) -> dict:
    """Like graph.execute, with tensor gradients recorded as a graph; the graph is kept."""
    captured = {}
    deps = dependencies(seeds)
    buffers = dict(seeds)
    ready, order = [], 0
    for node in seeds:
        if deps[node] == 0:
            ready.append((-node._seq, order, node))
            order += 1
    heapq.heapify(ready)
    with enable_grad():
        while ready:
            node = heapq.heappop(ready)[2]
            grad = buffers.pop(node, None)
            if grad is not None and node._pre_hooks:
                grad = _run_hooks(node, grad)
            if capture is not None and grad is not None and node in capture:
                captured[node] = grad
            grads = (None,) * len(node._next) if grad is None else _gradients(node, grad, capture)
            for fn, g in zip(node._next, grads):  # noqa: B905  (as graph.execute)
                if fn is None:
                    continue
                if g is not None:
                    total = buffers.get(fn)
                    buffers[fn] = g if total is None else total + g
                deps[fn] -= 1
                if not deps[fn]:
                    order += 1
                    heapq.heappush(ready, (-fn._seq, order, fn))
    return captured


def _run_hooks(node, grad):
    for hook in node._pre_hooks:
        result = hook(grad._data)
        if result is not None:
            grad = make(result)
    return grad


def _gradients(node, grad, capture) -> tuple:
    if isinstance(node, AccumulateGrad):
        if capture is None:  # backward(create_graph=True): .grad keeps its graph
            leaf = node.variable
            leaf._grad = CopyGrad.apply(grad) if leaf._grad is None else leaf._grad + grad
        return ()
    if node._saved is FREED:
        raise RuntimeError(FREED_MESSAGE)
    if not type(node)._builtin:  # a user Function's backward runs on tensors, recorded
        grads = node._forward_cls.backward(node, grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        return grads + (None,) * (len(node._next) - len(grads))
    grads = _rule_for(node)(node, grad)
    return grads if isinstance(grads, tuple) else (grads,)


# -- rebuilding an op's inputs and output as tensors on the graph --------------------------------
def inp(node, i, data=None):
    """Input i of `node` as a tensor joined to the graph (the leaf itself, or a tensor whose
    grad_fn is the node that made it); a constant when nothing flows back to it."""
    fn = node._next[i]
    if fn is None:
        return data if not isinstance(data, np.ndarray) else make(data)
    if isinstance(fn, AccumulateGrad):
        return fn.variable
    return make(fn._out, True, fn)


def out(node):
    """The output of `node` as a tensor whose grad_fn is `node`."""
    return make(node._out, True, node)


def sum_to(grad, shape):
    """`grad` summed over the axes broadcasting added, so it has `shape` again."""
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, n in enumerate(shape) if n == 1 and grad.shape[i + extra] != 1
    )
    return F.reshape(F.sum(grad, dim=axes), shape)


def _mask(array, grad):
    return make(np.asarray(array, dtype=np.result_type(grad._data)))


# -- the rules: z = f(inputs), grad = dL/dz; each returns dL/d input ----------------------------
@rule(ops.Add)
def _add(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(g, b_shape)


@rule(ops.Sub)
def _sub(node, g):
    a_shape, b_shape = node.info
    return sum_to(g, a_shape), sum_to(-g, b_shape)


@rule(ops.Rsub, ops.Neg)
def _neg(node, g):
    return -g


@rule(ops.Mul)
def _mul(node, g):
    a, b = node._saved
    return sum_to(g * inp(node, 1, b), np.shape(a)), sum_to(g * inp(node, 0, a), np.shape(b))


@rule(ops.Div)
def _div(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g / B, np.shape(a)), sum_to(-g * A / (B * B), np.shape(b))


@rule(ops.Reciprocal)
def _reciprocal(node, g):
    z = out(node)
    return -g * z * z


@rule(ops.Pow)
def _pow(node, g):
    (a,) = node._saved
    p = node.info
    return g * (p * inp(node, 0, a) ** (p - 1)) if p != 0 else g * 0


@rule(ops.PowTensor)
def _pow_tensor(node, g):
    a, b, _ = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    return sum_to(g * B * A ** (B - 1), np.shape(a)), sum_to(g * out(node) * F.log(A), np.shape(b))


def _unary(derivative, saves="input"):
    def apply(node, g):
        (saved,) = node._saved
        x = inp(node, 0, saved) if saves == "input" else out(node)
        return g * derivative(x)

    return apply


rule(ops.Exp)(_unary(lambda z: z, "output"))
rule(ops.Log)(_unary(lambda a: 1 / a))
rule(ops.Sqrt)(_unary(lambda z: 0.5 / z, "output"))
rule(ops.Sin)(_unary(F.cos))
rule(ops.Cos)(_unary(lambda a: -F.sin(a)))
rule(ops.Tanh)(_unary(lambda z: 1 - z * z, "output"))
rule(ops.Sigmoid)(_unary(lambda z: z * (1 - z), "output"))
rule(ops.Log10)(_unary(lambda a: 1 / (a * math.log(10))))
rule(ops.Log2)(_unary(lambda a: 1 / (a * math.log(2))))
rule(ops.Log1p)(_unary(lambda a: 1 / (1 + a)))
rule(ops.Expm1)(_unary(lambda z: z + 1, "output"))
rule(ops.Exp2)(_unary(lambda z: z * math.log(2), "output"))
rule(ops.Tan)(_unary(lambda z: 1 + z * z, "output"))
rule(ops.Rsqrt)(_unary(lambda a: -0.5 * a**-1.5))


@rule(ops.Abs)
def _abs(node, g):
    (a,) = node._saved
    return g * _mask(np.sign(a), g)


@rule(ops.Sign, ops.Floor, ops.Ceil, ops.Round, ops.Trunc)
def _flat(node, g):
    return g * 0


@rule(ops.Relu)
def _relu(node, g):
    (z,) = node._saved
    return g * _mask(z > 0, g)


@rule(ops.Clamp)
def _clamp(node, g):
    (a,) = node._saved
    lo, hi = node.info
    inside = np.ones(np.shape(a), bool)
    if lo is not None:
        inside &= a >= lo
    if hi is not None:
        inside &= a <= hi
    return g * _mask(inside, g)


@rule(ops.Where)
def _where(node, g):
    (cond,) = node._saved
    a_shape, b_shape = node.info
    return sum_to(g * _mask(cond, g), a_shape), sum_to(g * _mask(~cond, g), b_shape)


@rule(ops.Maximum, ops.Minimum)
def _extreme(node, g):
    a, b = node._saved
    share = np.where(a == b, 0.5, 1.0)
    wins = (a >= b) if type(node)._forward_cls is ops.Maximum else (a <= b)
    loses = (b >= a) if type(node)._forward_cls is ops.Maximum else (b <= a)
    return (
        sum_to(g * _mask(share * wins, g), np.shape(a)),
        sum_to(g * _mask(share * loses, g), np.shape(b)),
    )


@rule(ops.ToDtype)
def _to(node, g):
    return g.to(node.info)


@rule(ops.Clone, shape_ops.Contiguous, shape_ops.Alias)
def _identity(node, g):
    return g


def _unreduce(g, shape, axes, keepdim):
    if axes is not None and not keepdim and shape:
        for axis in sorted(axes):
            g = F.unsqueeze(g, axis)
    return F.expand(g, tuple(shape))


@rule(reductions.Sum)
def _sum(node, g):
    shape, axes, keepdim = node.info
    return _unreduce(g, shape, axes, keepdim)


@rule(reductions.Mean)
def _mean(node, g):
    shape, axes, keepdim = node.info
    count = math.prod([shape[i] for i in axes] if axes is not None else shape)
    return _unreduce(g / count, shape, axes, keepdim)


@rule(reductions.Softmax)
def _softmax(node, g):
    z = out(node)
    return z * (g - F.sum(g * z, dim=node.info, keepdim=True))


@rule(reductions.LogSoftmax)
def _log_softmax(node, g):
    return g - F.exp(out(node)) * F.sum(g, dim=node.info, keepdim=True)


@rule(linalg.Matmul)
def _matmul(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    if A.ndim == 1 and B.ndim == 1:
        return g * B, g * A
    a2 = F.unsqueeze(A, 0) if A.ndim == 1 else A
    b2 = F.unsqueeze(B, 1) if B.ndim == 1 else B
    g2 = F.unsqueeze(g, -2) if A.ndim == 1 else g
    g2 = F.unsqueeze(g2, -1) if B.ndim == 1 else g2
    ga = F.reshape(sum_to(F.matmul(g2, F.transpose(b2, -1, -2)), a2.shape), A.shape)
    gb = F.reshape(sum_to(F.matmul(F.transpose(a2, -1, -2), g2), b2.shape), B.shape)
    return ga, gb


@rule(shape_ops.View)
def _view(node, g):
    return F.reshape(g, node.info)


@rule(shape_ops.Squeeze)
def _squeeze(node, g):
    return F.reshape(g, node.info)


@rule(shape_ops.Unsqueeze)
def _unsqueeze(node, g):
    return F.squeeze(g, node.info)


@rule(shape_ops.Expand)
def _expand(node, g):
    return sum_to(g, node.info)


@rule(shape_ops.Transpose)
def _transpose(node, g):
    return F.transpose(g, *node.info)


@rule(shape_ops.Permute)
def _permute(node, g):
    return F.permute(g, tuple(int(d) for d in node.info))


class CopyGrad(ops.Op):
    """z = g, the first gradient stored in a leaf's .grad with its graph (PyTorch copies it:
    CopyBackwards);  dz/dg = 1."""

    _backward_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, g):
        return np.array(g, copy=True)

    @staticmethod
    def backward(ctx, grad):
        return grad


rule(CopyGrad)(_identity)


class Scatter(ops.Op):
    """z = zeros with g at key (the gradient of indexing);  dz/dg = the gradient at key."""

    _backward_name = "IndexBackwardBackward0"

    @staticmethod
    def forward(ctx, g, shape=(), key=None):
        ctx.info = key
        full = np.zeros(shape, dtype=np.result_type(g))
        np.add.at(full, key, g)
        return full

    @staticmethod
    def backward(ctx, grad):
        return np.asarray(np.asarray(grad)[ctx.info])


@rule(Scatter)
def _scatter(node, g):
    return shape_ops.Index.apply(g, key=node.info)


@rule(shape_ops.Index)
def _index(node, g):
    shape, _, key = node.info
    return Scatter.apply(g, shape=shape, key=key)


@rule(shape_ops.Cat)
def _cat(node, g):
    dim, sizes = node.info
    bounds = np.cumsum([0, *sizes])
    return tuple(
        shape_ops.Slice.apply(g, key=(slice(None),) * dim + (slice(int(lo), int(hi)),))
        for lo, hi in itertools.pairwise(bounds)
    )


@rule(shape_ops.Stack)
def _stack(node, g):
    return F.unbind(g, node.info)


@rule(reductions.Prod)
def _prod(node, g):
    (a,) = node._saved
    return g * out(node) / inp(node, 0, a)  # the product of the others (inputs without zeros)


@rule(reductions.ProdDim)
def _prod_dim(node, g):
    (a,) = node._saved
    dim, keepdim = node.info
    z, g = out(node), g
    if not keepdim:
        z, g = F.unsqueeze(z, dim), F.unsqueeze(g, dim)
    return g * z / inp(node, 0, a)


@rule(reductions.Cumsum)
def _cumsum(node, g):
    dim = node.info
    return F.flip(reducing.cumsum(F.flip(g, (dim,)), dim), (dim,))


@rule(reductions.Var)
def _var(node, g):
    axes, keepdim, dof = node.info
    if node._next[0] is None:
        return None
    a = inp(node, 0)
    mean = F.mean(a, dim=axes, keepdim=True)
    return _unreduce(g, a.shape, axes, keepdim) * (a - mean) * (2 / dof)


@rule(reductions.Std)
def _std(node, g):
    axes, keepdim, dof = node.info
    if node._next[0] is None:
        return None
    a = inp(node, 0)
    mean = F.mean(a, dim=axes, keepdim=True)
    return _unreduce(g / out(node), a.shape, axes, keepdim) * (a - mean) / dof


@rule(reductions.Logsumexp)
def _logsumexp(node, g):
    a = inp(node, 0, node._saved[0])
    axes = node.info
    z, g = out(node), g
    if z.ndim != a.ndim:
        for axis in sorted(axes):
            z, g = F.unsqueeze(z, axis), F.unsqueeze(g, axis)
    return g * F.exp(a - z)


@rule(reductions.Norm)
def _norm(node, g):
    a_data, _ = node._saved
    p, axes, keepdim = node.info
    a = inp(node, 0, a_data)
    z, g = out(node), g
    if not keepdim and axes is not None:
        for axis in sorted(axes):
            z, g = F.unsqueeze(z, axis), F.unsqueeze(g, axis)
    if p == 2:
        return g * a / z
    if p == 1:
        return g * _mask(np.sign(a_data), g)
    raise RuntimeError(f"create_graph=True through the {p}-norm is not in autoviz yet")


@rule(reductions.MaxDim, reductions.MinDim)
def _along(node, g):
    shape, dim, keepdim, idx = node.info
    key = list(np.indices(idx.shape, sparse=True))
    key[dim] = idx
    return Scatter.apply(g if keepdim else F.unsqueeze(g, dim), shape=shape, key=tuple(key))


@rule(reductions.Amax, reductions.Amin)
def _extreme_all(node, g):
    a, z = node._saved
    hit = a == z
    return g * _mask(hit / np.sum(hit), g)


@rule(shape_ops.MaskedFill)
def _masked_fill(node, g):
    cond, shape = node.info
    return sum_to(g * _mask(~cond, g), shape)


@rule(shape_ops.Repeat)
def _repeat(node, g):
    original, shape, sizes = node.info
    split = [n for pair in zip(sizes, shape, strict=True) for n in pair]
    return F.reshape(F.sum(F.reshape(g, split), dim=tuple(range(0, len(split), 2))), original)


def record_seed(grad):
    """A seed as a tensor: the one given (it may require grad), or a constant."""
    return grad if isinstance(grad, Tensor) else make(np.asarray(grad))
