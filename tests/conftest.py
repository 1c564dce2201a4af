"""Shared fixtures: layout engines, the lesson example, and no silent skips in CI."""

import copy
import json
import os
import shutil
import sysconfig
from pathlib import Path

import pytest

import autoviz

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# Every timeline a test builds checks the steps it built against len() counted from the log
# (tracing/count.py): a difference is an error, wherever in the suite it shows.
os.environ["AUTOVIZ_CHECK_COUNT"] = "1"
GOLDEN = Path(__file__).parent / "golden"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI a skipped test is a failure: every test must really run there."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CI=true), which is not allowed: {report.longrepr}"


def graphviz_pure_path() -> str | None:
    candidate = Path(sysconfig.get_path("scripts")) / "graphviz-pure"
    return str(candidate) if candidate.exists() else shutil.which("graphviz-pure")


ENGINES = {"dot": lambda: shutil.which("dot"), "graphviz-pure": graphviz_pure_path}


@pytest.fixture(params=sorted(ENGINES))
def engine(request, monkeypatch):
    """Each layout engine in turn, selected through $AUTOVIZ_DOT."""
    path = ENGINES[request.param]()
    if path is None:
        pytest.skip(f"{request.param} is not installed")
    monkeypatch.setenv("AUTOVIZ_DOT", path)
    return request.param


@pytest.fixture
def pure_engine(monkeypatch):
    """graphviz-pure, the engine every user has, for byte-stable output."""
    monkeypatch.setenv("AUTOVIZ_DOT", graphviz_pure_path())


def lesson_example():
    """The lesson's z = w * x + b, with backward run; returns the namespace."""
    x = autoviz.tensor(2.0, requires_grad=True)
    w = autoviz.tensor(3.0, requires_grad=True)
    b = autoviz.tensor(1.0, requires_grad=True)
    y = w * x
    z = y + b
    return dict(x=x, w=w, b=b, y=y, z=z)


def lesson_timeline():
    """The lesson example traced: leaves made before the block, backward inside it."""
    x = autoviz.tensor(2.0, requires_grad=True)
    w = autoviz.tensor(3.0, requires_grad=True)
    b = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = w * x
        z = y + b
        z.backward()
    return tl


def scaling_chain(n_ops: int, factor: float):
    """y = x * factor, n_ops times over, traced with its backward: a timeline of any length."""
    x = autoviz.tensor(1.0, requires_grad=True)
    with autoviz.trace() as tl:
        y = x
        for _ in range(n_ops):
            y = y * factor
        y.backward()
    return tl


pytest_plugins = ["browser"]  # the `browser` and `page` fixtures (tests/browser.py)


def mlp_timeline():
    """A 2-3-1 MLP trained with SGD for two steps."""
    autoviz.manual_seed(0)
    nn, optim = autoviz.nn, autoviz.optim
    net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    opt = optim.SGD(net.parameters(), lr=0.1)
    x, t = autoviz.randn(4, 2), autoviz.randn(4, 1)
    with autoviz.trace() as tl:
        for _ in range(2):
            opt.zero_grad()
            loss = ((net(x) - t) ** 2).mean()
            loss.backward()
            opt.step()
    return tl


def loop_timeline():
    """A loop rebinding h, then no_grad, zero_(), detach, retain_grad and grad = None."""
    a = autoviz.tensor(1.5, requires_grad=True)
    with autoviz.trace() as tl:
        h = a
        for _ in range(2):
            h = h.tanh() * 2
        h.backward()
        with autoviz.no_grad():
            a -= 0.1 * a.grad
            scaled = a * 2  # noqa: F841 (computed under no_grad: a step of kind no_grad)
        a.grad.zero_()
        d = h.detach() * 3
        q = a * d
        q.retain_grad()
        q.backward()
        a.grad = None
    return tl


# --- timeline files laid out two ways ------------------------------------------------------------
# to_json writes version 3: each table as columns (tracing/columns.py). Tests that edit a file
# record by record read it as version 2's layout, and may write it back as columns. These
# read and write the format independently of columns.py.

POSITION = {"nodes": ("id", "n"), "edges": ("id", "e"), "steps": ("index", None)}


def as_records(text: str) -> dict:
    """A version 3 file as version 2 lays it out: a list of records per table, each step
    holding its own line of code and its flows."""
    doc = json.loads(text)
    assert doc["version"] == 3
    out = {"format": doc["format"], "version": 2, "code": doc["code"]}
    for table in ("nodes", "edges", "steps", "flows"):
        out[table] = _rows(table, doc[table])
    for step in out["steps"]:
        line, step["flows"] = step["source"], []
        step["source"] = None if line is None else copy.deepcopy(doc["sources"][line])
    for flow in out.pop("flows"):
        out["steps"][flow.pop("step")]["flows"].append(flow)
    return out


def _rows(table: str, columns: dict) -> list:
    """A table's columns as records, a left-out column filled with its default."""
    length = max(map(len, columns.values()), default=0)
    rows = [{name: column[i] for name, column in columns.items()} for i in range(length)]
    for i, row in enumerate(rows):
        if table in POSITION:
            position, prefix = POSITION[table]
            row[position] = f"{prefix}{i + 1}" if prefix else i
        for name, make in _fields(table)[1].items():
            row.setdefault(name, make())
    return rows


def as_columns(doc: dict) -> str:
    """A file in version 2's layout (perhaps edited) written as version 3's columns, or None
    when no version 3 file says the same (a record's id not its position, a field missing or
    unknown)."""
    out = {"format": doc["format"], "version": 3, "code": doc.get("code", []), "sources": []}
    for table, (position, prefix) in POSITION.items():
        rows = doc.get(table)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            return None
        names = _fields(table)[0]
        for i, row in enumerate(rows):
            if row.get(position) != (f"{prefix}{i + 1}" if prefix else i):
                return None
            if set(row) - {position} != names | ({"flows"} if table == "steps" else set()):
                return None
        out[table] = {name: [row[name] for row in rows] for name in sorted(names)}
    flows = [(i, flow) for i, step in enumerate(doc["steps"]) for flow in step["flows"]]
    if not all(isinstance(flow, dict) and set(flow) == _fields("flows")[0] for _, flow in flows):
        return None
    out["flows"] = {name: [flow[name] for _, flow in flows] for name in _fields("flows")[0]}
    out["flows"]["step"] = [i for i, _ in flows]
    lines = out["steps"].get("source", [])
    for i, line in enumerate(lines):
        if line is not None:
            out["sources"].append(line)
            lines[i] = len(out["sources"]) - 1
    return json.dumps(out)


def _fields(table: str) -> tuple:
    """A table's columns (not the record's position, nor a step's flows: their own table),
    and those with a default, to a function making it as JSON spells it."""
    from dataclasses import MISSING, fields

    from autoviz.tracing.model import Edge, Flow, Node, Step

    cls = {"nodes": Node, "edges": Edge, "steps": Step, "flows": Flow}[table]
    skip = {POSITION[table][0], "flows"} if table in POSITION else set()
    names, defaults = set(), {}
    for f in fields(cls):
        if f.name in skip:
            continue
        names.add(f.name)
        if f.name == "caption":
            defaults[f.name] = str
        elif f.default_factory is not MISSING:
            defaults[f.name] = f.default_factory
        elif f.default is not MISSING:
            value = list(f.default) if isinstance(f.default, tuple) else f.default
            defaults[f.name] = lambda value=value: copy.deepcopy(value)
    return names, defaults
