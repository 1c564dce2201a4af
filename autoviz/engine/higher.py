"""Backward that records itself (`create_graph=True`): every op's gradient rule written
again with tensor ops (beside the op, registered with `@rule(Op)`), so gradients have a
graph and can be differentiated (Hessians, jvp)."""

import heapq

import numpy as np

from ..errors import NotInAutoviz
from . import versions
from .backward import dependencies, leading_to
from .function import FREED, FREED_MESSAGE, AccumulateGrad, Output, Parts, PostHook, user_backward
from .grad_mode import enable_grad
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
    """Like backward.execute, with tensor gradients recorded as a graph; the graph is kept."""
    captured = {}
    deps = dependencies(seeds)
    if capture is not None:
        needed = leading_to(seeds, capture)
        deps = {node: n for node, n in deps.items() if node in needed}
        for node in seeds:
            deps.setdefault(node, 0)
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
            if grad is not None and versions.modified:
                versions.check(node)
            if grad is not None and node._pre_hooks:
                grad = _run_hooks(node, grad)
            if capture is not None and grad is not None and node in capture:
                captured[node] = grad
            grads = (None,) * len(node._next) if grad is None else _gradients(node, grad, capture)
            for fn, g in zip(node._next, grads):  # noqa: B905  (as backward.execute)
                if fn is None or fn not in deps:
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
    if type(grad) is Parts:
        raise NotInAutoviz(
            "hooks on a node with several outputs under create_graph=True are not in autoviz yet"
        )
    for hook in node._pre_hooks:
        if type(hook) is PostHook:
            continue  # (node hooks after a recorded backward are not in autoviz)
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
    if isinstance(node, Output):
        return node._gradients(grad)
    if not type(node)._builtin:  # a user Function's backward runs on tensors, recorded
        return user_backward(node, grad)
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
    return grad.sum(dim=axes).reshape(shape)


def mask(array, grad):
    return make(np.asarray(array, dtype=np.result_type(grad._data)))


def record_seed(grad):
    """A seed as a tensor: the one given (it may require grad), or a constant."""
    return grad if isinstance(grad, Tensor) else make(np.asarray(grad))


from .ops.base import Op  # noqa: E402  (ops import this module's helpers)


class CopyGrad(Op):
    """z = g, the first gradient stored in a leaf's .grad with its graph (PyTorch copies it:
    CopyBackwards);  dz/dg = 1."""

    _backward_name = "CopyBackwards"
    _cpp_name = "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, g):
        return np.array(g, copy=True)

    @staticmethod
    def backward(ctx, grad):
        return grad


rule(CopyGrad)(lambda node, g: g)
