"""From engine events and tensors to plain-data graphs and timelines; render reads only these."""

from .model import KINDS, PHASES, Edge, Flow, Graph, Node, Source, Step
from .naming import caller_namespace
from .recorder import trace
from .timeline import Timeline
from .walk import graph_of

__all__ = [
    "KINDS",
    "PHASES",
    "Edge",
    "Flow",
    "Graph",
    "Node",
    "Source",
    "Step",
    "Timeline",
    "caller_namespace",
    "graph_of",
    "trace",
]
