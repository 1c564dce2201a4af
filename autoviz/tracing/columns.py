"""Version 3 timeline files: each table of records written as columns, one list per field.

A column whose every value is the field's default is left out; ids and step indices are
positions, never written; the lines of code steps share are written once (`sources`) and each
step names its line by index; the gradient flows of every step are one table (`flows`), each
naming its step. What a long timeline costs to read and write is then one list
per field, not one object per record (issue 26 item 14: 89 s and 55 s for 100,000 ops).

`read` checks a file's columns a column at a time and returns the records only when every
field is plainly well-formed (what `write` produces); for any other file it returns None and
jsonio checks it record by record with schema's tables, which name what is wrong. So a file
loads as the same records, or is refused with the same message, whichever path it takes
(tests/test_timeline_json.py holds the two equal on fuzzed files).
"""

import math
from dataclasses import MISSING, fields
from itertools import chain, compress, repeat
from operator import add, and_, attrgetter, eq, is_not, itemgetter, le, methodcaller, ne, not_, or_

from ..errors import TimelineFormatError
from . import plain, schema
from .model import PERSISTENT, Edge, Flow, Node, Source, Step

# Each table's columns in the file: the record's fields but its position (id, index).
FLOW_FIELDS = tuple(f.name for f in fields(Flow))
COLUMNS = {
    "nodes": (Node, tuple(f.name for f in fields(Node) if f.name != "id")),
    "edges": (Edge, tuple(f.name for f in fields(Edge) if f.name != "id")),
    "steps": (Step, tuple(f.name for f in fields(Step) if f.name not in ("index", "flows"))),
    "flows": (Flow, ("step", *FLOW_FIELDS)),  # `step`: the index of the step it is in
}
_STR, _BOOL, _INT, _LIST = {str}, {bool}, {int}, {list}
_STR_OR_NONE, _INT_OR_NONE = {str, type(None)}, {int, type(None)}
_NUMBER = {int, float}
_SCALAR = {int, float, type(None)}  # a preview of shape (), or none


def _defaults(cls) -> dict:
    """Field name -> a function making its default (a fresh list or dict each call)."""
    out = {}
    for f in fields(cls):
        if f.default_factory is not MISSING:
            out[f.name] = f.default_factory
        elif f.default is not MISSING:
            out[f.name] = (lambda value: lambda: value)(f.default)
    return out


DEFAULTS = {table: _defaults(cls) for table, (cls, _) in COLUMNS.items()}
DEFAULTS["steps"]["caption"] = str  # Caption, a descriptor, stands for its default ""


# --- writing ------------------------------------------------------------------------------------


def write(tl) -> dict:
    """The document's tables as columns (json's encoder writes the Source records)."""
    sources, numbers = [], {}
    steps = _table("steps", tl.steps)
    if "source" in steps:  # else no step has a line of code
        steps["source"] = [_number(s, sources, numbers) for s in steps["source"]]
    flows = [flow for step in tl.steps for flow in step.flows]
    owners = [i for i, step in enumerate(tl.steps) for _ in step.flows]
    return {
        "nodes": _table("nodes", tl.nodes),
        "edges": _table("edges", tl.edges),
        "steps": steps,
        "flows": {"step": owners, **_table("flows", flows, FLOW_FIELDS)},
        "sources": sources,
        "code": tl.code,
    }


def _table(table: str, records: list, names: tuple = ()) -> dict:
    """The records' columns (all of the table's but those named), those holding only the
    default left out."""
    names = names or COLUMNS[table][1]
    rows = list(map(attrgetter(*names), records))
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(names)
    out = {}
    for name, column in zip(names, columns, strict=True):
        make = DEFAULTS[table].get(name)
        if make is None or column.count(make()) != len(column):
            out[name] = column
    return out


def _number(source, sources: list, numbers: dict):
    """A step's line as its index in `sources`, each line written once."""
    if source is None:
        return None
    number = numbers.get(id(source))
    if number is None:  # equal lines made apart are one entry too: the file is the same
        key = _key(source)
        number = numbers.get(key)
        if number is None:
            number = numbers[key] = len(sources)
            sources.append(source)
        numbers[id(source)] = number
    return number


def _key(source) -> tuple:
    caller = source.caller
    return (source.file, source.line, source.text, None if caller is None else _key(caller))


# --- reading: the shape every path needs -------------------------------------------------------


def tables(doc: dict) -> dict:
    """Each table's columns, every field present (a left-out column made of its default):
    refuses a table that is not columns of one length, naming it."""
    out = {}
    for table, (_, names) in COLUMNS.items():
        columns = doc.get(table)
        if not isinstance(columns, dict):
            got = schema._type(columns)
            schema.fail(table, "missing" if table not in doc else f"expected columns, got {got}")
        for name in columns:
            if name not in names:
                wanted = f"(expected one of {list(names)})"
                schema.fail(table, f"unknown column {schema.short(name)} {wanted}")
        out[table] = _filled(table, columns, names)
    sources = doc.get("sources", [])
    if not isinstance(sources, list):
        schema.fail("sources", f"expected a list, got {schema._type(sources)}")
    return out


def _filled(table: str, columns: dict, names: tuple) -> dict:
    length = None
    for name in names:
        column = columns.get(name)
        if name not in columns:
            if name not in DEFAULTS[table]:
                schema.fail((table, name), "missing")
            continue
        if not isinstance(column, list):
            schema.fail((table, name), f"expected a list (a column), got {schema._type(column)}")
        if length is None:
            length, first = len(column), name
        elif len(column) != length:
            schema.fail((table, name), f"{len(column)} values, where {table}.{first} has {length}")
    length = length or 0
    return {
        name: columns[name] if name in columns else _fresh(DEFAULTS[table][name], length)
        for name in names
    }


def _fresh(make, length: int) -> list:
    """A left-out column: its default as the file would spell it (a tuple as a list), a new
    list or object for each record (loading fills them in)."""
    value = make()
    if type(value) is tuple:  # one list for all: read, never kept (the model holds a tuple)
        return [list(value)] * length
    if type(value) is list:
        return [list(value) for _ in range(length)]
    if type(value) is dict:
        return [dict(value) for _ in range(length)]
    return [value] * length


def records(doc: dict, columns: dict) -> dict:
    """The file as version 2 lays it out (a list of records per table, each line of code in
    its steps, checked and named there: steps[3].source.file), for schema's tables to check
    record by record. A line no step names is checked here (and then left out)."""
    sources = doc.get("sources", [])
    out = {"code": doc.get("code", [])}
    for table, (_, names) in COLUMNS.items():
        rows = zip(*(columns[table][name] for name in names), strict=True)
        out[table] = [dict(zip(names, row, strict=True)) for row in rows]
    for i, record in enumerate(out["nodes"]):
        record["id"] = f"n{i + 1}"
    for i, record in enumerate(out["edges"]):
        record["id"] = f"e{i + 1}"
    for i, step in enumerate(out["steps"]):
        step["index"] = i
        step["source"] = _line(step["source"], sources, (("steps", i), "source"))
        step["flows"] = []
    for i, flow in enumerate(out.pop("flows")):  # each into its step, in the file's order
        owner = flow.pop("step")
        if type(owner) is not int or not 0 <= owner < len(out["steps"]):
            last = len(out["steps"]) - 1
            schema.fail(
                (("flows", i), "step"),
                f"expected a step's index (0 to {last}), got {schema.short(owner)}",
            )
        out["steps"][owner]["flows"].append(flow)
    used = set(columns["steps"]["source"])
    for i, line in enumerate(sources):
        if i not in used:
            schema._SOURCE(line, ("sources", i), None)
    return out


def _line(number, sources: list, path):
    """A step's line of code from its index in `sources` (copied: loading fills it in)."""
    if number is None:
        return None
    if type(number) is not int or not 0 <= number < len(sources):
        within = f"0 to {len(sources) - 1}" if sources else "sources is empty"
        got = schema.short(number)
        schema.fail(path, f"expected an index into sources ({within}) or null, got {got}")
    line = sources[number]
    if not isinstance(line, dict):
        return line  # the step's table names what it is
    line = dict(line)
    if isinstance(line.get("caller"), dict):
        line["caller"] = dict(line["caller"])
    return line


# --- reading: the fast path --------------------------------------------------------------------


class _Plain(Exception):
    """Raised inside `read` when a field is not plainly well-formed: schema's tables decide."""


def read(doc: dict, columns: dict):
    """(nodes, edges, steps) as records when every column is plainly well-formed, else None."""
    try:
        return _read(doc, columns)
    except (_Plain, TimelineFormatError, TypeError, KeyError):  # an unhashable or unknown id
        return None


def _read(doc: dict, columns: dict):
    n, e, s, f = (dict(columns[t]) for t in COLUMNS)  # the columns stay as they were read
    count = len(n["kind"]), len(e["source"]), len(s["phase"])
    ids = list(map("n{}".format, range(1, count[0] + 1)))
    sources = [_source(line) for line in doc.get("sources", [])]
    _ok(_types(n["shape"], _LIST))
    shapes = list(map(tuple, n["shape"]))
    ctx = _context(ids, shapes, n, e, count[2])
    _ok(_types(s["details"], {dict}))
    graphs = list(map(methodcaller("get", "graph"), s["details"]))  # each step's graph
    _nodes(n, ctx, shapes, graphs)
    _edges(e, ctx)
    _steps(s, ctx, len(sources), graphs)
    flows = _flows(f, ctx)
    return (
        _made(Node, n, {"id": ids, "shape": shapes}),
        _made(Edge, e, {"id": list(map("e{}".format, range(1, count[1] + 1)))}),
        _steps_made(s, sources, flows, f["step"]),
    )


def _ok(condition) -> None:
    if not condition:
        raise _Plain


def _types(column, allowed: set) -> bool:
    return set(map(type, column)) <= allowed


def _ints(column, low: int, high: int) -> bool:
    """Ints (not bools) from low to high."""
    return _types(column, _INT) and (not column or (low <= min(column) and max(column) <= high))


def _context(ids: list, shapes: list, n: dict, e: dict, steps: int) -> schema.Context:
    """schema's Context, filled a column at a time (its cross-record checks read it)."""
    ctx = schema.Context.__new__(schema.Context)
    ctx.counts = {"nodes": len(ids), "edges": len(e["source"]), "steps": steps}
    ctx.node_ids = set(ids)
    ctx.node_kinds = dict(zip(ids, n["kind"], strict=True))
    ctx.node_shapes = dict(zip(ids, shapes, strict=True))
    ctx.edge_targets = e["target"]
    ctx.outputs = {}
    return ctx


def _nodes(n: dict, ctx, shapes: list, made_in: list) -> None:
    steps = ctx.counts["steps"]
    kinds, ops = n["kind"], n["op"]
    _ok(_types(kinds, _STR) and set(kinds) <= plain._KINDS)
    _ok(_types(n["name"], _STR) and _types(n["dtype"], _STR) and _types(ops, _STR_OR_NONE))
    _ok(all(map(eq, map(eq, kinds, repeat("op")), map(is_not, ops, repeat(None)))))
    for flag in ("requires_grad", "retains_grad", "detached", "made_in_no_grad", "freed", "error"):
        _ok(_types(n[flag], _BOOL))
    _ok(_ints(n["graph"], -1, steps) and _ints(n["step"], 0, steps - 1))
    _ok(all(map(plain.sizes, filter(None, n["shape"]))))  # filter: a call for a non-scalar only
    for key in ("value", "grad"):
        n[key] = _previews(n[key], key)
        _ok(_all_fit(n[key], shapes))
    _ok(_types(n["module"], _LIST) and _types(n["saved"], _LIST))
    _ok(all(map(plain._text_pairs, filter(None, n["module"]))))
    _ok(_saved(list(chain.from_iterable(n["saved"]))))
    _ok(_types(n["params"], {dict}) and all(map(plain._params, filter(None, n["params"]))))
    graphs = n["graph"]  # each PERSISTENT or its step's graph
    _ok(
        all(
            map(
                or_,
                map(eq, graphs, repeat(PERSISTENT)),
                map(eq, graphs, map(made_in.__getitem__, n["step"])),
            )
        )
    )


def _saved(items: list) -> bool:
    """The saved tensors of every node (plain._saved of each), a column at a time."""
    if not _types(items, {dict}) or not all(
        map(eq, map(dict.keys, items), repeat(plain.SAVED_KEYS))
    ):
        return False
    shapes = list(map(itemgetter("shape"), items))
    values = list(map(itemgetter("value"), items))
    return (
        _types(map(itemgetter("name"), items), _STR)
        and all(map(plain.sizes, shapes))
        and (_plain_scalars(values) or all(map(plain.preview, values)))
    )


def _previews(column: list, key: str) -> list:
    """A node's previews as the model holds them: a nan, or a large tensor's summary, checked
    by schema (a new list: the file's own stays for schema's tables, should they be needed)."""
    if _plain_scalars(column) or all(map(plain.preview, column)):
        return column
    return [x if plain.preview(x) else schema.preview(x, key, None) for x in column]


def _plain_scalars(column: list) -> bool:
    """Every preview null or a finite float, read without a call each: a sum of floats is
    finite only when each is (an inf or nan stays in it)."""
    if not set(map(type, column)) <= {float, type(None)}:
        return False
    return math.isfinite(sum(filter(None, column), 0.0))


_NO_SHAPE = object()


def _all_fit(previews: list, shapes, anything=_NO_SHAPE) -> bool:
    """Each preview null or of its tensor's shape (a number: shape ()), as schema._fits; a
    shape that is `anything` fits every preview."""
    shapes = list(shapes)
    if not any(shapes) and set(map(type, previews)) <= _SCALAR:
        return True  # numbers and nulls, each for a tensor of shape () (or of any shape)
    dims = schema.preview_dims
    return all(
        p is None or shape is anything or (not shape if type(p) in _NUMBER else dims(p) == shape)
        for p, shape in zip(previews, shapes, strict=True)
    )


def _edges(e: dict, ctx) -> None:
    sources, targets, kinds = e["source"], e["target"], e["kind"]
    _ok(_types(sources, _STR) and _types(targets, _STR) and _types(kinds, _STR))
    # An id that is no node's is a KeyError below: `read` leaves the file to the tables.
    _ok(_ints(e["index"], 0, ctx.counts["edges"]) and set(kinds) <= plain._EDGE_KINDS)
    op = ctx.node_kinds.__getitem__
    from_op = list(map(eq, map(op, sources), repeat("op")))
    ops = map(add, from_op, map(eq, map(op, targets), repeat("op")))
    data = list(map(eq, kinds, repeat("data")))
    _ok(all(map(eq, ops, data)))
    outputs = compress(zip(sources, targets, strict=True), map(and_, from_op, data))
    ctx.outputs = dict(reversed(list(outputs)))  # an op's first data edge out: its tensor


def _steps(s: dict, ctx, lines: int, graphs: list) -> None:
    edges = ctx.counts["edges"]
    _ok(_types(s["phase"], _STR) and set(s["phase"]) <= plain._PHASES)
    _ok(_types(s["kind"], _STR) and set(s["kind"]) <= plain._STEP_KINDS)
    _ok(_types(s["caption"], _STR) and _types(s["nodes"], _LIST) and _types(s["edges"], _LIST))
    _ok(all(map(ctx.node_ids.issuperset, s["nodes"])))
    _ok(_ints(list(chain.from_iterable(s["edges"])), 0, edges - 1))
    numbers = [x for x in s["source"] if x is not None]
    _ok(_types(s["source"], _INT_OR_NONE) and _ints(numbers, 0, lines - 1))
    _ok(_types(s["changes"], _LIST) and _changes(list(chain.from_iterable(s["changes"])), ctx))
    _ok(_ints(graphs, 0, ctx.counts["steps"]))  # details.graph, each
    more = compress(s["details"], map(ne, map(len, s["details"]), repeat(1)))  # than a graph
    _ok(all(map(plain._details, more, repeat(ctx.node_ids), repeat(ctx.counts["steps"]))))
    _across(s, ctx)


def _changes(items: list, ctx) -> bool:
    """plain._change and schema._change_fits of every step's changes, a column at a time."""
    if not _types(items, _LIST) or not all(map(eq, map(len, items), repeat(3))):
        return False
    ids, names, values = (list(map(itemgetter(k), items)) for k in range(3))
    if not (_types(ids, _STR) and ctx.node_ids.issuperset(ids) and _types(names, _STR)):
        return False
    grads = list(map(plain._PREVIEWS.__contains__, names))  # a grad or value; else a flag
    flags = list(map(not_, grads))
    if not set(compress(names, flags)) <= plain._CHANGE_FLAGS:
        return False
    previews = list(compress(values, grads))
    shapes = map(ctx.node_shapes.__getitem__, compress(ids, grads))
    return (
        _types(compress(values, flags), _BOOL)
        and (_plain_scalars(previews) or all(map(plain.preview, previews)))
        and _all_fit(previews, shapes)
    )


def _flows(f: dict, ctx) -> list:
    """The flows' columns checked as schema.check_flow checks each flow (its table, then
    _flow_fits), and the Flow records they make."""
    steps, edges = ctx.counts["steps"], ctx.counts["edges"]
    _ok(_ints(f["step"], 0, steps - 1) and _ints(f["edge"], 0, edges - 1))
    _ok(_types(f["shape"], _LIST) and all(map(plain.sizes, filter(None, f["shape"]))))
    shapes = list(map(tuple, f["shape"]))
    for key in ("upstream", "local", "contribution", "total"):
        f[key] = _previews(f[key], key)
    _ok(all(_all_fit(f[key], shapes) for key in ("contribution", "total", "local")))
    targets = list(map(ctx.edge_targets.__getitem__, f["edge"]))
    _ok(set(map(ctx.node_kinds.__getitem__, targets)) <= {"op"})  # a flow goes into an op
    made = map(ctx.node_shapes.get, map(ctx.outputs.get, targets))  # None: the op made none
    _ok(_all_fit(f["upstream"], made, anything=None))
    scalar = zip(shapes, f["contribution"], f["local"], f["upstream"], strict=True)
    for shape, contribution, local, up in scalar:
        if not shape and (contribution is None or (local is not None and type(up) not in _NUMBER)):
            raise _Plain  # a scalar flow carries a number; with a local derivative, upstream too
    return list(
        map(Flow, f["edge"], f["upstream"], f["local"], f["contribution"], shapes, f["total"])
    )


def _across(s: dict, ctx) -> None:
    """schema.across of every step; those of the two commonest kinds (an op; a backward step
    with numbers or nulls for its gradients) checked a column at a time, as it would be."""
    names = ("kind", "nodes", "changes", "details")
    kinds = s["kind"]
    plainly = {kind for kind in ("op", "backward") if _plainly(kind, s, ctx)}
    rows = zip(*map(s.__getitem__, names), strict=True)
    for i, row in compress(enumerate(rows), map(not_, map(plainly.__contains__, kinds))):
        schema.across(dict(zip(names, row, strict=True)), ("steps", i), ctx)


def _plainly(kind: str, s: dict, ctx) -> bool:
    """Every step of this kind passes schema.across (False: not known, each is checked)."""
    of_kind = list(map(eq, s["kind"], repeat(kind)))
    nodes = list(compress(s["nodes"], of_kind))
    least = 2 if kind == "op" else 1  # STEP_NEEDS: an op's op node and its output
    if not all(map(le, repeat(least), map(len, nodes))):
        return False
    firsts = list(map(itemgetter(0), nodes))
    if not set(map(ctx.node_kinds.__getitem__, firsts)) <= {"op"}:
        return False
    if kind == "op":
        return True
    details = list(compress(s["details"], of_kind))
    made = map(ctx.node_shapes.get, map(ctx.outputs.get, firsts))  # None: the op made none
    grads = list(map(methodcaller("get", "grad", ...), details))  # ...: missing
    incoming = map(methodcaller("get", "incoming"), details)
    return (
        ... not in grads
        and not any(made)
        and set(map(type, grads)) <= _SCALAR
        and set(map(type, incoming)) <= _SCALAR
    )


def _source(line):
    """A line of `sources` as the model's Source, when plainly well-formed."""
    _ok(plain._source(line) and line is not None)
    caller = line["caller"]
    return Source(**{**line, "caller": None if caller is None else Source(**caller)})


def _made(cls, columns: dict, extra: dict) -> list:
    """The records of a checked table, each holding its fields as they are: the dataclass's
    own __init__ mapped over the columns (a call per record, no mapping of arguments made)."""
    names = (f.name for f in fields(cls))
    return list(map(cls, *(extra[name] if name in extra else columns[name] for name in names)))


def _steps_made(s: dict, sources: list, flows: list, owners: list) -> list:
    lines = [None if x is None else sources[x] for x in s["source"]]
    each = [[] for _ in lines]
    for owner, flow in zip(owners, flows, strict=True):
        each[owner].append(flow)
    return _made(Step, s, {"index": range(len(lines)), "source": lines, "flows": each})
