"""One `dot` process per session: later layouts skip its start-up and give the same SVG."""

import os
import shutil
import signal
import sys
import subprocess

import pytest

import autoviz
from autoviz.errors import LayoutError, LayoutTimeout
from autoviz.render import warm
from autoviz.render.layout import run_layout
from conftest import graphviz_pure_path, lesson_example

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed")


@pytest.fixture
def fresh(monkeypatch):
    """No warm process from earlier tests, real `dot` chosen, and none left afterwards."""
    monkeypatch.setenv("AUTOVIZ_DOT", DOT or "dot")
    monkeypatch.delenv("AUTOVIZ_WARM_DOT", raising=False)
    monkeypatch.setattr(warm, "_sessions", {})
    monkeypatch.setattr(warm, "_cold", set())
    yield warm._sessions
    for session in warm._sessions.values():
        session.close()


def lesson_source(**options) -> str:
    return autoviz.draw(lesson_example()["z"], **options).source


def session_pid(sessions) -> int:
    (session,) = sessions.values()
    return session.proc.pid


@needs_dot
def test_later_layouts_reuse_one_process_and_match_a_fresh_one(fresh, monkeypatch):
    sources = [lesson_source(), lesson_source(theme="dark", rankdir="TB"), lesson_source()]
    warm_svgs = [run_layout(s) for s in sources]
    pid = session_pid(fresh)
    assert all(session_pid(fresh) == pid for _ in sources)
    monkeypatch.setenv("AUTOVIZ_WARM_DOT", "0")
    assert warm_svgs == [run_layout(s) for s in sources]  # graph0 ids included
    assert b'<g id="graph0" class="graph"' in warm_svgs[-1]


@needs_dot
def test_a_stopped_process_is_replaced(fresh):
    run_layout(lesson_source())
    first = session_pid(fresh)
    os.kill(first, signal.SIGKILL)
    assert b"<svg" in run_layout(lesson_source())  # laid out alone if the death is noticed late
    assert b"<svg" in run_layout(lesson_source())
    assert session_pid(fresh) != first


@needs_dot
def test_a_runaway_layout_times_out_and_the_next_one_works(fresh):
    big = "digraph { " + " ".join(f"a{i} -> a{i + 1};" for i in range(3000)) + " }"
    run_layout(lesson_source())
    with pytest.raises(LayoutTimeout, match=r"within 0\.05 s"):
        run_layout(big, timeout=0.05)
    assert b"<svg" in run_layout(lesson_source())


@needs_dot
def test_bad_dot_text_reports_dots_own_error(fresh):
    run_layout(lesson_source())
    with pytest.raises(LayoutError, match="syntax error in line 1"):
        run_layout("digraph { a -> ; }")
    assert b"<svg" in run_layout(lesson_source())


def test_an_engine_that_reads_to_the_end_falls_back_to_one_run_per_layout(
    fresh, monkeypatch, tmp_path
):
    """graphviz-pure (here under the name dot) answers only at end of input."""
    (tmp_path / "dot").symlink_to(graphviz_pure_path())
    monkeypatch.setenv("AUTOVIZ_DOT", str(tmp_path / "dot"))
    monkeypatch.setattr(warm, "PROBE_TIMEOUT", 0.5)
    assert b"<svg" in run_layout(lesson_source())
    assert str(tmp_path / "dot") in warm._cold
    assert all(s.proc.poll() is not None for s in fresh.values())  # its process was stopped


@needs_dot
def test_autoviz_warm_dot_0_starts_no_process(fresh, monkeypatch):
    monkeypatch.setenv("AUTOVIZ_WARM_DOT", "0")
    assert b"<svg" in run_layout(lesson_source())
    assert fresh == {}


@needs_dot
def test_png_is_never_sent_to_the_warm_process(fresh):
    assert run_layout(lesson_source(), "png").startswith(b"\x89PNG")
    assert fresh == {}


@needs_dot
def test_the_process_ends_with_python(tmp_path):
    script = (
        "import autoviz, sys\n"
        "from autoviz.render import warm\n"
        "x = autoviz.tensor(2.0, requires_grad=True)\n"
        "autoviz.draw(x * 3).svg()\n"
        "print(next(iter(warm._sessions.values())).proc.pid)\n"
    )
    env = {**os.environ, "AUTOVIZ_DOT": DOT}
    env.pop("AUTOVIZ_WARM_DOT", None)
    done = subprocess.run(
        [sys.executable, "-W", "error::ResourceWarning", "-c", script],
        capture_output=True, text=True, env=env, check=True,
    )
    pid = int(done.stdout)
    assert done.stderr == ""
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
