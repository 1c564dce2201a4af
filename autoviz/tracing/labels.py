"""Labels for tensors no variable names, and distinct labels for distinct tensors."""

from .text import is_number
from .timeline import PERSISTENT

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
# Ops whose output is the transpose of their one input: named `wᵀ` after it.
_TRANSPOSES = frozenset(["TBackward0"])


def label_tensors(nodes: list, edges: list, taken=frozenset()) -> None:
    """Name every tensor node, in the order they were made, then make labels distinct.

    A tensor no variable named is called after what it is: `net.0.weightᵀ` for a transpose,
    `h.detach()`, `net.0.out` for the tensor a module's forward returned (`net.0.tanh` for one
    it made before), else `t1`, `t2`, … counted afresh in each graph of a training loop. Such a
    fallback name is never one the program uses: not a tensor's own name, nor any name in
    `taken` (the program's identifiers), so `t1` is always the user's `t1`. Tensors sharing a
    label within a graph are told apart by subscripts: `y`, `y₁`, `y₂`.
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
    taken = set(taken) | {n.name for n in tensors if n.name}
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
    _number_the_rest(tensors, taken)
    _make_distinct(tensors)


def _name_module_outputs(tensors: list, made_by: dict) -> None:
    """In each call of a module (tensors made one after another with the module running,
    inside its submodules too), the last is the module's `out` when the module itself made it;
    the unnamed ones it made before are named after their op (`net.0.tanh`)."""
    calls, open_calls = [], {}  # open_calls: (graph, path) -> the tensors of its current call
    for node in tensors:
        if node.id not in made_by:  # a leaf or constant used inside: part of no call
            continue
        paths = [path for path, _ in node.module]
        for key in [k for k in open_calls if k[0] != node.graph or k[1] not in paths]:
            calls.append((key[1], open_calls.pop(key)))
        for path in paths:
            open_calls.setdefault((node.graph, path), []).append(node)
    calls += [(key[1], run) for key, run in open_calls.items()]
    for path, run in calls:
        own = [n for n in run if n.module[-1][0] == path]
        if own and own[-1] is run[-1] and not run[-1].name:
            run[-1].name = f"{path}.out"
        for node in own:
            if not node.name:
                node.name = f"{path}.{_op_word(made_by[node.id].op)}"


def _op_word(op: str) -> str:
    """`AddmmBackward0` -> `addmm`: PyTorch's op name, as a learner would type it."""
    stem = op.split("Backward")[0]
    return stem.lower() if stem.isidentifier() else "t"


def _number_the_rest(tensors: list, taken: set) -> None:
    """t1, t2, …: leaves first, then each graph counting on from them afresh; a number whose
    name the program uses is skipped."""
    unnamed = [n for n in tensors if not n.name]
    persistent = [n for n in unnamed if n.graph == PERSISTENT]
    count = 0
    for node in persistent:
        count = _free_number(count, taken)
        node.name = f"t{count}"
    counters = {}
    for node in unnamed:
        if node.graph != PERSISTENT:
            counters[node.graph] = _free_number(counters.get(node.graph, count), taken)
            node.name = f"t{counters[node.graph]}"


def _free_number(after: int, taken: set) -> int:
    """The first n > after whose `tn` the program does not use."""
    n = after + 1
    while f"t{n}" in taken:
        n += 1
    return n


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
