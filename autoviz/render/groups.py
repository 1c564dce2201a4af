"""Module groups of a graph: which nn.Modules draw as clusters and which collapse to one box."""

from dataclasses import dataclass, field

from ..errors import GraphTooLarge
from ..tracing.model import Graph, Node


@dataclass
class Group:
    """One nn.Module of the graph: its place in the module tree and the nodes directly in it."""

    path: str
    type: str
    parent: str | None
    level: int = 0
    children: list = field(default_factory=list)
    nodes: list = field(default_factory=list)  # node ids whose innermost module this is


@dataclass
class Box:
    """A collapsed module (or a run of identical ones) drawn as a single node."""

    id: str
    paths: list  # one path, or the rolled-up run
    type: str
    parent: str | None  # the open module it sits in, or None
    members: set  # every node id it swallows
    inputs: list = field(default_factory=list)  # shapes flowing in
    outputs: list = field(default_factory=list)  # shapes flowing out


@dataclass
class Plan:
    """How a graph is drawn: open modules as clusters, closed ones as boxes, and inner tensors
    left out (each edge from one starts at the op that made it instead)."""

    groups: dict  # path -> Group, in order of first appearance
    open: set  # paths drawn as clusters
    boxes: list  # Box
    owner: dict  # node id -> Box id for the nodes a box swallows
    drawn: int  # nodes the layout engine will place
    hidden: dict = field(default_factory=dict)  # inner tensor id -> id of the op that made it

    def draws(self, node_id: str) -> bool:
        """Whether the node is drawn itself (not inside a module box, not a hidden tensor)."""
        return node_id not in self.owner and node_id not in self.hidden

    def ends(self, edge) -> tuple | None:
        """The drawn (source, target) of a graph edge, and whether it merged into a module
        box's edge (then its id is "source-target"); None when it is not drawn at all."""
        if edge.target in self.hidden:
            return None  # op -> its own inner tensor: the op's outgoing edges stand for it
        source = self.hidden.get(edge.source, edge.source)
        box_s, box_t = self.owner.get(source), self.owner.get(edge.target)
        if box_s or box_t:
            return box_s or source, box_t or edge.target, True
        return source, edge.target, False


def module_tree(graph: Graph) -> dict:
    """Every module named in the nodes' `module` chains, parents before children."""
    groups = {}
    for node in graph.nodes:
        parent = None
        for path, type_name in node.module:
            if path not in groups:
                level = groups[parent].level + 1 if parent is not None else 0
                groups[path] = Group(path, type_name, parent, level)
                if parent is not None:
                    groups[parent].children.append(path)
            parent = path
        if node.module:
            groups[node.module[-1][0]].nodes.append(node.id)
    for group in groups.values():  # net.0, net.1, …, net.10 in the model's own order
        group.children.sort(key=_natural)
    return groups


def _natural(path: str) -> tuple:
    last = path.rsplit(".", 1)[-1]
    return (0, int(last), "") if last.isdigit() else (1, 0, last)


def roots(groups: dict) -> list:
    """The outermost modules, in order of first appearance."""
    return [p for p, g in groups.items() if g.parent is None]


def tree_order(groups: dict) -> list:
    """Every module path, parents before children, siblings in the model's order."""
    order, stack = [], list(reversed(roots(groups)))
    while stack:
        path = stack.pop()
        order.append(path)
        stack += reversed(groups[path].children)
    return order


def plan(graph: Graph, options, saved_per_op=None) -> Plan:
    """Open and closed modules for `options` (expand, depth, collapse_above, max_nodes)."""
    groups = module_tree(graph)
    _check_expand(options.expand, groups)
    depth, rolled = options.depth, set()
    if depth is None and len(graph.nodes) > options.collapse_above and groups:
        # Too big to draw whole: repeated blocks roll up first, then open what still fits.
        rolled = _repeats(graph, groups, _opened(groups, options.expand))
        depth = _deepest_that_fits(graph, groups, options, rolled)
    result = _plan_at(graph, groups, depth, options.expand, rolled)
    hide = options.hide_inner_tensors
    if hide or (hide is None and result.drawn > options.collapse_above):
        result.hidden = inner_tensors(graph, result.owner)
        result.drawn -= len(result.hidden)
    extra = saved_per_op(result) if saved_per_op else 0
    if result.drawn + extra > options.max_nodes:
        raise GraphTooLarge(_too_large(result.drawn + extra, options, groups))
    return result


def inner_tensors(graph: Graph, owner: dict) -> dict:
    """Intermediate tensors outside module boxes that some op uses, each mapped to the op that
    made it.

    Tensors the user asked the grad of (retain_grad) stay, as do leaves, outputs, and results
    no op used (a value computed only to be printed): without them their op would dangle.
    """
    nodes = {n.id: n for n in graph.nodes}
    used = {e.source for e in graph.edges}
    return {
        e.target: e.source
        for e in graph.edges
        if nodes[e.target].kind == "intermediate"
        and not nodes[e.target].retains_grad
        and e.target in used
        and e.target not in owner
        and nodes[e.source].kind == "op"
    }


def _deepest_that_fits(graph: Graph, groups: dict, options, rolled: set) -> int:
    """The most module levels that can be opened while the drawing stays small enough."""
    deepest = max(g.level for g in groups.values()) + 1
    for depth in range(deepest, 0, -1):
        drawn = _plan_at(graph, groups, depth, options.expand, rolled).drawn
        if drawn <= options.collapse_above:
            return depth
    return 0


def _opened(groups: dict, expand) -> set:
    """The modules `expand` names and the modules around them."""
    opened = set()
    for path in expand:
        while path is not None:
            opened.add(path)
            path = groups[path].parent
    return opened


def _repeats(graph: Graph, groups: dict, expanded: set) -> set:
    """Modules in runs of identical siblings that feed each other (none of them expanded)."""
    members = {p: _members(groups, p) for p in groups}
    nodes = {n.id: n for n in graph.nodes}
    successors = {}
    for e in graph.edges:
        successors.setdefault(e.source, set()).add(e.target)
    found = set()
    for siblings in [roots(groups)] + [g.children for g in groups.values()]:
        run = []
        for path in [*siblings, None]:
            same = (
                run
                and path is not None
                and path not in expanded
                and _signature(groups, run[-1], members, nodes)
                == _signature(groups, path, members, nodes)
                and _feeds(members[run[-1]], set(members[path]), successors)
            )
            if same:
                run.append(path)
                continue
            if len(run) > 1:
                found.update(run)
            run = [path] if path is not None and path not in expanded else []
    return found


def _plan_at(graph: Graph, groups: dict, depth, expand, rolled=frozenset()) -> Plan:
    expanded = _opened(groups, expand)
    open_paths = {
        p
        for p, g in groups.items()
        if (depth is None or g.level < depth or p in expanded) and p not in rolled
    }
    closed = [
        p
        for p in tree_order(groups)
        if p not in open_paths and groups[p].parent in open_paths | {None}
    ]
    members = {p: _members(groups, p) for p in closed}
    boxes, owner = [], {}
    nodes = {n.id: n for n in graph.nodes}
    for run in _runs(graph, groups, closed, members, nodes):
        box = Box(f"m{len(boxes) + 1}", run, groups[run[0]].type, groups[run[0]].parent, set())
        for path in run:
            box.members |= {i for i in members[path] if nodes[i].kind != "output"}
        for i in box.members:
            owner[i] = box.id
        boxes.append(box)
    _boundary_shapes(graph, boxes, owner, nodes)
    drawn = len(graph.nodes) - len(owner) + len(boxes)
    return Plan(groups, open_paths, boxes, owner, drawn)


def _members(groups: dict, path: str) -> list:
    """Node ids in module `path` and every module inside it."""
    found, stack = [], [path]
    while stack:
        group = groups[stack.pop()]
        found += group.nodes
        stack += group.children
    return found


def _runs(graph: Graph, groups: dict, closed: list, members: dict, nodes: dict) -> list:
    """Closed modules in order, consecutive identical siblings that feed each other as one run."""
    if len(closed) < 2:
        return [[path] for path in closed]
    successors = {}
    for e in graph.edges:
        successors.setdefault(e.source, set()).add(e.target)
    runs = []
    for path in closed:
        last = runs[-1][-1] if runs else None
        same = (
            last is not None
            and groups[last].parent == groups[path].parent
            and _signature(groups, last, members, nodes) == _signature(groups, path, members, nodes)
            and _feeds(members[last], set(members[path]), successors)
        )
        if same:
            runs[-1].append(path)
        else:
            runs.append([path])
    return runs


def _signature(groups: dict, path: str, members: dict, nodes: dict) -> tuple:
    """What makes two blocks the same: type, and the kind, op and shape of every node inside."""
    inside = tuple((nodes[i].kind, nodes[i].op, tuple(nodes[i].shape)) for i in members[path])
    return groups[path].type, inside


def _feeds(first: list, second: set, successors: dict) -> bool:
    """Whether an edge leads from a node of `first` straight into a node of `second`."""
    return any(not second.isdisjoint(successors.get(i, ())) for i in first)


def _boundary_shapes(graph: Graph, boxes: list, owner: dict, nodes: dict) -> None:
    """Fill each box's shapes of the tensors entering and leaving it (each tensor once)."""
    ins = {box.id: {} for box in boxes}
    outs = {box.id: {} for box in boxes}
    for e in graph.edges:
        box_s, box_t = owner.get(e.source), owner.get(e.target)
        if box_s == box_t:
            continue
        if box_t is not None and nodes[e.source].kind != "op":
            ins[box_t].setdefault(e.source, tuple(nodes[e.source].shape))
        if box_s is not None:
            tensor = e.source if nodes[e.source].kind != "op" else e.target
            outs[box_s].setdefault(tensor, tuple(nodes[tensor].shape))
    for box in boxes:
        box.inputs, box.outputs = list(ins[box.id].values()), list(outs[box.id].values())


def _check_expand(expand, groups: dict) -> None:
    for path in expand:
        if path not in groups:
            raise ValueError(
                f"unknown module {path!r} in expand (must be one of {list(groups)}); module paths "
                "come from your variables, as in net.named_modules()"
            )


def _too_large(count: int, options, groups: dict) -> str:
    hint = (
        "Group it by module: depth=1 (or a smaller collapse_above=) collapses each nn.Module "
        "to one box"
        if groups
        else "Run the model as nn.Modules so the diagram can collapse each module to one box"
    )
    if options.hide_inner_tensors is False:
        hint += "; or let hide_inner_tensors=None (or True) leave the intermediate tensors out"
    return (
        f"this diagram would draw {count:,} nodes, more than max_nodes={options.max_nodes:,}: "
        f"the layout engine could run for minutes on it, so it was not started. {hint}; or draw "
        "a smaller part of the graph (draw an intermediate tensor); or raise max_nodes= if you "
        "really want it."
    )


def node_module(node: Node, plan_: Plan) -> str | None:
    """The innermost open module a drawn node sits in (None: at the top level)."""
    for path, _ in reversed(node.module):
        if path in plan_.open:
            return path
    return None
