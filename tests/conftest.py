"""Shared fixtures: layout engines, the lesson example, and no silent skips in CI."""

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
