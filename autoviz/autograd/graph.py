"""`torch.autograd.graph`: the graph's node type, the edge that carries a tensor's gradient,
and a way to mark a tensor changed in place."""

from typing import NamedTuple

import numpy as np

from ..engine import events, versions
from ..engine.function import Node, Output, accumulator_for, unneeded_saved
from ..engine.tensor import Tensor, make

__all__ = [
    "GradientEdge",
    "Node",
    "get_gradient_edge",
    "increment_version",
    "saved_tensors_hooks",
]


class GradientEdge(NamedTuple):
    """The node a tensor's gradient flows into, and which of its outputs the tensor is."""

    node: Node
    output_nr: int
    ownership_token: object = None


def get_gradient_edge(tensor) -> GradientEdge:
    """Its grad_fn and output number, or a leaf's AccumulateGrad node."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    if tensor.grad_fn is None:
        return GradientEdge(accumulator_for(tensor), 0)
    fn = tensor.grad_fn
    return GradientEdge(fn.node if isinstance(fn, Output) else fn, tensor.output_nr)


def increment_version(tensor) -> None:
    """Count an in-place change that autograd did not see (made through numpy, say)."""
    for t in [tensor] if isinstance(tensor, Tensor) else tensor:
        versions.changed_by(t, t._data)


_ACTIVE = []  # the open saved_tensors_hooks contexts: the innermost one's hooks are used


class saved_tensors_hooks:
    """`with saved_tensors_hooks(pack_hook, unpack_hook):` every tensor an op recorded inside
    saves for backward goes through pack_hook(tensor) when saved, and what it returned
    through unpack_hook(...) when backward needs it; backward computes with that tensor."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook
        self._packed = set()  # id of each node packed: one with several outputs is told often

    def __enter__(self):
        _ACTIVE.append(self)
        events.add_observer(self)
        return self

    def __exit__(self, *exc) -> None:
        events.remove_observer(self)
        _ACTIVE.remove(self)

    def on_op(self, node, out, inputs) -> None:
        if _ACTIVE[-1] is not self or id(node) in self._packed:
            return
        saved = getattr(node, "_saved", None)
        if not isinstance(saved, tuple) or not saved:
            return
        self._packed.add(id(node))
        unneeded = unneeded_saved(node)  # what torch would not have saved, nor packed
        packed = [
            (i, self.pack_hook(_as_tensor(item, out, inputs)))
            for i, item in enumerate(saved)
            if isinstance(item, np.ndarray | np.generic) and i not in unneeded
        ]
        unpack = self.unpack_hook

        def restore() -> None:
            items = list(node._saved)
            for i, value in packed:
                items[i] = np.asarray(unpack(value)._data, dtype=np.result_type(items[i]))
            node._saved = tuple(items)

        # run before the node's backward, which the gradient it is handed does not change
        node._add_prehook(lambda grad: restore())


def _as_tensor(item, out, inputs):
    """The tensor a saved array belongs to: an input, the output, or one made for it."""
    for t in (out, *inputs):
        if isinstance(t, Tensor) and t._data is item:
            return t
    return make(np.asarray(item))


# torch.autograd.graph's names autoviz has not (yet): the hooks on what nodes save
_NOT_YET = ("save_on_cpu", "disable_saved_tensors_hooks")
_NOT_YET += ("register_multi_grad_hook", "allow_mutation_on_saved_tensors")


def __getattr__(name: str):
    if name in _NOT_YET:
        from ..errors import NotInAutoviz

        raise NotInAutoviz(
            f"torch.autograd.graph.{name} is not in autoviz yet: hooks on the tensors a node "
            "saves for backward need the engine to keep them as tensors, not arrays"
        )
    raise AttributeError(f"module 'torch.autograd.graph' has no attribute '{name}'")
