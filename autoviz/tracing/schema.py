"""What a timeline file may hold: one table of fields per record, every value checked.

A timeline file is untrusted input (teachers share them). `document` takes the parsed JSON
and returns the fields of every record, decoded (`{"float": "nan"}` becomes a float), or raises
TimelineFormatError naming the first bad field's path. Each table lists every field the writer
produces; a new field, step kind or detail is one entry here (the phases come from
model.PHASES, the step kinds from captions.STEP_KINDS).
"""

import math
import re

from ..errors import TimelineFormatError
from . import plain
from .captions import STEP_KINDS
from .model import EDGE_KINDS, KINDS, PERSISTENT, PHASES
from .preview import Summary, blocks, grid_shape

MAX_DIMS = 64  # numpy 2's limit on a tensor's dimensions: deeper previews are not tensors
MAX_INT = 2**63 - 1  # shapes, line numbers: what a C long holds
_NODE_ID = re.compile(r"n[1-9][0-9]*")
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class Context:
    """What references are checked against: how many nodes, edges and steps the file has."""

    def __init__(self, doc: dict) -> None:
        self.counts = {key: len(doc[key]) for key in ("nodes", "edges", "steps")}
        self.node_ids = {f"n{i}" for i in range(1, self.counts["nodes"] + 1)}
        self.node_kinds = {}  # node id -> kind, filled as the nodes are checked
        self.node_shapes = {}  # node id -> shape, likewise
        self.edge_targets = []  # the node each edge leads to, filled as the edges are checked
        self.outputs = {}  # op node id -> the tensor it made (its first data edge out)


def fail(path, message: str):
    raise TimelineFormatError(f"{spelled(path)}: {message}")


# A field's path is built only for a message: (parent path, key or index) pairs, nested, down
# from a top-level name; spelled "steps[8].flows[0].upstream".
def spelled(path) -> str:
    parts = []
    while isinstance(path, tuple):
        path, key = path
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return path + "".join(reversed(parts))


# --- checkers: (value, path, ctx) -> the value as the model holds it -------------------------


def text(value, path, ctx):
    if not isinstance(value, str):
        fail(path, f"expected a string, got {_type(value)}")
    return value


def flag(value, path, ctx):
    if not isinstance(value, bool):
        fail(path, f"expected true or false, got {_type(value)}")
    return value


def integer(low: int, high=MAX_INT):
    """An int in [low, high]; `high` may be a function of the context (a count)."""

    def check(value, path, ctx):
        top = high(ctx) if callable(high) else high
        if isinstance(value, bool) or not isinstance(value, int):
            fail(path, f"expected an integer, got {_type(value)}")
        if not low <= value <= top:
            fail(path, f"expected an integer from {low} to {top}, got {value}")
        return value

    return check


def choice(allowed):
    def check(value, path, ctx):
        if not isinstance(value, str) or value not in allowed:
            fail(path, f"expected one of {list(allowed)}, got {short(value)}")
        return value

    return check


def optional(checker):
    def check(value, path, ctx):
        return None if value is None else checker(value, path, ctx)

    return check


def list_of(checker, least: int = 0, most: int | None = None):
    def check(value, path, ctx):
        if not isinstance(value, list):
            fail(path, f"expected a list, got {_type(value)}")
        if len(value) < least or (most is not None and len(value) > most):
            size = f"{least}" if least == most else f"{least} to {most}" if most else f">= {least}"
            fail(path, f"expected a list of {size} items, got {len(value)}")
        return [checker(item, (path, i), ctx) for i, item in enumerate(value)]

    return check


def pair(first, second):
    """A two-item list such as [module path, module type]."""

    def check(value, path, ctx):
        if not isinstance(value, list) or len(value) != 2:
            fail(path, f"expected a list of two items, got {short(value)}")
        return [first(value[0], (path, 0), ctx), second(value[1], (path, 1), ctx)]

    return check


def node_ref(value, path, ctx):
    """The id of a node of this file: "n1" … "nN"."""
    if type(value) is str and value in ctx.node_ids:
        return value
    if not isinstance(value, str) or not _NODE_ID.fullmatch(value):
        fail(path, f'expected a node id ("n1", "n2", …), got {short(value)}')
    if int(value[1:]) > ctx.counts["nodes"]:
        fail(path, f"no node {value!r}: the file has {ctx.counts['nodes']} nodes")
    return value


def edge_index(value, path, ctx):
    """An index into the edges list."""
    if isinstance(value, bool) or not isinstance(value, int):
        fail(path, f"expected an edge index (an integer), got {_type(value)}")
    if not 0 <= value < ctx.counts["edges"]:
        fail(path, f"no edge {value}: the file has {ctx.counts['edges']} edges")
    return value


def node_refs(value, path, ctx):
    """A list of node ids; checked in one pass where all are this file's (the usual case)."""
    strings = type(value) is list and all(type(v) is str for v in value)
    if strings and ctx.node_ids.issuperset(value):
        return value
    return _NODE_REFS(value, path, ctx)


def edge_indices(value, path, ctx):
    """A list of edge indices; checked in one pass where all are this file's."""
    ints = type(value) is list and all(type(v) is int for v in value)
    if ints and (not value or (min(value) >= 0 and max(value) < ctx.counts["edges"])):
        return value
    return _EDGE_INDICES(value, path, ctx)


def positional(prefix: str):
    """An id the writer numbers by position: the i-th record's id is prefix + (i + 1)."""

    def check(value, path, ctx):
        expected = f"{prefix}{_position(path) + 1}"
        if value != expected:
            fail(path, f"expected {expected!r} (ids are numbered in order), got {short(value)}")
        return value

    return check


def index_here(value, path, ctx):
    """A step's own index: its position in the steps list."""
    if isinstance(value, bool) or value != _position(path):
        fail(path, f"expected {_position(path)} (steps are numbered in order), got {short(value)}")
    return value


_SIZES = list_of(integer(0), most=MAX_DIMS)
_NODE_REFS = list_of(node_ref)
_EDGE_INDICES = list_of(edge_index)


def shape(value, path, ctx) -> list:
    """A list of sizes, as the tracer writes details' and saved tensors' shapes."""
    return _SIZES(value, path, ctx)


def dims(value, path, ctx) -> tuple:
    """A shape as the model holds a node's or a flow's: a tuple of sizes."""
    return tuple(_SIZES(value, path, ctx))


def preview(value, path, ctx):
    """A tensor preview: null, a number (or {"float": "nan"}), nested lists of numbers of
    one rectangular shape, at most MAX_DIMS deep, or {"summary": {...}} for a large tensor."""
    if isinstance(value, dict) and set(value) == {"summary"}:
        return summary(value["summary"], (path, "summary"), ctx)
    if not isinstance(value, list):
        if type(value) is float and math.isfinite(value):  # most previews: a number
            return value
        return None if value is None else _number(value, path)
    out, lengths, leaves = [], {}, set()  # lengths: depth -> length of every list at that depth
    stack = [(value, out, path, 1)]  # iterative: a crafted file may nest deeper than Python can
    while stack:
        items, into, where, depth = stack.pop()
        if depth > MAX_DIMS:
            fail(path, f"lists nested more than {MAX_DIMS} deep: not a tensor preview")
        if lengths.setdefault(depth, len(items)) != len(items):
            fail(where, "rows of different lengths: not a tensor preview")
        for i, item in enumerate(items):
            if isinstance(item, list):
                into.append([])
                stack.append((item, into[-1], (where, i), depth + 1))
            else:
                leaves.add(depth)
                into.append(_number(item, (where, i)))
    if leaves and leaves != {len(lengths)}:
        fail(path, "numbers and lists at the same depth: not a tensor preview")
    return out


def summary(value, path, ctx):
    """A large tensor's Summary (tracing/preview.py): statistics, first elements and a grid of
    block means whose size follows from the shape."""
    fields = record(SUMMARY)(value, path, ctx)
    rows, cols = grid_shape(fields["shape"])
    br, bc = blocks(rows, cols)
    if fields["block"] != [br, bc]:
        fail((path, "block"), f"expected {[br, bc]} for shape {_shape(fields['shape'])}")
    want = (-(-rows // br), -(-cols // bc)) if rows * cols else (0,)
    have = preview_dims(fields["grid"])
    if have != want[: len(have)] or len(have) != len(want):
        fail((path, "grid"), f"expected {want[0]} rows of {want[-1]} cells, got {_shape(have)}")
    for key in ("nan", "pinf", "ninf"):
        if fields[key] > math.prod(fields["shape"]):
            fail((path, key), "more elements than the tensor has")
    return Summary.from_dict(fields)


def _real_or_null(value, path, ctx):
    return None if value is None else _number(value, path)


def _flat_numbers(value, path, ctx):
    if not isinstance(value, list) or any(isinstance(v, list) for v in value):
        fail(path, f"expected a list of numbers, got {_type(value)}")
    return [_number(v, (path, i)) for i, v in enumerate(value)]


def _rows(value, path, ctx):
    if not isinstance(value, list):
        fail(path, f"expected a list of rows, got {_type(value)}")
    return preview(value, path, ctx)


SUMMARY = {
    "shape": shape,
    "dtype": text,
    "min": _real_or_null,
    "max": _real_or_null,
    "mean": _real_or_null,
    "norm": _real_or_null,
    "nan": integer(0),
    "pinf": integer(0),
    "ninf": integer(0),
    "head": _flat_numbers,
    "grid": _rows,
    "block": list_of(integer(1), 2, 2),
}


def preview_dims(value) -> tuple:
    """The shape of a checked preview (() for a number)."""
    if type(value) is Summary:
        return tuple(value.shape)
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return tuple(dims)


def _number(value, path):
    if isinstance(value, dict) and set(value) == {"float"}:
        spelled = value["float"]
        if isinstance(spelled, str) and spelled in _NON_FINITE:
            return _NON_FINITE[spelled]
        fail(path, f'expected {{"float": "nan"}}, "inf" or "-inf", got {short(spelled)}')
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            fail(path, 'a non-finite number must be written {"float": "nan"} (or "inf", "-inf")')
        return value
    expected = 'a number, {"float": "nan"}, a list of numbers or null'
    fail(path, f"expected {expected}, got {_type(value)}")


def record(fields: dict, required=None):
    """An object with exactly `fields` (name -> checker); all required unless `required`
    names the ones that must be there."""
    must = set(fields) if required is None else set(required)
    every = fields.keys()
    # A string or a boolean where the checker asks for one passes as it is (most fields).
    rows = [(key, checker, _AS_IT_IS.get(checker, ())) for key, checker in fields.items()]

    def check(value, path, ctx):
        if not isinstance(value, dict):
            fail(path, f"expected an object, got {_type(value)}")
        if value.keys() != every:
            return _some_of(value, path, ctx)
        out = {}
        for key, checker, passes in rows:  # in the table's order: the first bad one is named
            item = value[key]
            out[key] = item if type(item) in passes else checker(item, (path, key), ctx)
        return out

    def _some_of(value, path, ctx):
        out = {}
        for key, checker in fields.items():
            if key in value:
                out[key] = checker(value[key], (path, key), ctx)
            elif key in must:
                fail((path, key), "missing")
        if len(out) < len(value):
            extra = next(key for key in value if key not in fields)
            fail(path, f"unknown field {short(extra)} (expected one of {list(fields)})")
        return out

    return check


def optional_text(value, path, ctx):
    return None if value is None else text(value, path, ctx)


# The types of value a checker returns as they are, whatever the value.
_AS_IT_IS = {text: {str}, flag: {bool}, optional_text: {str, type(None)}}


# --- the tables ---------------------------------------------------------------------------------

CHANGES = {
    "grad": preview,
    "value": preview,
    "freed": flag,
    "retains_grad": flag,
    "error": flag,
}


_CHANGED = choice(CHANGES)


def change(value, path, ctx):
    """[node id, field, new value], the value checked as that field of a node."""
    if not isinstance(value, list) or len(value) != 3:
        fail(path, f"expected [node id, field, value], got {short(value)}")
    node_id = node_ref(value[0], (path, 0), ctx)
    field = _CHANGED(value[1], (path, 1), ctx)
    checked = [node_id, field, CHANGES[field](value[2], (path, 2), ctx)]
    _change_fits(checked, path, ctx)
    return checked


def _change_fits(change: list, path, ctx) -> None:
    """A changed grad or value has its node's shape."""
    node_id, field, new = change
    if CHANGES[field] is preview:
        _fits(new, ctx.node_shapes[node_id], (path, 2), f"node {node_id}")


def one_or_more_nodes(value, path, ctx):
    """details.from: the node detached from, or the nodes a no_grad value was computed from."""
    if isinstance(value, list):
        return node_refs(value, path, ctx)
    return node_ref(value, path, ctx)


def _last_step(ctx) -> int:
    return ctx.counts["steps"] - 1


def _graphs(ctx) -> int:
    return ctx.counts["steps"]  # each graph has at least one step


SAVED = {"name": text, "shape": shape, "value": preview}


def params(value, path, ctx):
    """An op's arguments (model.Node.params): names to a flag, a number, a list of numbers or
    null."""
    if not isinstance(value, dict):
        fail(path, f"expected an object, got {_type(value)}")
    out = {}
    for key, item in value.items():
        where = (path, key)
        if isinstance(item, list):
            out[key] = _flat_numbers(item, where, ctx)
        else:
            out[key] = None if item is None else _number(item, where)
    return out


NODE = {
    "id": positional("n"),
    "kind": choice(KINDS),
    "name": text,
    "op": optional_text,
    "shape": dims,
    "dtype": text,
    "value": preview,
    "grad": preview,
    "requires_grad": flag,
    "retains_grad": flag,
    "detached": flag,
    "made_in_no_grad": flag,
    "freed": flag,
    "graph": integer(-1, _graphs),
    "step": integer(0, _last_step),
    "module": list_of(pair(text, text)),
    "saved": list_of(record(SAVED)),
    "error": flag,
    "params": params,
}
NEWER = ("error", "params")  # fields files written before they existed may lack (the default)
EDGE = {
    "id": positional("e"),
    "source": node_ref,
    "target": node_ref,
    "index": integer(0, lambda ctx: ctx.counts["edges"]),
    "kind": choice(EDGE_KINDS),
}


def file_name(value, path, ctx):
    """A path as the tracer recorded it (never opened on loading): text without NUL."""
    if "\0" in text(value, path, ctx):
        fail(path, "a file name cannot hold a NUL character")
    return value


LINE = {"file": file_name, "line": integer(0), "text": text}


# A step's line of code, and the line that called the function it is in (one level).
def null(value, path, ctx):
    if value is not None:
        fail(path, f"expected null, got {_type(value)}")


# The caller is one level only: a Source whose own caller is null (or, as older files, absent).
SOURCE = {**LINE, "caller": optional(record({**LINE, "caller": null}, required=list(LINE)))}
_SOURCE = record(SOURCE, required=list(LINE))
FLOW = {
    "edge": edge_index,
    "upstream": preview,
    "local": preview,
    "contribution": preview,
    "shape": dims,
    "total": preview,
}


_FLOW = record(FLOW)


def check_flow(value, path, ctx) -> dict:
    """A flow's gradients have its shape; `upstream × local` is written out for scalars only."""
    fields = _FLOW(value, path, ctx)
    _flow_fits(fields, path, ctx)
    return fields


def _flow_fits(fields: dict, path, ctx) -> None:
    """A checked flow's gradients fit its shape and the op it flows into."""
    for key in ("contribution", "total", "local"):
        _fits(fields[key], fields["shape"], (path, key), "this flow")
    target = ctx.edge_targets[fields["edge"]]
    if ctx.node_kinds[target] != "op":
        fail((path, "edge"), f"a gradient flows along an edge into an op, not into {target}")
    made = ctx.outputs.get(target)
    if made is not None:
        _fits(fields["upstream"], ctx.node_shapes[made], (path, "upstream"), f"{target}'s output")
    scalar = not fields["shape"]
    if scalar and fields["contribution"] is None:
        fail((path, "contribution"), "a flow of shape () carries a number")
    if scalar and fields["local"] is not None and not isinstance(fields["upstream"], int | float):
        fail((path, "upstream"), "a scalar flow with a local derivative has a number upstream")


def real(value, path, ctx):
    """A finite number (an optimizer's learning rate, say)."""
    if isinstance(value, list) or value is None:
        fail(path, f"expected a number, got {_type(value)}")
    return _number(value, path)


# An optimizer step's rule (tracing/updates.py): its name and the hyperparameters it used.
RULE = {
    "optimizer": text,
    "lr": real,
    "momentum": real,
    "dampening": real,
    "nesterov": flag,
    "weight_decay": real,
    "betas": list_of(real, 2, 2),
    "eps": real,
    "amsgrad": flag,
    "maximize": flag,
    "decoupled_weight_decay": flag,
}


def teacher_answer(value, path, ctx):
    """A teacher's answer (Timeline.add_question): a number, text, or a list of either."""
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(v, int | float | str) and not isinstance(v, bool) for v in items):
        fail(path, f"expected a number, text or a list of them, got {short(value)}")
    return value


QUESTION = {
    "prompt": text,
    "answer": teacher_answer,
    "hint": text,
    "why": text,
    "choices": list_of(text),
}
DETAILS = {
    "graph": integer(0, _graphs),
    "grad": preview,
    "incoming": preview,
    "from_shape": shape,
    "to_shape": shape,
    "dims": list_of(integer(0, MAX_DIMS)),
    "from": one_or_more_nodes,
    "rule": optional(record(RULE, required=["optimizer"])),
    "set_to_none": flag,
    "type": text,
    "message": text,
    "questions": list_of(record(QUESTION, required=["prompt", "answer"])),
    "shared": node_refs,  # an accumulate's: the nodes whose .grad is the same memory
    # a backward step of an op with several outputs: [output node, the gradient it sent]
    "grads": list_of(pair(node_ref, preview)),
}
STEP = {
    "index": index_here,
    "phase": choice(PHASES),
    "kind": choice(STEP_KINDS),
    "caption": text,
    "nodes": node_refs,
    "edges": edge_indices,
    "source": optional(_SOURCE),
    "flows": list_of(check_flow),
    "changes": list_of(change),
    "details": record(DETAILS, required=["graph"]),
}
# What the views read of a step of each kind: its first nodes' kinds (None: any kind), and the
# details it must have. A kind not listed acts on one node or more.
STEP_NEEDS = {
    "op": (("op", None), ()),
    "backward": (("op",), ("grad",)),
    "seed": ((None,), ("grad",)),
    "accumulate": ((None,), ("grad", "incoming")),
    "reduce": ((None,), ("from_shape", "to_shape")),
    "detach": ((None,), ("from",)),
    "no_grad": ((None,), ("from",)),
    "constant": ((None,), ("from",)),
    "free": ((), ()),
    "error": ((), ("type", "message")),
}
# The change a step of these kinds makes first, to its first node (captions and the quiz read it).
FIRST_CHANGE = {"update": "value", "inplace": "value", "set_grad": "grad"}


# The traced code as written (tracing/source.py): the text the code panel shows, so that a
# loaded timeline never reads a file. Version 1 files have none.
CODE = {
    "file": file_name,
    "label": text,
    "lines": list_of(pair(integer(1), text)),
    "block": optional(list_of(integer(1), 2, 2)),
}

# Each table's checker, made once.
_NODE = record(NODE, required=[k for k in NODE if k not in NEWER])
_EDGE = record(EDGE, required=[k for k in EDGE if k != "kind"])
_STEP = record(STEP)
_CODE = list_of(record(CODE))

TOP = ("format", "version", "nodes", "edges", "steps", "code")  # loads checks format, version


_SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(doc) -> None:
    """Every string of the file is Unicode text: JSON can spell half of a UTF-16 pair alone
    ("\\ud800"), which no file, page or picture can hold."""
    stack = [(doc, "(top level)")]
    while stack:
        item, path = stack.pop()
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, value in pairs:
            if _halves(key):
                fail(path, f"the field {key!a} is named with {_halves(key)}")
            where = (path, key) if path != "(top level)" else key
            if _halves(value):
                fail(where, f"{ascii(value)[:40]} holds {_halves(value)}")
            if isinstance(value, dict | list):
                stack.append((value, where))


def _halves(text) -> str:
    """What is wrong with a string holding a lone surrogate ("" for any other value)."""
    if not isinstance(text, str) or text.isascii() or not _SURROGATE.search(text):
        return ""
    return f"{_SURROGATE.search(text).group()!a}, half of a UTF-16 pair: not text"


def document(doc: dict) -> dict:
    """Every record of a parsed timeline file checked, in file order."""
    for key in doc:
        if key not in TOP:
            fail("(top level)", f"unknown field {short(key)} (expected one of {list(TOP)})")
    for key in ("nodes", "edges", "steps"):
        if not isinstance(doc.get(key), list):
            fail(key, "missing" if key not in doc else f"expected a list, got {_type(doc[key])}")
    ctx = Context(doc)
    nodes = [check_node(n, ("nodes", i), ctx) for i, n in enumerate(doc["nodes"])]
    edges = [check_edge(e, ("edges", i), ctx) for i, e in enumerate(doc["edges"])]
    steps = [check_step(s, ("steps", i), ctx) for i, s in enumerate(doc["steps"])]
    code = _CODE(doc.get("code", []), "code", ctx)
    for i, node in enumerate(nodes):  # a graph's own nodes appear at its steps
        made_in = steps[node["step"]]["details"]["graph"]
        if node["graph"] not in (PERSISTENT, made_in):
            fail((("nodes", i), "graph"), f"expected {made_in} (its step's graph) or {PERSISTENT}")
    return {"nodes": nodes, "edges": edges, "steps": steps, "code": code}


def check_edge(value, path, ctx) -> dict:
    """A data edge joins a tensor and an op; a detach or untracked edge, two tensors."""
    if plain.edge(value, path[1], ctx.node_ids, ctx.counts["edges"]):
        fields = value  # what the table would return, as it is
    else:
        fields = _EDGE(value, path, ctx)
    source, target, kind = fields["source"], fields["target"], fields.get("kind", "data")
    ops = (ctx.node_kinds[source] == "op") + (ctx.node_kinds[target] == "op")
    if ops != (kind == "data"):
        joins = "a tensor and an op" if kind == "data" else "two tensors"
        fail(path, f"a {kind} edge joins {joins}, not {source} and {target}")
    if kind == "data" and ctx.node_kinds[source] == "op":
        ctx.outputs.setdefault(source, target)
    ctx.edge_targets.append(target)
    return fields


def check_node(value, path, ctx) -> dict:
    if plain.node(value, path[1], ctx.counts["steps"]):
        fields = value  # what the table would return, the shape made a tuple
        value["shape"] = tuple(value["shape"])
    else:
        fields = _NODE(value, path, ctx)
    if (fields["kind"] == "op") != (fields["op"] is not None):
        want = "PyTorch's node name" if fields["kind"] == "op" else "null"
        fail((path, "op"), f"a node of kind {fields['kind']!r} has op {want}")
    for key in ("value", "grad"):
        _fits(fields[key], fields["shape"], (path, key), "its tensor")
    ctx.node_kinds[fields["id"]] = fields["kind"]
    ctx.node_shapes[fields["id"]] = fields["shape"]
    return fields


def _fits(value, dims: list, path: str, what: str) -> None:
    """A node's preview has the node's shape (a number: a 0-d tensor), or is null."""
    if value is not None and preview_dims(value) != tuple(dims):
        have, want = _shape(preview_dims(value)), _shape(dims)
        fail(path, f"a preview of shape {have} for {what}, of shape {want}")


def _shape(dims) -> str:
    return "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"


def check_step(value, path, ctx) -> dict:
    if plain.step(value, path[1], ctx.node_ids, ctx.counts["edges"], ctx.counts["steps"]):
        fields = value  # what the table would return; then its checks across fields, in order
        for i, flow in enumerate(value["flows"]):
            flow["shape"] = tuple(flow["shape"])
            _flow_fits(flow, ((path, "flows"), i), ctx)
        for i, change in enumerate(value["changes"]):
            _change_fits(change, ((path, "changes"), i), ctx)
    else:
        fields = _STEP(value, path, ctx)
    across(fields, path, ctx)
    return fields


def across(fields: dict, path, ctx) -> None:
    """A step's checks across its fields: the nodes and details its kind needs, the gradients
    it carries fit their tensor, and the change it makes first."""
    kinds, details = STEP_NEEDS.get(fields["kind"], ((None,), ()))
    nodes = fields["nodes"]
    if len(nodes) < len(kinds):
        fail((path, "nodes"), f"a {fields['kind']!r} step acts on {len(kinds)} nodes or more")
    for i, (node_id, kind) in enumerate(zip(nodes, kinds, strict=False)):
        if kind is not None and ctx.node_kinds[node_id] != kind:
            fail(((path, "nodes"), i), f"a {fields['kind']!r} step acts on a node of kind {kind!r}")
    for key in details:
        if key not in fields["details"]:
            fail(((path, "details"), key), f"missing (a {fields['kind']!r} step has it)")
    _fits_its_node(fields, path, ctx)
    field = FIRST_CHANGE.get(fields["kind"])
    if field and (not fields["changes"] or fields["changes"][0][:2] != [nodes[0], field]):
        fail((path, "changes"), f"a {fields['kind']!r} step first changes its node's {field}")


def _fits_its_node(step: dict, path, ctx) -> None:
    """The gradients a step's details carry have the shape of the tensor they are for: the
    seeded or accumulated node's, or the output of the op backward passes through."""
    kind, details, nodes = step["kind"], step["details"], step["nodes"]
    if kind not in ("seed", "accumulate", "backward", "reduce"):
        return
    node = nodes[0] if kind != "backward" else ctx.outputs.get(nodes[0])
    dims = ctx.node_shapes[node] if node is not None else ()
    for key in ("grad", "incoming"):
        if key in details:
            _fits(details[key], dims, ((path, "details"), key), f"node {node}")
    for i, (output, grad) in enumerate(details.get("grads", ())):
        _fits(grad, ctx.node_shapes[output], (((path, "details"), "grads"), i), f"node {output}")
    if kind == "reduce" and tuple(details["to_shape"]) != tuple(dims):
        fail(((path, "details"), "to_shape"), f"a sum to the shape of node {node}, {_shape(dims)}")


def _position(path) -> int:
    """The index of the record a field's path is in."""
    while not isinstance(path[1], int):
        path = path[0]
    return path[1]


def _type(value) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "?")


def short(value) -> str:
    """A value for a message: short, and never the whole of a huge or deep one."""
    if isinstance(value, list | dict):
        return _type(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
