"""Timelines as JSON (`autoviz-timeline` version 1): byte-stable out, validated in."""

import json
import math
from dataclasses import asdict

from ..errors import TimelineFormatError
from .model import EDGE_KINDS, KINDS, PHASES, Edge, Flow, Node, Source, Step
from .timeline import Timeline

FORMAT, VERSION = "autoviz-timeline", 1
_CHANGE_FIELDS = ("grad", "value", "freed", "retains_grad", "error")


def dumps(tl: Timeline) -> str:
    """Deterministic JSON: sorted keys, non-finite floats as {"float": "nan"}."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "nodes": [asdict(n) for n in tl.nodes],
        "edges": [asdict(e) for e in tl.edges],
        "steps": [asdict(s) for s in tl.steps],
    }
    return json.dumps(_encode(doc), sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


def graph_dumps(graph) -> str:
    """One graph (a drawing or a snapshot) as JSON: the timeline's node and edge fields."""
    doc = {
        "format": "autoviz-graph",
        "version": VERSION,
        "nodes": [asdict(n) for n in graph.nodes],
        "edges": [asdict(e) for e in graph.edges],
        "backward_ran": graph.backward_ran,
        "current": list(graph.current),
    }
    return json.dumps(_encode(doc), sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


def _encode(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return {"float": str(obj)}
    if isinstance(obj, dict):
        return {k: _encode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_encode(v) for v in obj]
    return obj


def _decode(obj):
    if isinstance(obj, dict):
        if set(obj) == {"float"} and obj["float"] in ("nan", "inf", "-inf"):
            return float(obj["float"])
        return {k: _decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    return obj


def loads(text) -> Timeline:
    """Parse and validate; any problem raises TimelineFormatError naming the field."""
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as error:
        raise TimelineFormatError(f"not valid JSON ({error}); is the file truncated?") from None
    _require(isinstance(doc, dict), "(top level)", "expected a JSON object")
    _require(
        doc.get("format") == FORMAT,
        "format",
        f"expected {FORMAT!r}, got {doc.get('format')!r}: not an autoviz timeline",
    )
    _require(
        doc.get("version") == VERSION, "version", f"expected {VERSION}, got {doc.get('version')!r}"
    )
    doc = _decode(doc)
    nodes = [_node(n, f"nodes[{i}]") for i, n in enumerate(_list(doc, "nodes"))]
    ids = {n.id for n in nodes}
    edges = [_edge(e, f"edges[{i}]", ids) for i, e in enumerate(_list(doc, "edges"))]
    steps = [_step(s, f"steps[{i}]", ids, len(edges)) for i, s in enumerate(_list(doc, "steps"))]
    return Timeline(nodes, edges, steps)


def _require(ok: bool, path: str, message: str) -> None:
    if not ok:
        raise TimelineFormatError(f"{path}: {message}")


def _list(obj: dict, key: str, path: str = "") -> list:
    value = obj.get(key)
    _require(isinstance(value, list), f"{path}{key}", "missing or not a list")
    return value


def _field(obj, key, types, path):
    _require(isinstance(obj, dict), path, "expected an object")
    _require(key in obj, f"{path}.{key}", "missing")
    value = obj[key]
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in _tuple(types))
    _require(ok, f"{path}.{key}", f"expected {_type_names(types)}, got {type(value).__name__}")
    return value


def _optional(obj, key, types, default, path):
    """A field files written before it existed may lack: `default` then."""
    if isinstance(obj, dict) and key not in obj:
        return default
    return _field(obj, key, types, path)


def _tuple(types) -> tuple:
    return types if isinstance(types, tuple) else (types,)


def _type_names(types) -> str:
    return " or ".join(t.__name__ for t in _tuple(types))


def _node(obj, path: str) -> Node:
    kind = _field(obj, "kind", str, path)
    _require(kind in KINDS, f"{path}.kind", f"expected one of {list(KINDS)}, got {kind!r}")
    return Node(
        id=_field(obj, "id", str, path),
        kind=kind,
        name=_field(obj, "name", str, path),
        op=_field(obj, "op", (str, type(None)), path),
        shape=tuple(_field(obj, "shape", list, path)),
        dtype=_field(obj, "dtype", str, path),
        value=obj.get("value"),
        grad=obj.get("grad"),
        **{
            f: _field(obj, f, bool, path)
            for f in ("requires_grad", "retains_grad", "detached", "made_in_no_grad", "freed")
        },
        error=_optional(obj, "error", bool, False, path),
        graph=_field(obj, "graph", int, path),
        step=_field(obj, "step", int, path),
        module=_modules(_field(obj, "module", list, path), f"{path}.module"),
        saved=_saved(_field(obj, "saved", list, path), f"{path}.saved"),
    )


def _modules(pairs: list, path: str) -> list:
    for i, pair in enumerate(pairs):
        ok = isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        _require(ok, f"{path}[{i}]", "expected [module path, module type]")
    return pairs


def _saved(entries: list, path: str) -> list:
    for i, entry in enumerate(entries):
        p = f"{path}[{i}]"
        _field(entry, "name", str, p)
        _field(entry, "shape", list, p)
        _require("value" in entry, f"{p}.value", "missing")
    return entries


def _edge(obj, path: str, ids: set) -> Edge:
    edge = Edge(
        source=_field(obj, "source", str, path),
        target=_field(obj, "target", str, path),
        index=_field(obj, "index", int, path),
        id=_field(obj, "id", str, path),
        kind=_optional(obj, "kind", str, "data", path),
    )
    _require(
        edge.kind in EDGE_KINDS,
        f"{path}.kind",
        f"expected one of {list(EDGE_KINDS)}, got {edge.kind!r}",
    )
    for end in ("source", "target"):
        _require(getattr(edge, end) in ids, f"{path}.{end}", f"no node {getattr(edge, end)!r}")
    return edge


def _step(obj, path: str, ids: set, n_edges: int) -> Step:
    phase = _field(obj, "phase", str, path)
    _require(phase in PHASES, f"{path}.phase", f"expected one of {list(PHASES)}, got {phase!r}")
    nodes = _field(obj, "nodes", list, path)
    for i, node_id in enumerate(nodes):
        _require(node_id in ids, f"{path}.nodes[{i}]", f"no node {node_id!r}")
    edges = _field(obj, "edges", list, path)
    for i, e in enumerate(edges):
        _require(isinstance(e, int) and 0 <= e < n_edges, f"{path}.edges[{i}]", "no such edge")
    source = _source(obj.get("source"), f"{path}.source")
    changes = _field(obj, "changes", list, path)
    for i, change in enumerate(changes):
        ok = isinstance(change, list) and len(change) == 3 and change[0] in ids
        _require(
            ok and change[1] in _CHANGE_FIELDS,
            f"{path}.changes[{i}]",
            "expected [node id, field, value]",
        )
    flows = [
        _flow(f, f"{path}.flows[{i}]", n_edges)
        for i, f in enumerate(_field(obj, "flows", list, path))
    ]
    return Step(
        index=_field(obj, "index", int, path),
        phase=phase,
        kind=_field(obj, "kind", str, path),
        caption=_field(obj, "caption", str, path),
        nodes=nodes,
        edges=edges,
        source=source,
        flows=flows,
        changes=changes,
        details=_field(obj, "details", dict, path),
    )


def _source(src, path: str, caller: bool = True) -> Source | None:
    """A step's line of code, and the line that called its function (one level)."""
    if src is None:
        return None
    return Source(
        _field(src, "file", str, path),
        _field(src, "line", int, path),
        _field(src, "text", str, path),
        _source(src.get("caller"), f"{path}.caller", False) if caller else None,
    )


def _flow(obj, path: str, n_edges: int) -> Flow:
    edge = _field(obj, "edge", int, path)
    _require(0 <= edge < n_edges, f"{path}.edge", "no such edge")
    return Flow(
        edge,
        obj.get("upstream"),
        obj.get("local"),
        obj.get("contribution"),
        tuple(_field(obj, "shape", list, path)),
        obj.get("total"),
    )
