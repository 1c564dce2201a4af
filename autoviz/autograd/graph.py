"""`torch.autograd.graph`: the graph's node type, the edge that carries a tensor's gradient,
and a way to mark a tensor changed in place."""

from typing import NamedTuple

from ..engine import versions
from ..engine.function import Node, Output, accumulator_for
from ..engine.tensor import Tensor

__all__ = ["GradientEdge", "Node", "get_gradient_edge", "increment_version"]


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
