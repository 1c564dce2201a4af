"""Labels for tensors no variable names, and distinct labels for distinct tensors."""

from .text import is_number
from .timeline import PERSISTENT

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
# Ops whose output is the transpose of their one input: named `wᵀ` after it.
_TRANSPOSES = frozenset(["TBackward0"])


def label_tensors(nodes: list, edges: list) -> None:
    """Name every tensor node, in the order they were made, then make labels distinct.

    A tensor no variable named is called after what it is: `net.0.weightᵀ` for a transpose,
    `h.detach()`, `net.0.out` for the last tensor a module's forward made (`net.0.tanh` for one
    before it), else `t1`, `t2`, … counted afresh in each graph of a training loop. Tensors
    sharing a label within a graph are told apart by subscripts: `y`, `y₁`, `y₂`.
    """
    by_id = {n.id: n for n in nodes}
    made_by, inputs, detached_from = {}, {}, {}
    for edge in edges:
        if edge.kind == "detach":
            detached_from[edge.target] = by_id[edge.source]
        elif edge.kind == "data" and by_id[edge.source].kind == "op":
            made_by[edge.target] = by_id[edge.source]
        elif edge.kind == "data":
            inputs.setdefault(edge.target, []).append((edge.index, by_id[edge.source]))
    tensors = [n for n in nodes if n.kind != "op"]
    _make_distinct(tensors)  # the variables' names first: derived names read them
    for node in tensors:
        if node.name:
            continue
        op = made_by.get(node.id)
        if op is not None and op.op in _TRANSPOSES:
            source = min(inputs.get(op.id, []), key=lambda pair: pair[0], default=(0, None))[1]
            if source is not None and source.name:
                node.name = f"{source.name}ᵀ"
        elif node.id in detached_from and detached_from[node.id].name:
            node.name = f"{detached_from[node.id].name}.detach()"
        elif node.kind == "constant" and not node.shape and isinstance(node.value, int | float):
            node.name = repr(node.value)  # a number torch wrapped as a tensor (the 2 of `2 * w`)
    _name_module_outputs(tensors, made_by)
    _number_the_rest(tensors)
    _make_distinct(tensors)


def _name_module_outputs(tensors: list, made_by: dict) -> None:
    """In each run of tensors made one after another inside one module, the last is the
    module's `out`; unnamed ones before it are named after their op (`net.0.tanh`)."""
    runs, last_key = [], None
    for node in tensors:
        if node.id not in made_by:  # a leaf or constant used inside: not part of a run
            continue
        if not node.module:
            last_key = None
            continue
        key = (node.graph, node.module[-1][0])
        if key != last_key:
            runs.append([])
            last_key = key
        runs[-1].append(node)
    for run in runs:
        path = run[0].module[-1][0]
        if not run[-1].name:
            run[-1].name = f"{path}.out"
        for node in run[:-1]:
            if not node.name:
                node.name = f"{path}.{_op_word(made_by[node.id].op)}"


def _op_word(op: str) -> str:
    """`AddmmBackward0` -> `addmm`: PyTorch's op name, as a learner would type it."""
    stem = op.split("Backward")[0]
    return stem.lower() if stem.isidentifier() else "t"


def _number_the_rest(tensors: list) -> None:
    """t1, t2, …: leaves first, then each graph counting on from them afresh."""
    unnamed = [n for n in tensors if not n.name]
    persistent = [n for n in unnamed if n.graph == PERSISTENT]
    for number, node in enumerate(persistent, 1):
        node.name = f"t{number}"
    counters = {}
    for node in unnamed:
        if node.graph != PERSISTENT:
            counters[node.graph] = counters.get(node.graph, len(persistent)) + 1
            node.name = f"t{counters[node.graph]}"


def _make_distinct(tensors: list) -> None:
    """Subscripts for a label used again within a graph (leaves count in every graph)."""
    leaves = _Labels()
    for node in tensors:
        if node.graph == PERSISTENT:
            node.name = leaves.free(node.name)
    per_graph = {}
    for node in tensors:
        if node.graph != PERSISTENT:
            labels = per_graph.get(node.graph)
            if labels is None:
                labels = per_graph[node.graph] = leaves.copy()
            node.name = labels.free(node.name)


class _Labels:
    """The labels used so far in a graph, and for each name the next subscript to try: a name
    rebound in a loop (`h`, `h₁`, … `h₂₉₉₉`) costs one probe, not one per earlier `h`."""

    def __init__(self) -> None:
        self.used, self.next = set(), {}

    def copy(self) -> "_Labels":
        other = _Labels()
        other.used, other.next = set(self.used), dict(self.next)
        return other

    def free(self, name: str) -> str:
        """`name`, or `name₁`, `name₂`, … whichever is free; numbers (constants) repeat."""
        if not name or is_number(name):
            return name
        k = self.next.get(name, 0)
        label = name if k == 0 else name + str(k).translate(_SUBSCRIPT)
        while label in self.used:
            k += 1
            label = name + str(k).translate(_SUBSCRIPT)
        self.used.add(label)
        self.next[name] = k + 1
        return label
