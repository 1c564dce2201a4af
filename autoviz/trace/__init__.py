"""From engine events and tensors to plain-data graphs; the renderer reads only these."""

from .model import KINDS, Edge, Graph, Node
from .naming import caller_namespace
from .snapshot import graph_of

__all__ = ["KINDS", "Edge", "Graph", "Node", "caller_namespace", "graph_of"]
