"""No process of ours is left behind: after a layout timeout, a Ctrl-C or a Jupyter kernel's
restart, the layout engine and everything it started have stopped."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import autoviz
from autoviz.errors import LayoutTimeout

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads process states in /proc"
)


def running(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def hanging_engine(folder: Path, name: str = "dot") -> Path:
    """A layout engine that never finishes: a script starting a shell that starts a sleep, each
    writing its process id into `pids` (a wrapper script's dot holds the pipes like this)."""
    pids = folder / "pids"
    script = folder / name
    script.write_text(
        "#!/bin/sh\n"
        f"echo $$ >> {pids}\n"
        f"sh -c 'echo $$ >> {pids}; sleep 60 & echo $! >> {pids}; wait' &\n"
        "wait\n"
    )
    script.chmod(0o755)
    return script


def pids_of(folder: Path, at_least: int = 3, wait: float = 20.0) -> list[int]:
    path, end = folder / "pids", time.monotonic() + wait
    while time.monotonic() < end:
        found = [int(p) for p in path.read_text().split()] if path.exists() else []
        if len(found) >= at_least:
            return found
        time.sleep(0.05)
    raise AssertionError(f"the engine never started its processes: {path}")


def gone(pids: list[int], wait: float = 5.0) -> list[int]:
    """The processes of `pids` still running after up to `wait` seconds (killing is quick,
    but a process is removed only when reaped)."""
    end = time.monotonic() + wait
    while time.monotonic() < end and any(running(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if running(p)]
    for pid in left:  # never leave them to other tests
        os.kill(pid, signal.SIGKILL)
    return left


def diagram():
    x = autoviz.tensor(2.0, requires_grad=True, name="x")
    return autoviz.draw(x * 3.0)


@pytest.mark.parametrize("name", ["dot", "my-engine"])
def test_a_timeout_stops_the_engine_and_all_it_started(tmp_path, monkeypatch, name):
    """Named `dot`, the engine is also asked for its plugins first: that lookup shares the one
    time limit, so it is the only run, and it is stopped with all it started."""
    monkeypatch.setenv("AUTOVIZ_DOT", str(hanging_engine(tmp_path, name)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(LayoutTimeout, match=r"within 1 s"):
        diagram().svg() if name == "dot" else autoviz.draw(diagram().graph, timeout=1).svg()
    pids = pids_of(tmp_path)
    assert len(pids) == 3  # one run of the engine (script, shell, sleep), not one per attempt
    assert gone(pids) == []


@pytest.fixture(autouse=True)
def one_second(monkeypatch):
    monkeypatch.setenv("AUTOVIZ_LAYOUT_TIMEOUT", "1")


CHILD = """
import sys, autoviz
x = autoviz.tensor(2.0, requires_grad=True)
try:
    autoviz.draw(x * 3.0, timeout=600).svg()
except KeyboardInterrupt:
    sys.exit(42)
"""


def test_ctrl_c_during_a_layout_stops_the_engine_and_all_it_started(tmp_path):
    env = {**os.environ, "AUTOVIZ_DOT": str(hanging_engine(tmp_path, "my-engine"))}
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env)
    try:
        pids = pids_of(tmp_path)
        child.send_signal(signal.SIGINT)
        # a liveness bound, not a speed test: a loaded CI machine may take long to schedule it
        assert child.wait(timeout=120) == 42  # KeyboardInterrupt reached the user's code
    finally:
        child.kill()
    assert gone(pids) == []


def test_a_kernel_restart_during_a_layout_stops_the_engine_and_all_it_started(tmp_path):
    """Jupyter stops a kernel by killing its process group: the engine is in it."""
    manager = pytest.importorskip("jupyter_client").KernelManager(kernel_name="python3")
    manager.kernel_spec.argv[0] = sys.executable  # this venv's Python, with autoviz
    engine = hanging_engine(tmp_path, "my-engine")
    manager.start_kernel(env={**os.environ, "AUTOVIZ_DOT": str(engine)})
    client = manager.client()
    try:
        client.start_channels()
        client.wait_for_ready(timeout=60)
        code = textwrap.dedent(CHILD).replace("sys.exit(42)", "pass")
        client.execute(code)
        pids = pids_of(tmp_path)
        manager.restart_kernel(now=True)
        assert gone(pids) == []
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


# -- issue 26 item 6: SIGTERM and SIGHUP are treated as Ctrl-C ----------------------------------

EXPORT = """
import sys, autoviz
x = autoviz.tensor(2.0, requires_grad=True)
with autoviz.trace() as tl:
    (x * 3.0).backward()
tl.save_html(sys.argv[1], timeout=600)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_during_a_layout_stops_the_engine_and_leaves_no_file(tmp_path, signum):
    env = {**os.environ, "AUTOVIZ_DOT": str(hanging_engine(tmp_path, "my-engine"))}
    out = tmp_path / "out" / "lesson.html"
    out.parent.mkdir()
    child = subprocess.Popen([sys.executable, "-c", EXPORT, str(out)], env=env)
    try:
        pids = pids_of(tmp_path)
        child.send_signal(signum)
        assert child.wait(timeout=30) == -signum  # ended by the signal, as without autoviz
    finally:
        child.kill()
    assert gone(pids) == []
    assert list(out.parent.iterdir()) == []


SLOW_WRITE = """
import os, sys, time, autoviz
from autoviz import files
def slow(fd, data):  # a slow disk: the page is half written when the signal comes
    written = os.write(fd, bytes(data[:10]))
    open(sys.argv[2], "w").close()
    time.sleep(60)
    return written
files._write = slow
x = autoviz.tensor(2.0, requires_grad=True)
with autoviz.trace() as tl:
    (x * 3.0).backward()
tl.save_html(sys.argv[1])
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_while_writing_leaves_the_old_file_and_no_temporary(tmp_path, signum):
    out = tmp_path / "out" / "lesson.html"
    out.parent.mkdir()
    out.write_text("the old lesson")
    ready = tmp_path / "writing"
    child = subprocess.Popen([sys.executable, "-c", SLOW_WRITE, str(out), str(ready)])
    try:
        end = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < end and child.poll() is None:
            time.sleep(0.05)
        assert ready.exists(), "the child never started writing"
        child.send_signal(signum)
        assert child.wait(timeout=30) == -signum
    finally:
        child.kill()
    assert [p.name for p in out.parent.iterdir()] == ["lesson.html"]
    assert out.read_text() == "the old lesson"


def test_the_command_line_is_stopped_cleanly_by_sigterm_during_a_layout(tmp_path):
    script = tmp_path / "lesson.py"
    script.write_text(
        "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3.0).backward()\n"
    )
    env = {**os.environ, "AUTOVIZ_DOT": str(hanging_engine(tmp_path, "my-engine"))}
    env["AUTOVIZ_LAYOUT_TIMEOUT"] = "600"
    out = tmp_path / "out"
    out.mkdir()
    command = [sys.executable, "-m", "autoviz", "html", str(script), "-o", str(out / "a.html")]
    child = subprocess.Popen([*command, "--engine", "autoviz"], env=env)
    try:
        pids = pids_of(tmp_path)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == -signal.SIGTERM
    finally:
        child.kill()
    assert gone(pids) == []
    assert list(out.iterdir()) == []


def test_a_handler_of_the_users_own_stays_in_force_during_a_layout(tmp_path):
    code = CHILD.replace(
        "import sys, autoviz",
        "import signal, sys, autoviz\n"
        "def mine(signum, frame):\n    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGTERM, mine)",
    )
    env = {**os.environ, "AUTOVIZ_DOT": str(hanging_engine(tmp_path, "my-engine"))}
    child = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        pids = pids_of(tmp_path)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 42  # the user's handler ran, and the user's except
    finally:
        child.kill()
    assert gone(pids) == []
