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
    modules = ModuleMap(namespace)
    # Variables name tensors first; parameters no variable holds are named as torchviz's
    # params=dict(net.named_parameters()) names them: net.0.weight.
    return graph_of(root, {**modules.parameters, **namespace}, TorchView(modules))
