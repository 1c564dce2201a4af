"""A long-lived `dot -Tsvg` per engine, so every SVG layout after the first skips Graphviz's start-up.

A fresh `dot` spends 10-25 ms loading plugins and fontconfig before it reads the graph; a
lesson-sized layout takes 3 ms once that is done. `dot` lays out graph after graph from one
stdin and flushes each SVG, so one process serves a whole notebook session. Anything unexpected
(an error on stderr, the process gone, an engine that reads to end of input) answers None, and
the caller runs the engine once the usual way, which reports exactly as before.
"""

import atexit
import contextlib
import os
import queue
import re
import subprocess
import threading

PROBE = b"digraph {}\n"
PROBE_TIMEOUT = 5.0  # s; real dot answers an empty graph in ~10 ms, an engine reading to EOF never
_END = b"</svg>\n"
# dot numbers the root group of every graph after a process's first as a page; make it graph0 again.
_PAGE_ID = re.compile(rb'<g id="page\d+,\d+_graph0"')

_sessions: dict[str, "WarmEngine"] = {}
_cold: set[str] = set()  # engines that proved unable to stream, in this process
_lock = threading.Lock()


def enabled(engine_name: str) -> bool:
    """Graphviz's own `dot`, unless $AUTOVIZ_WARM_DOT=0 asks for one process per layout."""
    return engine_name in ("dot", "dot.exe") and os.environ.get("AUTOVIZ_WARM_DOT", "1") != "0"


def layout_svg(engine: str, source: bytes, timeout: float) -> bytes | None:
    """SVG of `source` from the warm process for `engine`; None when it cannot give one.

    Raises subprocess.TimeoutExpired when the layout outlasts `timeout` (the process is then
    stopped, so a runaway graph does not keep a core busy).
    """
    with _lock:
        if engine in _cold:
            return None
        session = _sessions.get(engine)
        if session is None or not session.usable():
            if session is not None and session.pid == os.getpid():
                session.close()  # its dot exited or was stopped: release the pipes
            session = _sessions[engine] = WarmEngine(engine)
    with session.lock:
        return session.layout(source, timeout)


@atexit.register
def _shutdown() -> None:
    for session in _sessions.values():
        if session.pid == os.getpid():
            session.close()


class WarmEngine:
    """One `dot -Tsvg` process, two threads reading its output, one layout at a time."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.pid = os.getpid()  # a forked child must not share this process's pipes
        self.lock = threading.Lock()
        self.answers: queue.Queue = queue.Queue()
        self.proc = subprocess.Popen(
            [engine, "-Tsvg"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.proved = False
        self.readers = [
            threading.Thread(target=target, daemon=True)
            for target in (self._read_documents, self._read_errors)
        ]
        for reader in self.readers:
            reader.start()

    def usable(self) -> bool:
        return self.pid == os.getpid() and self.proc.poll() is None

    def layout(self, source: bytes, timeout: float) -> bytes | None:
        first = not self.proved
        try:
            self.proc.stdin.write((PROBE if first else b"") + source + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):  # the process is gone, or closed by another thread
            return self._give_up()
        if first:
            # An engine that waits for end of input before answering cannot stream.
            if self._answer(PROBE_TIMEOUT) is None:
                _cold.add(self.engine)
                return self._give_up()
            self.proved = True
        svg = self._answer(timeout)
        if svg is None:
            return self._give_up()
        return _PAGE_ID.sub(b'<g id="graph0"', svg, count=1)

    def _answer(self, timeout: float) -> bytes | None:
        try:
            kind, payload = self.answers.get(timeout=timeout)
        except queue.Empty:
            self.close()
            if self.proved:
                raise subprocess.TimeoutExpired(self.engine, timeout) from None
            return None
        return payload if kind == "svg" else None

    def _give_up(self) -> None:
        self.close()
        return None

    def close(self) -> None:
        """Stop the process and release its pipes (the readers end at end of file)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for reader in self.readers:
            reader.join(timeout=1.0)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                pipe.close()

    def _read_documents(self) -> None:
        buffer, start, fd = bytearray(), 0, self.proc.stdout.fileno()
        while chunk := os.read(fd, 1 << 16):
            buffer += chunk
            while (end := buffer.find(_END, start)) >= 0:
                self.answers.put(("svg", bytes(buffer[: end + len(_END)])))
                del buffer[: end + len(_END)]
                start = 0
            start = max(0, len(buffer) - len(_END))
        self.answers.put(("gone", None))

    def _read_errors(self) -> None:
        # Warnings pass, as in a one-shot run; an error means the graph's answer is not to be
        # trusted, so the caller reruns it alone and reports that run's message.
        for line in self.proc.stderr:
            if line.startswith(b"Error"):
                self.answers.put(("error", line))
