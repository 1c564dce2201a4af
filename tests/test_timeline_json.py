"""Timeline files as untrusted input: every field checked, never a crash or a half-load.

The fuzz test mutates real timelines (the lesson example, an MLP trained for two steps, a loop
rebinding a variable with no_grad, detach and retain_grad) and requires of each mutant either
TimelineFormatError, or that every view of it works.
"""

import copy
import functools
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import autoviz
from autoviz.errors import TimelineFormatError
from autoviz.tracing import columns, plain, schema
from autoviz.tracing.explain import explain
from autoviz.tracing.model import Edge, Flow, Node, Source, Step
from conftest import as_columns, as_records, lesson_timeline, loop_timeline, mlp_timeline


def freed_graph_timeline():
    """Backward into a graph already freed: the learner's RuntimeError of lesson 4, which
    leaves a gradient flow along an edge from one graph into the next."""
    w = autoviz.tensor(0.5, requires_grad=True)
    with autoviz.trace() as tl:
        h = w * 2
        h.backward()
        loss = h * 3
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            loss.backward()
    return tl


def error_timeline():
    """A program that raises: its timeline ends with an error step, the failing op red."""
    w = autoviz.ones(3, 2, requires_grad=True)
    with pytest.raises(RuntimeError), autoviz.trace() as tl:
        h = autoviz.ones(4, 3) @ w
        h @ w
    return tl


@functools.cache
def texts() -> dict:
    return {
        "lesson": lesson_timeline().to_json(),
        "mlp": mlp_timeline().to_json(),
        "loop": loop_timeline().to_json(),
        "freed": freed_graph_timeline().to_json(),
        "error": error_timeline().to_json(),
    }


@functools.cache
def records_texts() -> dict:
    """The same timelines as version 2 wrote them: a list of records per table."""
    return {name: json.dumps(as_records(text)) for name, text in texts().items()}


def load(text):
    return autoviz.Timeline.from_json(text)


def mutated(name: str, change) -> str:
    """A real timeline edited record by record, as a version 2 file."""
    doc = as_records(texts()[name])
    change(doc)
    return json.dumps(doc)


def both_layouts(text) -> list:
    """A version 2 file, and the same written as version 3's columns where that can say it
    (`as_columns`): each must load alike, or be refused naming the same field."""
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return [text]
    again = as_columns(doc) if isinstance(doc, dict) and doc.get("version") == 2 else None
    return [text] if again is None else [text, again]


def nest(value, depth: int):
    for _ in range(depth):
        value = [value]
    return value


def test_the_real_timelines_load_and_write_back_byte_for_byte():
    for name, text in texts().items():
        assert load(text).to_json() == text, name
    kinds = {s["kind"] for text in texts().values() for s in as_records(text)["steps"]}
    assert {"leaf", "op", "seed", "backward", "accumulate", "free", "zero_grad"} <= kinds
    assert {"update", "detach", "no_grad", "constant", "retain_grad", "set_grad"} <= kinds
    assert "error" in kinds


def test_every_view_works_after_backward_into_a_freed_graph(tmp_path, pure_engine):
    every_view_works(load(texts()["freed"]), tmp_path)


def test_every_model_field_has_a_row_in_the_schema():
    """A field added to the model must be added to the checks too (or loading would drop it)."""
    assert set(schema.NODE) == set(Node.__dataclass_fields__)
    assert set(schema.EDGE) == set(Edge.__dataclass_fields__)
    assert set(schema.STEP) == set(Step.__dataclass_fields__)
    assert set(schema.FLOW) == set(Flow.__dataclass_fields__)
    assert set(schema.SOURCE) == set(Source.__dataclass_fields__)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a":' * 100_000, "nested too deeply"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value=nest(1.0, 600))), "nodes[0].value"),
        (mutated("lesson", lambda d: d["nodes"][0].update(id=["n1"])), "nodes[0].id"),
        (mutated("lesson", lambda d: d["edges"][0].update(source=["n1"])), "edges[0].source"),
        (mutated("lesson", lambda d: d["steps"][0]["nodes"].append({})), "steps[0].nodes[1]"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value="2.0")), "nodes[0].value"),
        (mutated("lesson", lambda d: d["steps"][11]["changes"].append({})), "steps[11].changes[2]"),
        (mutated("lesson", lambda d: d["steps"][11]["changes"][0].append(1)), "changes[0]"),
        (mutated("lesson", lambda d: d["nodes"][2].update(freed="yes")), "nodes[2].freed"),
        (mutated("lesson", lambda d: d["steps"][2].update(index=99)), "steps[2].index"),
        (mutated("lesson", lambda d: d["nodes"][2].update(step=12)), "nodes[2].step"),
        (mutated("lesson", lambda d: d["steps"][2]["details"].update(graph=[0])), "details.graph"),
        (mutated("lesson", lambda d: d["nodes"][2].update(op=None)), "nodes[2].op"),
        (mutated("lesson", lambda d: d["nodes"][0].update(op="MulBackward0")), "nodes[0].op"),
        (mutated("lesson", lambda d: d["nodes"][0].update(shape=[-1])), r"nodes[0].shape[0]"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value=[1.0, 2.0])), "nodes[0].value"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value=[[1.0], [1.0, 2]])), "value[0]"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value=[[1.0], 2.0])), "nodes[0].value"),
        (mutated("lesson", lambda d: d["nodes"][0].update(value={"float": "1e9"})), "value"),
        (mutated("lesson", lambda d: d["nodes"][0].update(graph=10**20)), "nodes[0].graph"),
        (mutated("lesson", lambda d: d["nodes"][5].update(graph=1)), "nodes[5].graph: expected 0"),
        (mutated("lesson", lambda d: d["nodes"][0].update(requires_grad=1)), "requires_grad"),
        (mutated("lesson", lambda d: d["nodes"][0].update(module=[["net"]])), "nodes[0].module[0]"),
        (mutated("lesson", lambda d: d["nodes"][0].update(extra=1)), "unknown field 'extra'"),
        (mutated("lesson", lambda d: d["nodes"][0].pop("name")), "nodes[0].name: missing"),
        (mutated("lesson", lambda d: d["edges"][0].update(id='e1" URL="js:x')), "edges[0].id"),
        (mutated("lesson", lambda d: d["edges"][1].update(id="e1")), "edges[1].id"),
        (mutated("lesson", lambda d: d["edges"][0].update(index=True)), "edges[0].index"),
        (mutated("lesson", lambda d: d["steps"][8]["flows"][0].update(edge=6)), "flows[0].edge"),
        (mutated("lesson", lambda d: d["steps"][8]["flows"][0].update(upstream="1")), "upstream"),
        (mutated("lesson", lambda d: d["steps"][8].update(nodes=[])), "steps[8].nodes"),
        (mutated("lesson", lambda d: d["steps"][8].update(nodes=["n1"])), "steps[8].nodes[0]"),
        (mutated("lesson", lambda d: d["steps"][8]["details"].pop("grad")), "details.grad"),
        (mutated("lesson", lambda d: d["steps"][8].update(source={"file": 1})), "source.file"),
        (mutated("lesson", lambda d: d["steps"][8].update(kind="explode")), "steps[8].kind"),
        (mutated("lesson", lambda d: d["steps"][8].update(edges=[-1])), "steps[8].edges[0]"),
        (mutated("lesson", lambda d: d.update(nodes={})), "nodes: expected a list"),
        (texts()["lesson"].replace('"value":2.0', '"value":NaN', 1), "NaN is not a JSON number"),
        (texts()["lesson"][:-40], "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (None, "expected JSON text"),
    ],
)
def test_each_bad_field_is_named(text, message):
    for each in both_layouts(text):
        with pytest.raises(TimelineFormatError) as raised:
            load(each)
        assert message in str(raised.value)


ACCUMULATE = 18  # the mlp timeline's first accumulate step (net.2.bias.grad, shape (1,))


def test_a_bad_field_deep_in_the_file_is_named_by_its_path():
    assert as_records(texts()["mlp"])["steps"][ACCUMULATE]["kind"] == "accumulate"
    text = mutated(
        "mlp", lambda d: d["steps"][ACCUMULATE]["changes"][0].__setitem__(2, [[1.0, "x"]])
    )
    assert len(both_layouts(text)) == 2
    for each in both_layouts(text):
        with pytest.raises(
            TimelineFormatError, match=r"^steps\[18\]\.changes\[0\]\[2\]\[0\]\[1\]: "
        ):
            load(each)


def test_a_grad_of_another_shape_than_its_tensor_is_refused():
    text = mutated("mlp", lambda d: d["steps"][ACCUMULATE]["changes"][0].__setitem__(2, [1.0, 2.0]))
    for each in both_layouts(text):
        with pytest.raises(TimelineFormatError, match=r"steps\[18\]\.changes\[0\]\[2\]: .*\(2,\)"):
            load(each)


def test_non_finite_numbers_are_decoded_only_where_numbers_belong():
    for each in both_layouts(
        mutated("lesson", lambda d: d["nodes"][0].update(value={"float": "-inf"}))
    ):
        assert load(each).nodes[0].value == float("-inf")
    bad = mutated("lesson", lambda d: d["nodes"][0].update(name={"float": "nan"}))
    with pytest.raises(TimelineFormatError, match=r"nodes\[0\]\.name: expected a string"):
        load(bad)


# --- the fuzz test ------------------------------------------------------------------------------

HOSTILE = [
    '"><script>alert(1)</script>',
    '" URL="javascript:alert(1)" x="',
    ']; n1 -> n2 [URL="https://example.com/x.svg"]; x [',
    "<img src=x onerror=alert(1)>",
    "&amp;&lt;{{css}}</style>",
    "\u202eevil\u202c",
    'a\\"b',
    "esc\x1b[31m nul\x00 vt\x0b ff\x0c \ufffe\uffff",
    "lone \ud800 surrogate",
    "x" * 20_000,
    "",
]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.sampled_from([10**20, -(10**20), 2**63]),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([{"float": "nan"}, {"float": "inf"}, {"float": "-inf"}, {"float": "x"}]),
    st.sampled_from(["n1", "n2", "n5", "n999", "e1", "e3", "forward", "backward", "op", "leaf"]),
    st.sampled_from(HOSTILE),
    st.text(max_size=8),
    st.lists(st.integers(0, 3), max_size=3),
    st.lists(st.floats(-2, 2), min_size=1, max_size=3),
    st.just([[1.0, 2.0], [3.0, 4.0]]),
    st.just({}),
    st.just(nest(0.5, 70)),
)


def _slots(doc) -> tuple[list, list]:
    """Every list and object in `doc`, and every (container, key) holding a number, string,
    boolean or null, in document order."""
    containers, leaves, stack = [], [], [doc]
    while stack:
        item = stack.pop()
        containers.append(item)
        keys = sorted(item) if isinstance(item, dict) else range(len(item))
        for key in keys:
            child = item[key]
            if isinstance(child, dict | list):
                stack.append(child)
            else:
                leaves.append((item, key))
    return containers, leaves


def _alike(draw, old):
    """A value of the same JSON type as `old`: what a hand-edited file might hold."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return draw(st.integers(-1, max(2, 2 * old)))
    if isinstance(old, float):
        return draw(st.one_of(st.floats(-1e6, 1e6), st.sampled_from([{"float": "nan"}, 0.0])))
    if isinstance(old, str):
        return draw(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6), VALUES))
    return draw(VALUES)


@st.composite
def mutants(draw, layouts=("columns", "records")):
    """A real timeline's JSON (as to_json writes it, or as version 2 did) with one to three
    values changed, removed or duplicated."""
    name = draw(st.sampled_from(sorted(texts())))
    layout = draw(st.sampled_from(layouts))
    doc = json.loads((texts() if layout == "columns" else records_texts())[name])
    for _ in range(draw(st.integers(1, 3))):
        containers, leaves = _slots(doc)
        actions = ["alike", "alike", "alike", "replace", "remove", "copy", "repoint"]
        action = draw(st.sampled_from(actions))
        if action == "repoint":  # an edge led to another node of the file, as edited by hand
            _repoint(draw, doc)
            continue
        if action == "alike":
            where, key = draw(st.sampled_from(leaves))
            where[key] = copy.deepcopy(_alike(draw, where[key]))  # st.just: one shared object
            continue
        where = draw(st.sampled_from([c for c in containers if c]))
        keys = list(sorted(where) if isinstance(where, dict) else range(len(where)))
        key = draw(st.sampled_from(keys))
        if action == "replace":
            where[key] = copy.deepcopy(draw(VALUES))
        elif action == "remove":
            del where[key]
        elif isinstance(where, list):
            where.insert(key, copy.deepcopy(where[draw(st.sampled_from(keys))]))
        else:
            where[key] = copy.deepcopy(where[draw(st.sampled_from(keys))])
    return name, json.dumps(doc, ensure_ascii=False)


def _repoint(draw, doc) -> None:
    """One end of an edge moved to another node of the file (if the tables are still there)."""
    edges, nodes = doc.get("edges"), doc.get("nodes")
    end = draw(st.sampled_from(["source", "target"]))
    if isinstance(edges, dict) and isinstance(nodes, dict):  # columns
        ends, count = edges.get(end), len(nodes.get("kind") or [None])
        if isinstance(ends, list) and ends:
            ends[draw(st.integers(0, len(ends) - 1))] = f"n{draw(st.integers(1, count))}"
    elif isinstance(edges, list) and isinstance(nodes, list) and edges:
        edge = draw(st.sampled_from(edges))
        if isinstance(edge, dict):
            edge[end] = f"n{draw(st.integers(1, max(1, len(nodes))))}"


# More for a long local run: AUTOVIZ_FUZZ_EXAMPLES=5000 python -m pytest -k fuzz
FUZZ_EXAMPLES = int(os.environ.get("AUTOVIZ_FUZZ_EXAMPLES", "150"))
FUZZED = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZED
@given(mutants())
def test_fuzzed_timelines_load_and_show_or_are_refused(tmp_path_factory, mutant):
    _, text = mutant
    try:
        tl = load(text)
    except TimelineFormatError as error:
        field = re.sub(r"\[\d+\]", "", str(error).split(": ")[0])
        event(f"refused: {field}")
        return
    event("loaded: every view checked")
    every_view_works(tl, tmp_path_factory.mktemp("views"))


def _loaded_or_refused(text):
    """The records a file loads as, or the message it is refused with."""
    try:
        tl = load(text)
    except TimelineFormatError as error:
        return str(error)
    return tl.nodes, tl.edges, tl.steps, tl.code


@FUZZED
@given(mutants(layouts=("records",)))
def test_the_one_expression_checks_load_what_the_tables_load(mutant):
    """tracing/plain.py's predicates pass a record in one call where its table would pass it
    as it is: with them or without, each fuzzed file loads as the same records or is refused
    with the same message (they never refuse, never name a field, never change a value)."""
    _, text = mutant
    fast = _loaded_or_refused(text)
    with pytest.MonkeyPatch.context() as patch:
        for name in ("node", "edge", "step"):
            patch.setattr(plain, name, lambda *args: False)
        tables = _loaded_or_refused(text)
    assert fast == tables
    event("refused" if isinstance(fast, str) else "loaded")


@FUZZED
@given(mutants(layouts=("columns",)))
def test_the_column_checks_load_what_the_tables_load(mutant):
    """columns.read passes a version 3 file a column at a time, or gives it to schema's
    tables record by record: either way each fuzzed file loads as the same records or is
    refused with the same message."""
    _, text = mutant
    fast = _loaded_or_refused(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(columns, "read", lambda *args: None)
        tables = _loaded_or_refused(text)
    assert fast == tables
    event("refused" if isinstance(fast, str) else "loaded")


def test_what_to_json_writes_passes_a_column_at_a_time(monkeypatch):
    """Every real timeline takes the column path (else loading a long file would check
    field by field again), and reads as the records the tables would make."""
    for name, text in texts().items():
        doc = json.loads(text)
        assert columns.read(doc, columns.tables(doc)) is not None, name
    fast = [_loaded_or_refused(text) for text in texts().values()]
    monkeypatch.setattr(columns, "read", lambda *args: None)
    assert fast == [_loaded_or_refused(text) for text in texts().values()]


def test_what_version_2_wrote_passes_in_one_expression():
    """Every node, edge and step of the real timelines, as version 2 wrote them, takes the
    one-call path."""
    assert set(plain.NODE_KEYS) == set(schema.NODE) and set(plain.EDGE_KEYS) == set(schema.EDGE)
    assert set(plain.STEP_KEYS) == set(schema.STEP) and set(plain.FLOW_KEYS) == set(schema.FLOW)
    assert set(plain.SOURCE_KEYS) == set(schema.SOURCE)
    for name, text in records_texts().items():
        doc = json.loads(text)
        ids, edges, steps = {n["id"] for n in doc["nodes"]}, len(doc["edges"]), len(doc["steps"])
        assert all(plain.node(n, i, steps) for i, n in enumerate(doc["nodes"])), name
        assert all(plain.edge(e, i, ids, edges) for i, e in enumerate(doc["edges"])), name
        assert all(plain.step(s, i, ids, edges, steps) for i, s in enumerate(doc["steps"])), name


def every_view_works(tl, folder) -> None:
    """Each step drawn (SVG, DOT, JSON) and explained, the frames, the player, the animation,
    and the Stepper stepped through with all it shows. (PNG and GIF rasterise these same
    SVGs, at seconds a frame: too slow for a fuzz test.)"""
    assert load(tl.to_json()).to_json() == tl.to_json()
    repr(tl), tl.iterations  # reading them is the check
    if not len(tl):
        return
    for k in range(len(tl)):
        diagram = tl.draw(step=k)
        ET.fromstring(diagram.svg())
        for suffix in (".dot", ".json"):
            diagram.save(folder / f"step{suffix}")
        explain(tl, k)
    tl.save_frames(folder / "frames")
    tl.save_html(folder / "player.html")
    tl.save_animation(folder / "animation.svg")
    ET.fromstring((folder / "animation.svg").read_text("utf-8"))
    stepper = autoviz.Stepper(tl)
    for k in range(len(tl)):
        stepper.step = k
        stepper.banner_text, stepper.explanation, stepper.code_line  # noqa: B018
        ET.fromstring(stepper.frame_svg)


# --- issue 26 item 8: what loads passes every view --------------------------------------------


def repointed(d):
    d["edges"][0]["source"] = "n17"  # the mlp's first edge, n1 -> n2, now from an op


def nul_in_path(d):
    d["steps"][3]["source"]["file"] = "/tmp/lesson\x00.py"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (repointed, r"edges\[0\]: a data edge joins a tensor and an op, not n17 and n2"),
        (nul_in_path, r"steps\[3\]\.source\.file: a file name cannot hold a NUL character"),
        (
            lambda d: d["nodes"][0].update(name="w\ud800"),
            r"nodes\[0\]\.name: 'w\\ud800' holds '\\ud800', half of a UTF-16 pair: not text",
        ),
        (lambda d: d["steps"][1].update(caption="\udfff"), r"steps\[1\]\.caption: .*UTF-16"),
        (lambda d: d["steps"][3]["source"].update(text="y = \udc00"), r"source\.text: .*UTF-16"),
        (lambda d: d["steps"][2]["details"].update({"\ud83d": 1}), r"steps\[2\]\.details: the"),
        (
            lambda d: d["steps"][25]["flows"][0].update(upstream=1.0),
            r"steps\[25\]\.flows\[0\]\.upstream: a preview of shape \(\) for n2's output",
        ),
        (
            lambda d: d["steps"][25]["details"].update(grad=0.5),
            r"steps\[25\]\.details\.grad: a preview of shape \(\) for node n3",
        ),
        (  # the quiz's update question read the change (IndexError)
            lambda d: d["steps"][60].update(changes=[]),
            r"steps\[60\]\.changes: a 'update' step first changes its node's value",
        ),
        (
            lambda d: d["steps"][60]["changes"][0].__setitem__(1, "grad"),
            r"steps\[60\]\.changes: a 'update' step first changes its node's value",
        ),
    ],
)
def test_timelines_that_crashed_an_export_are_refused_naming_the_field(change, message):
    """The issue's cases: each loaded, then failed in a view (TypeError: must be real number,
    not list; ValueError: embedded null byte; UnicodeEncodeError)."""
    doc = as_records(texts()["mlp"])
    assert doc["steps"][25]["kind"] == "backward" and doc["steps"][3]["source"]
    assert doc["steps"][60]["kind"] == "update" and doc["steps"][60]["changes"]
    change(doc)
    written = [json.dumps(doc), as_columns(doc)]
    for text in written + [json.dumps(json.loads(t), ensure_ascii=False) for t in written]:
        with pytest.raises(TimelineFormatError, match=message):
            load(text)


def test_a_pair_of_surrogates_is_one_character_and_loads():
    doc = json.loads(texts()["lesson"])
    doc["nodes"]["name"][0] = "w😈"  # written as "\ud83d\ude08" by json.dumps
    assert load(json.dumps(doc)).nodes[0].name == "w😈"


# --- issue 26 item 14: linear, and byte for byte what it was ------------------------------------


def reference_json(tl) -> str:
    """The file as the format defines it (version 3): each table's records (dataclasses.asdict)
    as columns, one list per field; a record's id or index (its position) and a column holding
    only its field's default left out; each distinct line of code written once, in `sources`,
    a step naming it by index; sorted keys, non-finite floats spelled {"float": "nan"}. The
    writer must give exactly this."""
    import dataclasses
    import math

    from autoviz.tracing.preview import Summary

    def encode(obj):
        if isinstance(obj, float) and not math.isfinite(obj):
            return {"float": str(obj)}
        if type(obj) is Summary:
            return {"summary": encode(obj.to_dict())}
        if isinstance(obj, dict):
            return {k: encode(v) for k, v in obj.items()}
        if isinstance(obj, list | tuple):
            return [encode(v) for v in obj]
        return obj

    def default(field):
        if field.name == "caption":
            return ""
        if field.default_factory is not dataclasses.MISSING:
            return field.default_factory()
        return field.default

    def columns(cls, rows: list, skip: tuple) -> dict:
        out = {}
        for field in dataclasses.fields(cls):
            column = [row[field.name] for row in rows]
            has_default = dataclasses.MISSING is not field.default or (
                dataclasses.MISSING is not field.default_factory
            )
            if field.name in skip or (has_default and column == [default(field)] * len(rows)):
                continue
            out[field.name] = column
        return out

    doc = {"format": "autoviz-timeline", "version": 3, "sources": []}
    doc["code"] = [dataclasses.asdict(c) for c in tl.code]
    doc["nodes"] = columns(Node, [dataclasses.asdict(n) for n in tl.nodes], ("id",))
    doc["edges"] = columns(Edge, [dataclasses.asdict(e) for e in tl.edges], ("id",))
    steps = [dataclasses.asdict(s) for s in tl.steps]
    doc["steps"] = columns(Step, steps, ("index", "flows"))
    flows = [flow for step in steps for flow in step["flows"]]
    doc["flows"] = {"step": [i for i, s in enumerate(steps) for _ in s["flows"]]}
    doc["flows"].update(columns(Flow, flows, ()))
    for i, line in enumerate(doc["steps"].get("source", [])):
        if line is not None:
            if line not in doc["sources"]:
                doc["sources"].append(line)
            doc["steps"]["source"][i] = doc["sources"].index(line)
    return json.dumps(encode(doc), sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


NUMBERS = st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 2.5, -3.0])
NAMES = st.sampled_from(["NaN", "Infinity", "-Infinity", 'a"NaN\\', 'x\\"Infinity"', "é\u2084"])


@settings(max_examples=40, deadline=None)
@given(st.lists(NUMBERS, min_size=1, max_size=4), NAMES, st.booleans())
def test_the_json_is_the_reference_encoding_byte_for_byte(values, name, backward):
    x = autoviz.tensor(values, requires_grad=True, name=name)
    with autoviz.trace() as tl:
        y = (x * values[0]).sum()
        z = autoviz.tensor(values[-1], requires_grad=True, name=name + "2") * y
        if backward:
            z.backward()
    text = tl.to_json()
    assert text == reference_json(tl)
    assert load(text).to_json() == text


def test_writing_and_reading_a_long_timeline_never_runs_the_collector():
    """The collector walks every live object: run over and over while a file's records are
    made it costs time growing with the file (to_json and from_json of 100,000 ops took 89 s
    and 55 s). Time itself is measured in benchmarks/timeline_json.py."""
    import gc

    from conftest import scaling_chain

    tl = scaling_chain(3_000, 1.0)
    len(tl)  # built
    runs = []

    def count(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        text = tl.to_json()
        back = load(text)
    finally:
        gc.callbacks.remove(count)
    assert runs == []
    assert back.to_json() == text


CALLING = """
def model(x, w):
    return w * x + 1.0

loss = model(x, w)
loss.backward()
"""


def test_a_step_with_its_callers_line_loads_back_byte_for_byte():
    """An op inside a function the block calls names the call too (one level)."""
    namespace = {"x": autoviz.tensor(2.0), "w": autoviz.tensor(3.0, requires_grad=True)}
    with autoviz.trace(namespace=namespace) as tl:
        exec(compile(CALLING, "<lesson>", "exec"), namespace)
    text = tl.to_json()
    back = load(text)
    callers = [s.source.caller for s in back.steps if s.source and s.source.caller]
    assert callers and all(isinstance(c, Source) and c.caller is None for c in callers)
    assert callers[0].line == 5
    assert back.to_json() == text
    for k in range(len(back)):
        explain(back, k)


def test_a_loaded_timeline_holds_what_the_traced_one_held():
    """Not only the same JSON: the same records, field for field (a shape a tuple where the
    model has one, a saved tensor's shape a list as the tracer writes it)."""
    for make in (lesson_timeline, mlp_timeline, loop_timeline, freed_graph_timeline):
        tl = make()
        back = load(tl.to_json())
        assert back.nodes == tl.nodes and back.edges == tl.edges
        assert back.steps == tl.steps, make.__name__


# --- version 3: the columns themselves ----------------------------------------------------------


def columns_mutated(name: str, change) -> str:
    doc = json.loads(texts()[name])
    change(doc)
    return json.dumps(doc)


def _drop_first(column: list) -> None:
    del column[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("flows"), r"^flows: missing"),
        (lambda d: d.update(nodes=[]), r"^nodes: expected columns, got a list"),
        (lambda d: d["nodes"].update(kind="leaf"), r"^nodes\.kind: expected a list \(a column\)"),
        (lambda d: _drop_first(d["nodes"]["name"]), r"^nodes\.name: 6 values, where nodes\.kind"),
        (lambda d: d["edges"].update(weight=[]), r"^edges: unknown column 'weight'"),
        (lambda d: d["nodes"].pop("kind"), r"^nodes\.kind: missing"),
        (lambda d: d["steps"]["source"].__setitem__(5, 99), r"^steps\[5\]\.source: expected an"),
        (lambda d: d["sources"].append({"file": 1}), r"^sources\[3\]\.file: expected a string"),
        (lambda d: d["flows"]["step"].__setitem__(0, 40), r"^flows\[0\]\.step: expected a step's"),
        (
            lambda d: d["flows"]["upstream"].__setitem__(0, "1"),
            r"^steps\[6\]\.flows\[0\]\.upstream",
        ),
        (lambda d: d["sources"][0].update(file="a\0b"), r"^steps\[0\]\.source\.file: a file name"),
        (lambda d: d.update(sources={}), r"^sources: expected a list"),
        (lambda d: d.update(extra=1), r"unknown field 'extra'"),
    ],
)
def test_a_bad_column_is_named(change, message):
    """A version 3 file's structure (tables of columns of one length) is checked first and
    named by table and column; a bad value is named by its record, as version 2 names it."""
    doc = json.loads(texts()["lesson"])
    assert len(doc["nodes"]["kind"]) == 7 and len(doc["sources"]) == 3
    assert doc["flows"]["step"][0] == 6 and doc["steps"]["source"][0] == 0
    with pytest.raises(TimelineFormatError, match=message):
        load(columns_mutated("lesson", change))


def test_a_version_2_file_loads_as_the_same_records_and_writes_back_as_version_3():
    for name, text in texts().items():
        old = load(records_texts()[name])
        new = load(text)
        assert (old.nodes, old.edges, old.steps, old.code) == (
            new.nodes,
            new.edges,
            new.steps,
            new.code,
        )
        assert old.to_json() == text, name


def test_the_file_leaves_out_what_is_at_its_default_and_writes_each_line_once():
    doc = json.loads(texts()["mlp"])
    assert "detached" not in doc["nodes"] and "total" not in doc["flows"]
    lines = [(s["file"], s["line"], s["text"]) for s in doc["sources"]]
    assert len(lines) == len(set(lines)) < sum(x is not None for x in doc["steps"]["source"])
    assert set(doc) == {"format", "version", "nodes", "edges", "steps", "flows", "sources", "code"}
