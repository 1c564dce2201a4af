"""What a big drawing folds: nn.Modules as clusters or collapsed boxes, repeated structure (a
loop's iterations, the same ops again and again) as one box, inner tensors left out.

One mechanism for every view: `plan(graph, options)` gives the Plan that to_dot draws, the
player's frames restyle and an overview reads (`Plan.boxes`, `Plan.folds`, `Plan.hidden`).
"""

import re
from dataclasses import dataclass, field

import numpy as np

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
    fold: "Fold | None" = None  # repeated structure folded, rather than a module


@dataclass
class Fold:
    """A run of blocks doing the same ops in the same order (a loop's iterations unrolled, the
    same layer again): the blocks between the first and the last are drawn as one box.

    `name` ("fold1") opens it: expand=["fold1"] draws every block. `blocks` lists each block's
    node ids, in order; `ops` names one block's ops; `chained`: each block feeds the next.
    """

    name: str
    blocks: list
    ops: list
    chained: bool
    folded: bool = True  # False when expand names it: found, numbered, drawn in full
    leaves: int = 0  # leaves folded with the blocks: each one block's own input
    into: str | None = None  # the op whose inputs these are, when the blocks are its inputs

    @property
    def inner(self) -> list:
        """The blocks inside the box: all but the first and the last, which stay drawn."""
        return self.blocks[1:-1]

    def title(self) -> str:
        """fold1: 158 iterations folded (with their 158 leaves)."""
        if self.into is not None:
            return f"{self.name}: {len(self.inner):,} inputs of {self.into} folded"
        what = "iterations" if self.chained else "repeats"
        leaves = f" with their {self.leaves:,} leaves" if self.leaves else ""
        return f"{self.name}: {len(self.inner):,} {what} folded{leaves}"

    def ops_text(self) -> str:
        """8 ops each: MmBackward0 → TanhBackward0 → …"""
        if self.into is not None:
            return f"{len(self.blocks):,} alike in all, of which the first and last are drawn"
        count = len(self.ops)
        return f"{count} op{'s' * (count != 1)} each: {op_list(self.ops)}"

    def how_to_open(self, advice: str = "python") -> str:
        """How a reader opens the fold (Options.advice): `expand=['fold1']`, `--expand fold1`."""
        if advice == "python":
            return f"expand=[{self.name!r}] opens it"
        return f"--expand {self.name} opens it" if advice == "cli" else ""

    def note(self, advice: str = "python") -> str:
        """What the drawing folded and how to open it, in a sentence."""
        opening = self.how_to_open(advice)
        return f"{self.title()} into one box between the first and the last ({self.ops_text()})" + (
            f"; {opening}" if opening else ""
        )


FOLD_NAME = re.compile(r"fold[1-9][0-9]*")
MIN_BLOCKS = 4  # a fold keeps two blocks drawn and folds at least two
MIN_SAVED = 16  # nodes a fold must spare the drawing (no box for a short run by chance)
MAX_PERIOD = 512  # nodes in one block, at most
MAX_FOLD_PASSES = 12
# Nodes outside modules a fold search looks through, per node max_nodes lets dot place: the
# search costs about a second per 10,000 nodes, and an irregular graph folds little.
SEARCHED_PER_NODE = 4


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
    folds: list = field(default_factory=list)  # Fold, every one found (folded or expanded)

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
    # Ops, leaves and constants outside modules are drawn, or folded with what repeats (a
    # loop of 20,000 nodes folds to 48): past SEARCHED_PER_NODE × max_nodes of them the graph
    # is refused before any search (a stack of 100,000 leaves, a chain of 100,000 ops).
    outside = [n for n in graph.nodes if not n.module]
    fixed = sum(n.kind != "intermediate" for n in outside)
    if fixed > SEARCHED_PER_NODE * options.max_nodes:
        raise GraphTooLarge(_too_large(len(outside), options, groups))
    depth, rolled = options.depth, set()
    if depth is None and len(graph.nodes) > options.collapse_above and groups:
        # Too big to draw whole: repeated blocks roll up first, then open what still fits.
        rolled = _repeats(graph, groups, _opened(groups, options.expand))
        depth = _deepest_that_fits(graph, groups, options, rolled)
    result = _plan_at(graph, groups, depth, options.expand, rolled)
    if result.drawn > options.collapse_above:
        fold_repeats(graph, result, options)
    hide = options.hide_inner_tensors
    if hide or (hide is None and result.drawn > options.collapse_above):
        result.hidden = inner_tensors(graph, result.owner)
        result.drawn -= len(result.hidden)
    extra = saved_per_op(result) if saved_per_op else 0
    if result.drawn + extra > options.max_nodes:
        raise GraphTooLarge(_too_large(result.drawn + extra, options, groups))
    return result


def fold_repeats(graph: Graph, result: Plan, options) -> None:
    """Fold repeated structure of the nodes no module box holds (see find_folds), then the
    many alike inputs of an op (see wide_inputs), into boxes of `result`, while the drawing
    has more than collapse_above nodes."""
    nodes = {n.id: n for n in graph.nodes}
    found = find_folds(graph, set(result.owner), options.collapse_above, result.drawn)
    for fold in found:
        _fold(graph, result, fold, nodes, options)
    if result.drawn > options.collapse_above:
        for fold in wide_inputs(graph, nodes, set(result.owner), len(found)):
            _fold(graph, result, fold, nodes, options)
    if any(box.fold is not None for box in result.boxes):
        _boundary_shapes(graph, result.boxes, result.owner, nodes)


def _fold(graph: Graph, result: Plan, fold: "Fold", nodes: dict, options) -> None:
    """Draw `fold`'s inner blocks as one box of `result` (unless expand names it)."""
    result.folds.append(fold)
    fold.folded = fold.name not in options.expand
    if not fold.folded:
        return
    members = {i for block in fold.inner for i in block}
    members |= _own_inputs(graph, fold.inner, members, nodes)
    fold.leaves = sum(nodes[i].kind == "leaf" for i in members)
    box = Box(f"m{len(result.boxes) + 1}", [fold.name], "repeated", None, members, fold=fold)
    for i in members:
        result.owner[i] = box.id
    result.boxes.append(box)
    result.drawn -= len(members) - 1


def find_folds(graph: Graph, taken: set, goal: int, drawn: int) -> list:
    """Runs of repeated blocks among the ops and tensors outside `taken` (module boxes), the
    biggest saving first, until `drawn` less what they fold is at most `goal`.

    Blocks repeat when their nodes' kinds, ops and shapes come in the same order (leaves and
    constants aside: a loop uses other weights each time, W[i % 8]); found as the longest run
    of positions i where node i looks like node i + p, for each period p, with numpy.
    """
    body = [
        n
        for n in graph.nodes
        if n.kind in ("op", "intermediate", "output") and n.id not in taken and not n.error
    ]
    if len(body) < 2 * MIN_BLOCKS:
        return []
    looks = {}
    tokens = np.array([looks.setdefault(_look(n), len(looks)) for n in body], dtype=np.int64)
    spans, folds = [(0, len(body))], []
    successors = {}
    for e in graph.edges:
        successors.setdefault(e.source, set()).add(e.target)
    while spans and drawn > goal and len(folds) < MAX_FOLD_PASSES:
        best = max(((*_best_run(tokens, a, b), a, b) for a, b in spans), default=None)
        if best is None or best[0] < MIN_SAVED:
            break
        _, start, period, count, a, b = best
        blocks = [
            [n.id for n in body[start + j * period : start + (j + 1) * period]]
            for j in range(count)
        ]
        chained = all(_feeds(blocks[j], set(blocks[j + 1]), successors) for j in range(count - 1))
        ops = [n.op for n in body[start : start + period] if n.kind == "op"]
        folds.append(Fold(f"fold{len(folds) + 1}", blocks, ops, chained))
        drawn -= (count - 2) * period - 1
        end = start + count * period
        spans.remove((a, b))
        # What is left of the span, and the two blocks left drawn, may repeat again inside.
        spans += [
            (x, y)
            for x, y in ((a, start), (start, start + period), (end - period, end), (end, b))
            if y - x >= 2 * MIN_BLOCKS
        ]
    return folds


WIDE = 16  # an op with more inputs than this folds the runs of alike ones in the middle


def wide_inputs(graph: Graph, nodes: dict, taken: set, numbered: int) -> list:
    """Folds of an op's many alike inputs (torch.stack of 2,000 leaves): each run of inputs
    in a row with the same kind and shape that only that op uses, past WIDE of them (inputs
    in `taken`, already in a box, end a run)."""
    into, uses = {}, {}
    for e in graph.edges:
        if e.kind == "data":
            into.setdefault(e.target, []).append(e)
            uses[e.source] = uses.get(e.source, 0) + 1
    folds = []
    for op_id, edges in into.items():
        if len(edges) <= WIDE or nodes[op_id].kind != "op":
            continue
        run = []
        for e in [*sorted(edges, key=lambda e: e.index), None]:
            source = nodes[e.source] if e is not None else None
            alike = (
                source is not None
                and uses[source.id] == 1
                and source.id not in taken
                and source.kind in ("leaf", "constant", "intermediate")
                and (not run or _look(nodes[run[-1]]) == _look(source))
            )
            if alike:
                run.append(source.id)
                continue
            if len(run) >= max(MIN_BLOCKS, WIDE // 2):
                name = f"fold{numbered + len(folds) + 1}"
                blocks = [[i] for i in run]
                folds.append(Fold(name, blocks, [], False, into=nodes[op_id].op))
            fresh = source is not None and uses[source.id] == 1 and source.id not in taken
            run = [source.id] if fresh else []
    return folds


def _look(node: Node) -> tuple:
    return node.kind, node.op, tuple(node.shape)


def _best_run(tokens, a: int, b: int) -> tuple:
    """(nodes saved, start, period, blocks) of the best run of repeated blocks in
    tokens[a:b]: the most nodes folded, the shorter period on a tie; (0, ...) if none."""
    best = (0, a, 1, 0)
    span = tokens[a:b]
    n = len(span)
    for period in range(1, min(MAX_PERIOD, n // MIN_BLOCKS) + 1):
        same = span[:-period] == span[period:]
        if not same.any():
            continue
        # the longest run of True: where the running count of False stays put longest
        breaks = np.flatnonzero(~same)
        edges = np.concatenate(([-1], breaks, [len(same)]))
        gaps = np.diff(edges) - 1
        i = int(np.argmax(gaps))
        length = int(gaps[i])
        count = (length + period) // period
        saved = (count - 2) * period - 1
        if count >= MIN_BLOCKS and saved > best[0]:
            best = (saved, a + int(edges[i]) + 1, period, count)
    return best


def _own_inputs(graph: Graph, blocks: list, members: set, nodes: dict) -> set:
    """The inputs folded with the blocks: constants only they use (the 0.5 of
    `h.tanh() * 0.5`), and leaves only one block uses (each x of `stack([x * 2 for x in xs])`);
    a leaf several blocks share (a loop's weights) stays drawn."""
    block_of = {i: b for b, block in enumerate(blocks) for i in block}
    users = {}
    for e in graph.edges:
        if nodes[e.source].kind in ("constant", "leaf"):
            users.setdefault(e.source, set()).add(e.target)
    own = set()
    for node_id, used in users.items():
        if not used <= members:
            continue
        if nodes[node_id].kind == "constant" or len({block_of[i] for i in used}) == 1:
            own.add(node_id)
    return own


def op_list(ops: list) -> str:
    shown = " → ".join(ops[:4])
    return shown + (f" → … ({len(ops) - 4} more)" if len(ops) > 4 else "")


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
    for path in (p for p in expand if p in groups):
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
        if path not in groups and not FOLD_NAME.fullmatch(path):
            raise ValueError(
                f"unknown module {path!r} in expand (must be one of {list(groups)}, or a fold "
                "the drawing names: fold1, fold2, …); module paths come from your variables, "
                "as in net.named_modules()"
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
