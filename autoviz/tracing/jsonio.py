"""Timelines as JSON (`autoviz-timeline` version 2): byte-stable out, validated in."""

import json
import math
from dataclasses import asdict

from ..errors import TimelineFormatError
from . import schema
from .model import Edge, Flow, Node, Source, Step
from .preview import Summary
from .source import CodeText
from .timeline import Timeline

FORMAT, VERSION = "autoviz-timeline", 2
# Version 2 added {"summary": ...} previews of large tensors and the traced code's text
# (`code`); a version 1 file reads as it was, without code.
READS = (1, 2)


def dumps(tl: Timeline) -> str:
    """Deterministic JSON: sorted keys, non-finite floats as {"float": "nan"}."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "nodes": [asdict(n) for n in tl.nodes],
        "edges": [asdict(e) for e in tl.edges],
        "steps": [asdict(s) for s in tl.steps],
        "code": [asdict(c) for c in tl.code],
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
    if type(obj) is Summary:
        return {"summary": _encode(obj.to_dict())}
    if isinstance(obj, dict):
        return {k: _encode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_encode(v) for v in obj]
    return obj


def loads(text) -> Timeline:
    """Parse and check every field (see schema.py); any problem raises TimelineFormatError
    naming the field, and nothing is returned half-loaded."""
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TimelineFormatError(f"not UTF-8 text ({error})") from None
    if not isinstance(text, str):
        raise TimelineFormatError(f"expected JSON text, got {type(text).__name__}")
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except TimelineFormatError:
        raise
    except RecursionError:
        raise TimelineFormatError("not a timeline: lists or objects nested too deeply") from None
    except ValueError as error:
        raise TimelineFormatError(f"not valid JSON ({error}); is the file truncated?") from None
    if not isinstance(doc, dict):
        schema.fail("(top level)", "expected a JSON object")
    if doc.get("format") != FORMAT:
        got = schema.short(doc.get("format"))
        schema.fail("format", f"expected {FORMAT!r}, got {got}: not an autoviz timeline")
    if doc.get("version") not in READS or isinstance(doc.get("version"), bool):
        want = " or ".join(map(str, READS))
        schema.fail("version", f"expected {want}, got {schema.short(doc.get('version'))}")
    return _timeline(schema.document(doc))


def _no_constant(name: str):
    raise TimelineFormatError(
        f'not valid JSON: {name} is not a JSON number; autoviz writes {{"float": "nan"}} '
        '(or "inf", "-inf")'
    )


def _timeline(doc: dict) -> Timeline:
    """The model's objects from checked fields."""
    nodes = [Node(**{**n, "shape": tuple(n["shape"])}) for n in doc["nodes"]]
    edges = [Edge(**e) for e in doc["edges"]]
    steps = []
    for s in doc["steps"]:
        source = None if s["source"] is None else Source(**s["source"])
        flows = [Flow(**{**f, "shape": tuple(f["shape"])}) for f in s["flows"]]
        steps.append(Step(**{**s, "source": source, "flows": flows}))
    tl = Timeline(nodes, edges, steps)
    tl._code = [CodeText(**c) for c in doc["code"]]
    return tl
