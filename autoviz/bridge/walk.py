"""draw() of a torch tensor: its grad_fn graph as the plain-data Graph autoviz renders."""

import torch

from ..tracing.model import Graph
from ..tracing.walk import graph_of
from .modules import ModuleMap, common_chain
from .view import TorchView


def graph_of_torch(root, namespace: dict, max_nodes: int | None = None) -> Graph:
    """Walk `root.grad_fn` as walk.graph_of walks autoviz's tensors, with torch's view."""
    if not isinstance(root, torch.Tensor):
        raise TypeError(
            f"draw() expects a tensor, a Graph or a Timeline, got {type(root).__name__}; "
            "to draw a module, draw what it returns: autoviz.draw(net(x))"
        )
    graph = graph_of(root, namespace, TorchView(ModuleMap(namespace)), max_nodes)
    _enclose_ops_between_modules(graph)
    return graph


def _enclose_ops_between_modules(graph: Graph) -> None:
    """An op without parameters (a ReLU) between two parts of one module belongs to it.

    Without forward hooks only parameters tell modules apart, so such an op gets the modules
    its inputs and its consumers share (`net` between `net.0` and `net.2`).
    """
    nodes = {n.id: n for n in graph.nodes}
    into, out_of = {}, {}
    for edge in graph.edges:
        into.setdefault(edge.target, []).append(nodes[edge.source])
        out_of.setdefault(edge.source, []).append(nodes[edge.target])
    for op in (n for n in graph.nodes if n.kind == "op" and not n.module):
        outputs = out_of.get(op.id, [])
        before = [n.module for n in into.get(op.id, []) if n.module]
        after = [c.module for o in outputs for c in out_of.get(o.id, []) if c.module]
        if before and after:
            chain = common_chain(before + after)
            for node in [op, *outputs]:
                node.module = [list(pair) for pair in chain]
