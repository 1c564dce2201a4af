"""Running a layout or raster program on some input within a time limit; on a timeout,
Ctrl-C, SIGTERM or SIGHUP the program and every process it started are stopped.

Programs run in the caller's process group, so a Jupyter kernel's restart, which kills the
kernel's group, stops them too; a timeout or Ctrl-C kills the program's whole tree of
processes (a wrapper script's `dot`, say), found through their parent ids.
"""

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from ..interrupts import as_interrupt

REAP = 1.0  # seconds to wait for the pipes of a killed tree (a daemon may have escaped it)


class Deadline:
    """One time limit shared by several runs (a layout, its plugin lookup, its rerun)."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.end = seconds, time.monotonic() + seconds

    def left(self, command) -> float:
        """Seconds left; subprocess.TimeoutExpired when none are."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(command, self.seconds)
        return left


def run(command: list, data: bytes, limit, env: dict | None = None):
    """Exit code, stdout and stderr of `command` fed `data`; subprocess.TimeoutExpired past
    `limit` (seconds, or a Deadline), with the program and all it started killed."""
    timeout = limit.left(command) if isinstance(limit, Deadline) else limit
    with as_interrupt():  # SIGTERM and SIGHUP stop the tree too, as Ctrl-C does
        proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        try:
            stdout, stderr = proc.communicate(data, timeout=timeout)
        except BaseException:  # a timeout, Ctrl-C, SIGTERM or SIGHUP
            _stop(proc)
            raise
    return proc.returncode, stdout, stderr


def _stop(proc: subprocess.Popen) -> None:
    """Kill `proc` and its descendants, then reap it; never wait long on the pipes."""
    if os.name == "posix":
        for pid in _stopped_tree(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    else:
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True)
        proc.kill()
    try:
        proc.communicate(timeout=REAP)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()


def _stopped_tree(root: int) -> list[int]:
    """`root` and every descendant, each stopped (SIGSTOP) before its children are looked for,
    so that none can start another process unseen."""
    found, frontier = [], [root]
    while frontier:
        for pid in frontier:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        found += frontier
        parents = _parents()
        seen = set(found)
        frontier = [pid for pid, ppid in parents.items() if ppid in seen and pid not in seen]
    return found


def _parents() -> dict[int, int]:
    """Every process's parent id: from /proc (Linux), else from `ps` (macOS, BSD)."""
    proc = Path("/proc")
    if (proc / "self" / "stat").exists():
        parents = {}
        for entry in proc.iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    # the command name may hold spaces and parentheses: read after the last ")"
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    parents[int(entry.name)] = int(fields[1])
        return parents
    listing = subprocess.run(["ps", "-A", "-o", "pid=,ppid="], capture_output=True, text=True)
    pairs = (line.split() for line in listing.stdout.splitlines())
    return {int(pid): int(ppid) for pid, ppid in pairs}
