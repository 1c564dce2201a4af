"""A spare `dot`, started and fed its fonts ahead, lays out the next SVG exactly as a fresh run."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

import autoviz
from autoviz.errors import LayoutError, LayoutTimeout
from autoviz.render import warm
from autoviz.render.layout import run_layout
from conftest import graphviz_pure_path, lesson_example, lesson_timeline

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed")


@pytest.fixture
def spares(monkeypatch):
    """Real `dot`, no spare from earlier tests, and none left running afterwards."""
    monkeypatch.setenv("AUTOVIZ_DOT", DOT or "dot")
    monkeypatch.delenv("AUTOVIZ_WARM_DOT", raising=False)
    for name in ("_spares", "_starting"):
        monkeypatch.setattr(warm, name, {})
    monkeypatch.setattr(warm, "_cold", set())
    yield warm._spares
    for proc in [*warm._spares.values(), *warm._starting.values()]:
        if proc is not None:
            warm._stop(proc)


def ready(spares, engine=None) -> subprocess.Popen:
    """The engine's spare, once its probe has been answered."""
    engine = engine or DOT
    for _ in range(500):
        if engine in spares:
            return spares[engine]
        time.sleep(0.01)
    raise AssertionError("no spare dot became ready within 5 s")


def fresh(source: str, monkeypatch) -> bytes:
    with monkeypatch.context() as m:
        m.setenv("AUTOVIZ_WARM_DOT", "0")
        return run_layout(source)


def lesson_source(**options) -> str:
    return autoviz.draw(lesson_example()["z"], **options).source


def frame_source() -> str:
    tl = lesson_timeline()
    return tl.draw(step=len(tl) - 1).source  # a frame's layout: edge labels, two arrowheads


@needs_dot
def test_each_layout_takes_the_spare_and_matches_a_fresh_run(spares, monkeypatch):
    sources = [lesson_source(), lesson_source(theme="dark", rankdir="TB"), frame_source()]
    run_layout(sources[0])  # no spare yet: a plain run, and one starts
    for source in sources:
        spare = ready(spares)
        svg = run_layout(source)
        assert spare.poll() is not None and spares.get(DOT) is not spare
        assert svg == fresh(source, monkeypatch)  # byte for byte, root group graph0 included
    assert b'<g id="graph0" class="graph"' in svg


@needs_dot
def test_raw_dot_text_keeps_the_ids_and_titles_of_a_fresh_run(spares, monkeypatch):
    for source in ("digraph { x -> y }", 'digraph mine { id="mygraph" x -> y }'):
        run_layout(source)
        ready(spares)
        assert run_layout(source) == fresh(source, monkeypatch)


@needs_dot
def test_threads_drawing_at_once_each_get_their_own_graph(spares, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    sources = [f'digraph {{ a{i} [label="graph {i}"] }}' for i in range(12)]
    with ThreadPoolExecutor(4) as pool:
        svgs = list(pool.map(run_layout, sources))
    assert svgs == [fresh(s, monkeypatch) for s in sources]


def test_only_dot_and_graphs_with_at_most_one_named_subgraph_suit(monkeypatch):
    monkeypatch.delenv("AUTOVIZ_WARM_DOT", raising=False)
    one = "digraph { subgraph cluster_legend { a } b }"
    assert warm.suits("dot", one) and warm.suits("dot.exe", one)
    assert not warm.suits("graphviz-pure", one)
    assert not warm.suits("dot", "digraph { subgraph cluster_a { a } subgraph cluster_b { b } }")
    monkeypatch.setenv("AUTOVIZ_WARM_DOT", "0")
    assert not warm.suits("dot", one)


@needs_dot
def test_module_clusters_are_laid_out_by_a_fresh_run(spares, monkeypatch):
    net = autoviz.nn.Sequential(autoviz.nn.Linear(2, 2), autoviz.nn.Tanh(), autoviz.nn.Linear(2, 1))
    source = autoviz.draw(net(autoviz.ones(1, 2)).sum()).source
    assert source.count("subgraph cluster_") >= 3
    run_layout(lesson_source())
    spare = ready(spares)
    run_layout(source)
    assert spare.poll() is None and spares[DOT] is spare  # left for a graph it suits


@needs_dot
def test_a_runaway_layout_times_out_and_the_next_one_works(spares):
    big = "digraph { " + " ".join(f"a{i} -> a{i + 1};" for i in range(3000)) + " }"
    run_layout(lesson_source())
    ready(spares)
    with pytest.raises(LayoutTimeout, match=r"within 0\.05 s"):
        run_layout(big, timeout=0.05)
    ready(spares)
    assert b"<svg" in run_layout(lesson_source())


@needs_dot
def test_bad_dot_text_reports_dots_own_error(spares):
    run_layout(lesson_source())
    spare = ready(spares)
    with pytest.raises(LayoutError, match="syntax error in line 1"):
        run_layout("digraph { a -> ; }")
    assert spare.poll() is not None  # the spare was the one that said so


@needs_dot
def test_a_spare_that_died_is_passed_over(spares):
    run_layout(lesson_source())
    spare = ready(spares)
    os.kill(spare.pid, signal.SIGKILL)
    spare.wait()
    assert b"<svg" in run_layout(lesson_source())


def test_an_engine_that_answers_only_at_end_of_input_gets_no_spare(spares, monkeypatch, tmp_path):
    """graphviz-pure under the name dot reads to the end before it writes anything."""
    (tmp_path / "dot").symlink_to(graphviz_pure_path())
    engine = str(tmp_path / "dot")
    monkeypatch.setenv("AUTOVIZ_DOT", engine)
    for _ in range(3):
        assert b"<svg" in run_layout(lesson_source())
    assert engine not in spares and list(warm._starting) == [engine]  # one still waiting


@needs_dot
def test_autoviz_warm_dot_0_and_png_start_no_spare(spares, monkeypatch):
    assert run_layout(lesson_source(), "png").startswith(b"\x89PNG")
    monkeypatch.setenv("AUTOVIZ_WARM_DOT", "0")
    assert b"<svg" in run_layout(lesson_source())
    time.sleep(0.2)
    assert spares == {} and warm._starting == {}


@needs_dot
def test_the_spare_ends_with_python():
    script = (
        "import time, autoviz\n"
        "from autoviz.render import warm\n"
        "x = autoviz.tensor(2.0, requires_grad=True)\n"
        "autoviz.draw(x * 3).svg()\n"
        "while not warm._spares: time.sleep(0.01)\n"
        "print(next(iter(warm._spares.values())).pid)\n"
    )
    env = {**os.environ, "AUTOVIZ_DOT": DOT}
    env.pop("AUTOVIZ_WARM_DOT", None)
    done = subprocess.run(
        [sys.executable, "-W", "error::ResourceWarning", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    assert done.stderr == ""
    with pytest.raises(ProcessLookupError):
        os.kill(int(done.stdout), 0)
