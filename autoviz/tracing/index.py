"""Each graph of a timeline found once: its steps, nodes and edges, and every node's changes.

Views of one graph (a snapshot, a frame, a layout) read only that graph's part, so their cost
is the size of the graph, not of the whole timeline: exports stay linear in its length.
"""

from bisect import bisect_right
from dataclasses import dataclass, field

from ..collector import collector_paused
from .model import PERSISTENT, Node


@dataclass
class GraphPart:
    """One graph of a timeline: its steps, its nodes (its own and the leaves it shows) in
    creation order, its edges, and the first step of its backward pass."""

    number: int
    steps: list = field(default_factory=list)  # step indices, ascending
    nodes: list = field(default_factory=list)  # Node, in creation order
    edges: list = field(default_factory=list)  # edge indices, ascending
    first_backward: int | None = None

    @property
    def last(self) -> int:
        return self.steps[-1]

    def steps_until(self, k: int) -> list:
        """This graph's steps up to and including step k."""
        return self.steps[: bisect_right(self.steps, k)]


class TimelineIndex:
    """Where things are in a built timeline; made in one pass over its nodes, edges and steps."""

    def __init__(self, tl) -> None:
        nodes, edges, steps = tl.nodes, tl.edges, tl.steps
        self.size = (len(nodes), len(edges), len(steps))
        self.graph_of_step = [s.details.get("graph", 0) for s in steps]
        self.parts: dict[int, GraphPart] = {}
        self.history: dict = {}  # node id -> field -> ([step], [value]), steps ascending
        part = None
        for k, (step, g) in enumerate(zip(steps, self.graph_of_step, strict=True)):
            if part is None or part.number != g:  # a graph's steps come one after another
                part = self._part(g)
            part.steps.append(k)
            if part.first_backward is None and step.phase == "backward":
                part.first_backward = k
            for node_id, name, value in step.changes:
                ks, values = self.history.setdefault(node_id, {}).setdefault(name, ([], []))
                ks.append(k)
                values.append(value)
        self.by_id = {n.id: n for n in nodes}
        self.inputs, self.outputs = {}, {}  # node id -> indices of the edges into / out of it
        for i, edge in enumerate(edges):
            self.inputs.setdefault(edge.target, []).append(i)
            self.outputs.setdefault(edge.source, []).append(i)
        self._members(nodes, edges)

    def _part(self, g: int) -> GraphPart:
        part = self.parts.get(g)
        if part is None:
            part = self.parts[g] = GraphPart(g)
        return part

    def _members(self, nodes: list, edges: list) -> None:
        """Each graph's nodes: its own, and the leaves its edges touch or its steps make."""
        graph_of = {i: n.graph for i, n in self.by_id.items()}
        shown = {}  # graph -> ids of the persistent nodes it shows
        shared = []  # edges between two persistent nodes: in every graph showing both
        for i, edge in enumerate(edges):
            gs, gt = graph_of.get(edge.source), graph_of.get(edge.target)
            if gs is None or gt is None:
                continue
            if gs == gt == PERSISTENT:
                shared.append(i)
            elif gs == gt or PERSISTENT in (gs, gt):
                g = gt if gs == PERSISTENT else gs
                self._part(g).edges.append(i)
                if gs != gt:
                    shown.setdefault(g, set()).add(edge.source if gs == PERSISTENT else edge.target)
            # an edge between two graphs (a tensor of one used in the next) joins neither
        n_steps = len(self.graph_of_step)
        order = {}
        for position, node in enumerate(nodes):
            order[node.id] = position
            if node.graph != PERSISTENT:
                self._part(node.graph).nodes.append(node)
            elif 0 <= node.step < n_steps:
                shown.setdefault(self.graph_of_step[node.step], set()).add(node.id)
        for g, ids in shown.items():
            part = self._part(g)
            leaves = [nodes[order[i]] for i in ids]
            part.nodes = sorted(part.nodes + leaves, key=lambda n: order[n.id])
            if shared:
                both = [i for i in shared if {edges[i].source, edges[i].target} <= ids]
                part.edges = sorted(part.edges + both)

    def graph(self, g: int) -> GraphPart:
        """The part of graph g (empty when the timeline has no such graph)."""
        return self.parts.get(g) or GraphPart(g)

    def state(self, node: Node, k: int) -> Node:
        """A copy of `node` as it stood after step k: its latest change of each field applied."""
        copy = _clone(node)
        for name, (ks, values) in self.history.get(node.id, {}).items():
            i = bisect_right(ks, k)
            if i:
                setattr(copy, name, values[i - 1])
        return copy

    def ever(self, node: Node, name: str):
        """The last value a change gave the field `name` of `node` (its own if none did)."""
        found = self.history.get(node.id, {}).get(name)
        return found[1][-1] if found else getattr(node, name)


def _clone(node: Node) -> Node:
    """A shallow copy of a node, without dataclasses.replace's call of __init__ (5x slower)."""
    copy = object.__new__(Node)
    copy.__dict__.update(node.__dict__)
    return copy


def index_of(tl) -> TimelineIndex:
    """The index of timeline `tl`, made once (again if its lists grew since)."""
    found = tl.__dict__.get("_index")
    nodes, edges, steps = tl.nodes, tl.edges, tl.steps  # builds a pending timeline first
    if found is None or found.size != (len(nodes), len(edges), len(steps)):
        with collector_paused():  # two thirds of its time in a long timeline, freeing nothing
            found = tl.__dict__["_index"] = TimelineIndex(tl)
    return found
