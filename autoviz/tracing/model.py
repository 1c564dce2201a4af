"""The plain-data graph every view reads: nodes, edges, steps and their previews."""

from dataclasses import dataclass, field

KINDS = ("leaf", "op", "intermediate", "output", "constant")
# forward: the graph grows; backward: gradients flow; update: an optimizer (or a manual no_grad
# step) changes parameters and zero_grad() resets their grads; error: the op that raised.
PHASES = ("forward", "backward", "update", "error")
# data: an op's input or output; detach: a detached tensor from the tensor it shares data with;
# untracked: a tensor computed without recording (no_grad, or from constants) from its inputs.
EDGE_KINDS = ("data", "detach", "untracked")
PERSISTENT = -1  # the `graph` of leaves: they outlive every graph built from them


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
    error: bool = False  # the op that raised (drawn red); its message is in the error step
    graph: int = 0  # which graph of a timeline (a training loop builds one per iteration)
    step: int = 0  # the step at which it appears
    # Enclosing nn.Modules, outermost first, as [path, type] pairs: [["net", "Sequential"],
    # ["net.0", "Linear"]]. The renderer groups nodes into clusters by it.
    module: list = field(default_factory=list)
    # For op nodes: tensors saved for backward, as {"name", "shape", "value"} (torchviz's saved).
    saved: list = field(default_factory=list)
    # For op nodes: the arguments that say what the op did besides its inputs, as PyTorch
    # names them: {"dim": [1], "keepdim": True} of `x.sum(1, keepdim=True)`.
    params: dict = field(default_factory=dict)


def node_at(nodes: list, node_id: str) -> Node:
    """The node with id `node_id` in a graph's node list: ids are "n" + the position from 1."""
    return nodes[int(node_id[1:]) - 1]


@dataclass
class Edge:
    """Data flowing from `source` into `target`, as the `index`-th input of an op."""

    source: str
    target: str
    index: int = 0
    id: str = ""
    kind: str = "data"  # see EDGE_KINDS


@dataclass
class Source:
    """The line of user code that caused a step."""

    file: str
    line: int
    text: str
    # The user's line that called the function this line is in (the call that entered it),
    # when it is not the traced block's own code.
    caller: "Source | None" = None


@dataclass
class Flow:
    """Gradient along one edge in backward: upstream × local = contribution."""

    edge: int  # index into the edges list
    upstream: object
    local: object  # a number for scalar elementwise ops, else None
    contribution: object
    shape: tuple = ()
    total: object = None  # the running sum at the source when it fans out


class Caption:
    """Step.caption: its text, or a writer (anything with `.write(step)`) that writes it on
    the first read, so a long run's captions cost nothing until a view shows their steps."""

    # Held as the step's `_caption` attribute: an instance's own attributes, not its __dict__,
    # which CPython makes only when asked for (a dict per step of a long run).
    def __get__(self, step, owner=None) -> str:
        if step is None:
            return ""  # the field's default, as dataclasses asks for it
        text = step._caption
        if type(text) is not str:
            text = step._caption = text.write(step)
        return text

    def __set__(self, step, text) -> None:
        step._caption = text


@dataclass
class Step:
    """One thing that happened, with what it changed in the graph."""

    index: int
    phase: str
    kind: str
    caption: str = Caption()
    nodes: list = field(default_factory=list)  # ids this step adds or acts on
    edges: list = field(default_factory=list)  # edge indices this step adds or acts on
    source: Source | None = None
    flows: list = field(default_factory=list)  # Flow per edge, in backward
    changes: list = field(default_factory=list)  # [node id, field, new value]
    details: dict = field(default_factory=dict)


@dataclass
class Graph:
    """Nodes and edges in creation order; `backward_ran` tells whether grads are final."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    backward_ran: bool = False
    current: list = field(default_factory=list)  # ids the step acts on, for highlighting
    step: Step | None = None

    def node(self, node_id: str) -> Node:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(f"no node with id {node_id!r}")
