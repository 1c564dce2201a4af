"""draw() of a torch tensor: its grad_fn graph as the plain-data Graph autoviz renders."""

import torch

from ..tracing.walk import graph_of
from .modules import ModuleMap
from .view import TorchView


def graph_of_torch(root, namespace: dict):
    """Walk `root.grad_fn` as walk.graph_of walks autoviz's tensors, with torch's view."""
    if not isinstance(root, torch.Tensor):
        raise TypeError(
            f"draw() expects a tensor, a Graph or a Timeline, got {type(root).__name__}; "
            "to draw a module, draw what it returns: autoviz.draw(net(x))"
        )
    return graph_of(root, namespace, TorchView(ModuleMap(namespace)))
