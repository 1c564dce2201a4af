"""The plain-data graph every view reads: nodes, edges and their previews."""

from dataclasses import dataclass, field

KINDS = ("leaf", "op", "intermediate", "output", "constant")


@dataclass
class Node:
    """One box or ellipse of the diagram: a tensor or an operation."""

    id: str
    kind: str
    name: str
    op: str | None = None
    shape: tuple = ()
    dtype: str = "float32"
    value: object = None  # float for scalars, nested lists for small tensors, else None
    grad: object = None
    requires_grad: bool = False
    retains_grad: bool = False
    detached: bool = False
    made_in_no_grad: bool = False
    freed: bool = False


@dataclass
class Edge:
    """Data flowing from `source` into `target`, as the `index`-th input of an op."""

    source: str
    target: str
    index: int = 0


@dataclass
class Graph:
    """Nodes and edges in creation order; `backward_ran` tells whether grads are final."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    backward_ran: bool = False

    def node(self, node_id: str) -> Node:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(f"no node with id {node_id!r}")
