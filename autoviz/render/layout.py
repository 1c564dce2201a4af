"""Which Graphviz executable lays the graph out, and running it with a timeout."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from ..errors import LayoutEngineNotFound, LayoutError, LayoutTimeout
from . import plugins, process
from .svgtext import tidy

DEFAULT_TIMEOUT = 30.0  # seconds; a layout that takes longer is almost always a runaway graph
FORMATS = ("svg", "png", "pdf")


def find_engine() -> str:
    """`$AUTOVIZ_DOT`, else the system `dot`, else the `graphviz-pure` installed with autoviz."""
    explicit = os.environ.get("AUTOVIZ_DOT")
    if explicit:
        found = shutil.which(explicit)
        if found is None:
            raise LayoutEngineNotFound(
                f"AUTOVIZ_DOT is set to {explicit!r}, which is not an executable. "
                "Point it at Graphviz's `dot` or at `graphviz-pure`, or unset it."
            )
        return found
    found = shutil.which("dot") or _bundled()
    if found is None:
        raise LayoutEngineNotFound(
            "No Graphviz layout engine found: neither `dot` on PATH nor the `graphviz-pure` "
            "executable installed with autoviz. Install Graphviz (https://graphviz.org/download/, "
            "e.g. `apt install graphviz` or `brew install graphviz`) or reinstall autoviz "
            "(`pip install --force-reinstall autoviz`). The DOT text is still available as "
            "Diagram.source."
        )
    return found


def _bundled() -> str | None:
    """The graphviz-pure script beside this Python, even when its bin dir is not on PATH."""
    name = "graphviz-pure.exe" if os.name == "nt" else "graphviz-pure"
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("graphviz-pure")


def engine_name(path: str) -> str:
    """A short name for messages: `dot` or `graphviz-pure`."""
    return Path(path).name


def svg_layout(source: str, timeout: float | None = None) -> str:
    """DOT `source` laid out as the SVG autoviz shows (see svgtext.tidy)."""
    return tidy(run_layout(source, "svg", timeout).decode("utf-8"))


def run_layout(source: str, fmt: str = "svg", timeout: float | None = None) -> bytes:
    """Lay out DOT `source` and return the rendered bytes in format `fmt`."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (must be one of {list(FORMATS)})")
    engine = find_engine()
    limit = timeout if timeout is not None else _timeout_from_env()
    env = plugins.environment(engine, source, limit) if fmt == "svg" else None
    if env is None:
        return _checked(engine, fmt, source, limit)
    code, stdout, _ = _run(engine, fmt, source, limit, env)
    if code == 0 and stdout:
        return stdout
    # Rerun with every plugin: dot's own message for bad DOT, or a layout.
    svg = _checked(engine, fmt, source, limit)
    plugins.forget(engine)  # it worked with every plugin: the folder may no longer work
    return svg


def _checked(engine: str, fmt: str, source: str, limit: float) -> bytes:
    code, stdout, stderr = _run(engine, fmt, source, limit)
    if code != 0 or not stdout:
        raise _failure(engine, fmt, code, stderr)
    return stdout


def _run(engine: str, fmt: str, source: str, limit: float, env: dict | None = None) -> tuple:
    """Exit code, stdout and stderr of the engine writing `fmt` for `source`."""
    command = [engine, f"-T{fmt}", *(["-Gdpi=144"] if fmt == "png" else [])]
    try:
        return process.run(command, source.encode("utf-8"), limit, env)
    except subprocess.TimeoutExpired:
        raise LayoutTimeout(
            f"{engine_name(engine)} did not finish laying out the graph within {limit:g} s. "
            "Draw a smaller graph (group modules or draw a part of it), or raise the limit "
            "with the timeout= argument or $AUTOVIZ_LAYOUT_TIMEOUT."
        ) from None


def _failure(engine: str, fmt: str, code: int, stderr: bytes) -> LayoutError:
    message = stderr.decode("utf-8", "replace").strip()
    if fmt != "svg" and "not recognized" in message:
        return LayoutError(
            f"{engine_name(engine)} cannot write {fmt!r} files. Install Graphviz "
            f"(`dot`) for {fmt}, or save as .svg."
        )
    return LayoutError(f"{engine_name(engine)} failed (exit code {code}): {message[-800:]}")


def _timeout_from_env() -> float:
    raw = os.environ.get("AUTOVIZ_LAYOUT_TIMEOUT")
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(
            f"AUTOVIZ_LAYOUT_TIMEOUT must be a number of seconds, got {raw!r}"
        ) from None
    if value <= 0:
        raise ValueError(f"AUTOVIZ_LAYOUT_TIMEOUT must be positive, got {raw!r}")
    return value
