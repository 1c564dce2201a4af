"""A `dot` started before it is needed, so a diagram waits for its layout, not for dot's start-up.

A fresh `dot` spends 10-25 ms loading plugins and fontconfig, more than a lesson-sized layout
takes. A spare process is started in the background and fed a one-node graph in the diagrams'
fonts, so it has loaded them; the next SVG layout takes it, sends its graph, closes stdin and
reads to the end, as a one-shot run does. Each process lays out one real graph only: Graphviz
2.43 carries state from graph to graph within a process, so a long-lived one draws the same
graph differently depending on what came before.
"""

import atexit
import contextlib
import os
import re
import subprocess
import threading

from .theme import FONT

# One node in the diagrams' font, bold and at a second size, so those fonts are loaded ahead.
# Named, so an unnamed user graph still gets the anonymous title a one-shot run gives it.
PROBE = (
    f'digraph autoviz_probe {{ node [fontname="{FONT}"] '
    f'a [label=<<b>a</b><br/><font point-size="11">a</font>>] }}\n'
).encode()
_PROBE_END = (b"</svg>\n", b"</svg>\r\n")
# dot prefixes the root group's id of a process's second graph with a page; a one-shot run does not.
_PAGE_ID = re.compile(rb'<g id="page\d+,\d+_')

_spares: dict[str, subprocess.Popen] = {}  # engine -> a probed dot waiting for its graph
_starting: dict[str, subprocess.Popen | None] = {}  # engine -> the spare being made
_cold: set[str] = set()  # engines that did not answer the probe as Graphviz's dot does
_lock = threading.Lock()


def suits(engine_name: str, source: str) -> bool:
    """Whether a spare may lay `source` out exactly as a one-shot run would.

    Graphviz's own `dot` only, unless $AUTOVIZ_WARM_DOT=0. And at most one named subgraph:
    dot orders subgraphs by the address of their interned name, so with two or more, the
    probe's allocations could change their order (the legend alone is fine).
    """
    return (
        engine_name in ("dot", "dot.exe")
        and os.environ.get("AUTOVIZ_WARM_DOT", "1") != "0"
        and source.count("subgraph") <= 1
    )


def take(engine: str) -> subprocess.Popen | None:
    """A probed `dot -Tsvg` ready for one graph, or None if none is ready."""
    with _lock:
        proc = _spares.pop(engine, None)
    if proc is not None and proc.poll() is not None:  # it died while waiting
        _stop(proc)
        return None
    return proc


def restock(engine: str) -> None:
    """Start the next spare in the background, unless one is ready or being made.

    Called after a layout, not before it, so the new dot does not compete for a core with it.
    """
    with _lock:
        if engine in _cold or engine in _spares or engine in _starting:
            return
        _starting[engine] = None
    threading.Thread(target=_restock, args=(engine,), daemon=True).start()


def answer(stdout: bytes) -> bytes:
    """A spare's output for the user's graph, root group id as in a one-shot run."""
    return _PAGE_ID.sub(b'<g id="', stdout, count=1)


def _restock(engine: str) -> None:
    """Start a dot, send the probe and wait for its SVG; then it is the engine's spare."""
    try:
        proc = subprocess.Popen(
            [engine, "-Tsvg"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError:
        with _lock:
            _starting.pop(engine, None)
        return  # the caller's own run reports what is wrong with the engine
    _starting[engine] = proc
    proved = _send_probe(proc)
    with _lock:
        _starting.pop(engine, None)
        if proved:
            _spares[engine] = proc
        else:
            _cold.add(engine)
    if not proved:
        _stop(proc)


def _send_probe(proc: subprocess.Popen) -> bool:
    try:
        proc.stdin.write(PROBE)
        proc.stdin.flush()
        seen = b""
        while not seen.endswith(_PROBE_END):  # nothing follows until the next graph is sent
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return False
            seen += chunk
    except (OSError, ValueError):
        return False
    return seen.lstrip().startswith(b"<?xml")


def _forget() -> None:
    """In a forked child: the parent's spares and a lock some other thread may have held."""
    global _lock
    _lock = threading.Lock()
    _spares.clear()
    _starting.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)


@atexit.register
def _shutdown() -> None:
    with _lock:
        procs = [*_spares.values(), *_starting.values()]
        _spares.clear()
    for proc in procs:
        if proc is not None:
            _stop(proc)


def _stop(proc: subprocess.Popen) -> None:
    """Kill and reap; safe to repeat, as the restocking thread and exit may both do it."""
    proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError):
            pipe.close()
