"""`autograd.grad` and `autograd.Function`: gradients returned instead of accumulated."""

import numpy as np

from ..errors import NotInAutoviz
from .backward import _root_node, _seed, execute
from .function import Function
from .tensor import Tensor, make

__all__ = ["Function", "backward", "grad"]


def _as_tuple(x) -> tuple:
    """A tensor as a tuple of one, any other iterable (a generator of parameters, a dict's
    values) as the tuple of its items, as torch reads outputs, inputs and their gradients."""
    if isinstance(x, Tensor) or not hasattr(x, "__iter__"):
        return (x,)
    return tuple(x)


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
):
    """The gradients of `outputs` with respect to `inputs`, without touching any `.grad`;
    with create_graph=True they are recorded, so they can be differentiated again."""
    if is_grads_batched:
        raise NotInAutoviz(
            "autograd.grad(is_grads_batched=True) is not in autoviz: it runs on vmap, and "
            "functional transforms are outside its scope"
        )
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    allow_unused = allow_unused or materialize_grads
    seeds = {}
    for out, g in zip(outputs, grad_outputs, strict=True):
        node = _root_node(out)
        seed = _seed(out, g)
        if create_graph:
            seed = record_seed(g if g is not None else seed)
        seeds[node] = seed if node not in seeds else seeds[node] + seed
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    targets = [t.grad_fn if t.grad_fn is not None else t._accumulator() for t in inputs]
    if create_graph:
        from .higher import execute_graph

        captured = execute_graph(seeds, capture=set(targets))
    else:
        captured = execute(seeds, bool(retain_graph), capture=set(targets))
    results = []
    for i, (t, node) in enumerate(zip(inputs, targets, strict=True)):
        if node not in captured:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
            results.append(make(np.zeros(t.shape, t._data.dtype)) if materialize_grads else None)
        elif create_graph:
            results.append(captured[node])
        else:
            results.append(make(np.asarray(captured[node], dtype=t._data.dtype)))
    return tuple(results)


def record_seed(grad):
    from .higher import record_seed as seed

    return seed(grad)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """`torch.autograd.backward`: the same as calling `.backward()` on each tensor."""
    from .backward import run_backward

    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    run_backward(tensors, grads, retain_graph, create_graph, inputs)
