"""Timelines as JSON (`autoviz-timeline` version 3): byte-stable out, validated in."""

import dataclasses
import json
import re

from ..collector import collector_paused
from ..errors import TimelineFormatError
from . import columns, schema
from .model import Edge, Flow, Node, Source, Step
from .preview import Summary
from .source import CodeText
from .timeline import Timeline

FORMAT, VERSION = "autoviz-timeline", 3
# Version 2 added {"summary": ...} previews of large tensors and the traced code's text
# (`code`); version 3 writes each table as columns (columns.py). Older files read as they were.
READS = (1, 2, 3)
GRAPH_VERSION = 2  # one graph's file (graph_dumps): records, as version 2 wrote them
# A version 3 file's fields (loads checks format and version first).
TOP = ("format", "version", "nodes", "edges", "steps", "flows", "sources", "code")


def dumps(tl: Timeline) -> str:
    """Deterministic JSON: sorted keys, non-finite floats as {"float": "nan"}."""
    with collector_paused():  # the columns are a copy of every field: nothing to free
        return _dumps({"format": FORMAT, "version": VERSION, **columns.write(tl)})


def graph_dumps(graph) -> str:
    """One graph (a drawing or a snapshot) as JSON: the timeline's node and edge fields."""
    return _dumps(
        {
            "format": "autoviz-graph",
            "version": GRAPH_VERSION,
            "nodes": graph.nodes,
            "edges": graph.edges,
            "backward_ran": graph.backward_ran,
            "current": list(graph.current),
        }
    )


# A JSON string, or a non-finite number as json writes it (only those are respelled).
_STRING_OR_NON_FINITE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?Infinity|NaN')
_SPELLED = {
    "NaN": '{"float":"nan"}',
    "Infinity": '{"float":"inf"}',
    "-Infinity": '{"float":"-inf"}',
}


def _dumps(doc: dict) -> str:
    """The document with its records (dataclasses) as objects of their fields, in one pass of
    json's C encoder: linear in the file's size, with no copy of the records made first."""
    with collector_paused():  # it would walk the records again and again, freeing nothing
        text = json.dumps(
            doc, default=_fields, sort_keys=True, separators=(",", ":"), check_circular=False
        )
    if "NaN" in text or "Infinity" in text:  # seldom: a value or grad that is nan or inf
        text = _STRING_OR_NON_FINITE.sub(lambda m: _SPELLED.get(m.group(), m.group()), text)
    return text + "\n"


_FIELDS = {}  # record class -> its field names


def _fields(record) -> dict:
    """A model record (Node, Edge, Source, CodeText) as {field: value}; a large tensor's
    Summary as {"summary": {...}}. A record's own __dict__ is that mapping (the encoder sorts
    the keys) when it holds its fields only: no dict is built per record."""
    if type(record) is Summary:
        return {"summary": record.to_dict()}
    names = _FIELDS.get(type(record))
    if names is None:
        names = _FIELDS[type(record)] = _field_names(record)
    own = record.__dict__
    if len(own) == len(names):
        return own
    return {name: getattr(record, name) for name in names}


def _field_names(record) -> tuple:
    if not dataclasses.is_dataclass(record) or isinstance(record, type):
        raise TypeError(f"Object of type {type(record).__name__} is not JSON serializable")
    return tuple(f.name for f in dataclasses.fields(record))


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
        with collector_paused():
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
    halves = not text.isascii() or "\\ud" in text or "\\uD" in text  # a lone surrogate?
    with collector_paused():  # the records stay: collecting would walk them again and again
        if doc["version"] == 3:
            return _columns(doc, halves)
        if halves:
            schema.unicode_text(doc)
        return _timeline(schema.document(doc))


def _columns(doc: dict, halves: bool) -> Timeline:
    """A version 3 file: checked a column at a time when plainly well-formed (what dumps
    writes), else record by record, which names what is wrong (a string that may hold half
    of a UTF-16 pair too, named by its record: steps[1].caption)."""
    for key in doc:
        if key not in TOP:
            schema.fail(
                "(top level)", f"unknown field {schema.short(key)} (expected one of {list(TOP)})"
            )
    tables = columns.tables(doc)
    made = None if halves else columns.read(doc, tables)
    if made is None:
        records = columns.records(doc, tables)
        if halves:
            schema.unicode_text(records)
        return _timeline(schema.document(records))
    tl = Timeline(*made)
    tl._code = [CodeText(**c) for c in schema._CODE(doc.get("code", []), "code", None)]
    return tl


def _no_constant(name: str):
    raise TimelineFormatError(
        f'not valid JSON: {name} is not a JSON number; autoviz writes {{"float": "nan"}} '
        '(or "inf", "-inf")'
    )


def _source(fields: dict) -> Source:
    caller = fields.get("caller")
    fields["caller"] = None if caller is None else _record(Source, caller)
    return _record(Source, fields)


def _timeline(doc: dict) -> Timeline:
    """The model's objects from checked fields."""
    nodes = [_record(Node, n) for n in doc["nodes"]]
    edges = [_record(Edge, e) for e in doc["edges"]]
    for s in doc["steps"]:
        s["source"] = None if s["source"] is None else _source(s["source"])
        s["flows"] = [_record(Flow, f) for f in s["flows"]]
    tl = Timeline(nodes, edges, [Step(**s) for s in doc["steps"]])  # its caption: Caption's
    tl._code = [CodeText(**c) for c in doc["code"]]
    return tl


_COUNTS = {cls: len(dataclasses.fields(cls)) for cls in (Node, Edge, Source, Flow)}


def _record(cls, fields: dict):
    """A record of checked fields: with all of them, they are its attributes as they are
    (__init__ would copy them one by one, a fifth of loading); a record of an older file,
    which lacks a newer field, gets its default from __init__."""
    if len(fields) != _COUNTS[cls]:
        return cls(**fields)
    record = object.__new__(cls)
    record.__dict__ = fields
    return record
