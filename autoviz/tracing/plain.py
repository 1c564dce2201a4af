"""The common shape of each timeline record, recognised in one expression: a node, edge or step
of a version 2 file that is plainly well-formed (what to_json wrote) passes its table in one
call; any other goes through schema's tables, which name what is wrong. Version 3's column
checks (columns.py) use the predicates for a field's value.

Each predicate is true only of a record its table (schema.NODE, EDGE, STEP) accepts as it is,
so that the table would return equal fields; a predicate never raises and never decides a
record is bad. The checks across fields and records (shapes fit, edges join an op) are schema's,
run for every record whichever way it passed. tests/test_timeline_json.py holds the two ways
equal on fuzzed files.
"""

from dataclasses import fields
from operator import itemgetter

from .captions import STEP_KINDS
from .model import EDGE_KINDS, KINDS, PHASES, Edge, Flow, Node, Source, Step

MAX_DIMS = 64  # schema's: a shape's most dimensions
MAX_INT = 2**63 - 1
NODE_KEYS, EDGE_KEYS, STEP_KEYS, SOURCE_KEYS, FLOW_KEYS = (
    frozenset(f.name for f in fields(record)) for record in (Node, Edge, Step, Source, Flow)
)
SAVED_KEYS = frozenset(("name", "shape", "value"))
LINE_KEYS = SOURCE_KEYS - {"caller"}
_KINDS, _EDGE_KINDS = frozenset(KINDS), frozenset(EDGE_KINDS)
_PHASES, _STEP_KINDS = frozenset(PHASES), frozenset(STEP_KINDS)
# Fields whose type alone says they are as the table asks, read in one call, and those types.
_NODE_TYPED = itemgetter(
    "kind", "name", "dtype", "requires_grad", "retains_grad", "detached", "made_in_no_grad",
    "freed", "error", "graph", "step", "shape", "module", "saved", "params",
)  # fmt: skip
_NODE_TYPES = (str, str, str, bool, bool, bool, bool, bool, bool, int, int, list, list, list, dict)
_EDGE_TYPED = itemgetter("source", "target", "index", "kind")
_EDGE_TYPES = (str, str, int, str)
_STEP_TYPED = itemgetter(
    "index", "phase", "kind", "caption", "nodes", "edges", "flows", "changes", "details"
)
_STEP_TYPES = (int, str, str, str, list, list, list, list, dict)
_PREVIEWS, _CHANGE_FLAGS = (
    frozenset(("grad", "value")),
    frozenset(("freed", "retains_grad", "error")),
)


def _number(x) -> bool:
    """A finite float or an int (what a preview holds, as it is)."""
    t = type(x)
    return t is int or (t is float and x - x == 0.0)  # inf - inf and nan - nan are nan


def sizes(shape) -> bool:
    """A list of sizes."""
    return type(shape) is list and (
        not shape
        or (len(shape) <= MAX_DIMS and all(type(s) is int and 0 <= s <= MAX_INT for s in shape))
    )


def preview(x) -> bool:
    """null, a finite number, or numbers in rectangular nested lists (no {"float": ...})."""
    if x is None or type(x) is float:
        return x is None or x - x == 0.0
    if type(x) is not list:
        return type(x) is int
    rows, depth = [x], 0
    while rows and type(rows[0]) is list:  # one level of the nesting at a time
        depth += 1
        length = len(rows[0])
        if depth > MAX_DIMS or not all(type(r) is list and len(r) == length for r in rows):
            return False
        rows = [item for row in rows for item in row]
    return all(_number(x) for x in rows)


def _text_pairs(items) -> bool:
    return not items or all(
        type(p) is list and len(p) == 2 and type(p[0]) is str and type(p[1]) is str for p in items
    )


def _saved(items) -> bool:
    return not items or all(
        type(s) is dict
        and s.keys() == SAVED_KEYS
        and type(s["name"]) is str
        and sizes(s["shape"])
        and preview(s["value"])
        for s in items
    )


def _params(params) -> bool:
    return not params or all(x is None or type(x) is bool or _number(x) for x in params.values())


def node(v, i: int, steps: int) -> bool:
    """The i-th node (of a file with `steps` steps), every field as NODE asks."""
    if type(v) is not dict or v.keys() != NODE_KEYS:
        return False
    typed = _NODE_TYPED(v)
    if tuple(map(type, typed)) != _NODE_TYPES:
        return False
    kind, _, _, _, _, _, _, _, _, graph, step, shape, module, saved, params = typed
    op = v["op"]
    return (
        v["id"] == f"n{i + 1}"
        and kind in _KINDS
        and (op is None or type(op) is str)
        and -1 <= graph <= steps
        and 0 <= step <= steps - 1
        and sizes(shape)
        and preview(v["value"])
        and preview(v["grad"])
        and _text_pairs(module)
        and _saved(saved)
        and _params(params)
    )


def edge(v, i: int, nodes: set, edges: int) -> bool:
    """The i-th edge (of a file with node ids `nodes` and `edges` edges), as EDGE asks."""
    if type(v) is not dict or v.keys() != EDGE_KEYS:
        return False
    typed = _EDGE_TYPED(v)
    if tuple(map(type, typed)) != _EDGE_TYPES:
        return False
    source, target, index, kind = typed
    return (
        v["id"] == f"e{i + 1}"
        and source in nodes
        and target in nodes
        and 0 <= index <= edges
        and kind in _EDGE_KINDS
    )


def _line(v, keys) -> bool:
    if type(v) is not dict or v.keys() != keys:
        return False
    file, line = v["file"], v["line"]
    return (
        type(file) is str
        and "\0" not in file
        and type(line) is int
        and 0 <= line <= MAX_INT
        and type(v["text"]) is str
    )


def _source(v) -> bool:
    if v is None:
        return True
    if not _line(v, SOURCE_KEYS):
        return False
    caller = v["caller"]
    return caller is None or (_line(caller, SOURCE_KEYS) and caller["caller"] is None)


def _ids(ids, nodes: set) -> bool:
    return type(ids) is list and all(type(x) is str for x in ids) and nodes.issuperset(ids)


def _indices(items, edges: int) -> bool:
    return all(type(x) is int and 0 <= x < edges for x in items)


def _flows(items, edges: int) -> bool:
    return not items or all(
        type(f) is dict
        and f.keys() == FLOW_KEYS
        and type(f["edge"]) is int
        and 0 <= f["edge"] < edges
        and preview(f["upstream"])
        and preview(f["local"])
        and preview(f["contribution"])
        and preview(f["total"])
        and sizes(f["shape"])
        for f in items
    )


def _change(c, nodes: set) -> bool:
    if type(c) is not list or len(c) != 3 or type(c[0]) is not str or c[0] not in nodes:
        return False
    field = c[1]
    if type(field) is not str:
        return False
    if field in _PREVIEWS:
        return preview(c[2])
    return field in _CHANGE_FLAGS and type(c[2]) is bool


def _details(d, nodes: set, steps: int) -> bool:
    """The details most steps have (a graph, gradients, shapes, what a tensor came from)."""
    if type(d) is not dict or type(d.get("graph")) is not int or not 0 <= d["graph"] <= steps:
        return False
    for key, x in d.items():
        if key in ("grad", "incoming"):
            ok = preview(x)
        elif key in ("from_shape", "to_shape"):
            ok = sizes(x)
        elif key == "from":
            ok = (type(x) is str and x in nodes) or _ids(x, nodes)
        elif key == "shared":
            ok = _ids(x, nodes)
        elif key == "dims":
            ok = type(x) is list and all(type(n) is int and 0 <= n <= MAX_DIMS for n in x)
        elif key in ("type", "message"):
            ok = type(x) is str
        elif key == "set_to_none":
            ok = type(x) is bool
        elif key == "rule":
            ok = x is None or _rule(x)
        else:
            ok = key == "graph"  # questions: the table checks them
        if not ok:
            return False
    return True


_RULE_FLAGS = frozenset(("nesterov", "amsgrad", "maximize", "decoupled_weight_decay"))
_RULE_REALS = frozenset(("lr", "momentum", "dampening", "weight_decay", "eps"))


def _rule(rule) -> bool:
    """An optimizer step's rule: its name and hyperparameters."""
    if type(rule) is not dict or type(rule.get("optimizer")) is not str:
        return False
    for key, x in rule.items():
        if key in _RULE_REALS:
            ok = _number(x)
        elif key in _RULE_FLAGS:
            ok = type(x) is bool
        elif key == "betas":
            ok = type(x) is list and len(x) == 2 and _number(x[0]) and _number(x[1])
        else:
            ok = key == "optimizer"
        if not ok:
            return False
    return True


def step(v, i: int, nodes: set, edges: int, steps: int) -> bool:
    """The i-th step, every field as STEP asks."""
    if type(v) is not dict or v.keys() != STEP_KEYS:
        return False
    typed = _STEP_TYPED(v)
    if tuple(map(type, typed)) != _STEP_TYPES:
        return False
    index, phase, kind, _, ids, indices, flows, changes, details = typed
    return (
        index == i
        and phase in _PHASES
        and kind in _STEP_KINDS
        and _ids(ids, nodes)
        and _indices(indices, edges)
        and _source(v["source"])
        and _flows(flows, edges)
        and all(_change(c, nodes) for c in changes)
        and _details(details, nodes, steps)
    )
