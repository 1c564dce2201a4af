"""Which Graphviz executable lays the graph out, and running it with a timeout."""

import math
import numbers
import os
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

from ..errors import LayoutEngineNotFound, LayoutError, LayoutTimeout
from . import plugins, process
from .svgtext import square_boxes, tidy

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
    system = shutil.which("dot")
    found = (system if system not in _BROKEN else None) or _bundled()
    if found is None:
        raise LayoutEngineNotFound(
            "No Graphviz layout engine found: neither `dot` on PATH nor the `graphviz-pure` "
            "executable installed with autoviz. Install Graphviz (https://graphviz.org/download/, "
            "e.g. `apt install graphviz` or `brew install graphviz`), or reinstall the engine "
            "autoviz installs (`pip install --force-reinstall graphviz-pure`). The DOT text is "
            "still available as Diagram.source."
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
    square, rounded = square_boxes(source)
    return tidy(run_layout(square, "svg", timeout).decode("utf-8"), rounded)


def run_layout(source: str, fmt: str = "svg", timeout: float | None = None) -> bytes:
    """Lay out DOT `source` and return the rendered bytes in format `fmt`; everything it
    runs (a plugin lookup, a rerun) shares the one time limit. A system `dot` that fails
    even on a one-node graph is broken: the bundled engine lays it out instead."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (must be one of {list(FORMATS)})")
    engine = find_engine()
    limit = layout_timeout(timeout)
    deadline = process.Deadline(limit)
    try:
        return _layout(engine, fmt, source, limit, deadline)
    except LayoutTimeout:
        raise
    except LayoutError as error:
        if not _broken(engine, error, deadline):
            raise
    return _layout(find_engine(), fmt, source, limit, deadline)


_BROKEN = set()  # system dots that failed on a one-node graph: not used again
_TRIVIAL = b"digraph { a }"


def _broken(engine: str, error: LayoutError, deadline) -> bool:
    """Whether `engine`, the system's dot (not one $AUTOVIZ_DOT asks for), fails to lay out
    a one-node graph and the bundled engine is there to use instead; says so once."""
    bundled = _bundled()
    if os.environ.get("AUTOVIZ_DOT") or bundled is None or engine == bundled:
        return False
    try:
        code, stdout, _ = process.run([engine, "-Tsvg"], _TRIVIAL, deadline)
    except subprocess.TimeoutExpired:
        return False  # slow, not broken: the timeout is reported as such
    if code == 0 and _is("svg", stdout):
        return False  # it works: the graph was the problem
    _BROKEN.add(engine)
    warnings.warn(
        f"the system's Graphviz ({engine}) is broken: it fails to lay out a one-node graph "
        f"({str(error).splitlines()[-1][:160]}). autoviz draws with its bundled graphviz-pure "
        "instead. "
        "Reinstall Graphviz to use it again (e.g. `apt install --reinstall graphviz libgvc6` "
        "or `brew reinstall graphviz`), or set $AUTOVIZ_DOT to the engine to use.",
        RuntimeWarning,
        stacklevel=2,
    )
    return True


def _layout(engine: str, fmt: str, source: str, limit: float, deadline) -> bytes:
    try:
        env = plugins.environment(engine, source, deadline) if fmt == "svg" else None
        if env is None:
            return _checked(engine, fmt, source, deadline)
        code, stdout, _ = process.run(_command(engine, fmt), source.encode("utf-8"), deadline, env)
        if code == 0 and _is(fmt, stdout):
            return stdout
        # Rerun with every plugin: dot's own message for bad DOT, or a layout.
        out = _checked(engine, fmt, source, deadline)
    except subprocess.TimeoutExpired:
        raise LayoutTimeout(
            f"{engine_name(engine)} did not finish laying out the graph within {limit:g} s. "
            "Draw a smaller graph (group modules or draw a part of it), or raise the limit "
            "with the timeout= argument or $AUTOVIZ_LAYOUT_TIMEOUT."
        ) from None
    plugins.forget(engine, deadline)  # it worked with every plugin: the folder may not work
    return out


def _checked(engine: str, fmt: str, source: str, deadline) -> bytes:
    """The engine's output, checked to be `fmt`; LayoutError saying what came instead."""
    code, stdout, stderr = process.run(_command(engine, fmt), source.encode("utf-8"), deadline)
    if code != 0 or not stdout:
        raise _failure(engine, fmt, code, stderr)
    if not _is(fmt, stdout):
        raise LayoutError(
            f"{engine_name(engine)} ({engine}) exited with code 0 but wrote {describe(stdout)} "
            f"instead of {fmt.upper()}: is it Graphviz's dot or graphviz-pure? "
            "Point $AUTOVIZ_DOT at one, or unset it."
        )
    return stdout


def _command(engine: str, fmt: str) -> list:
    return [engine, f"-T{fmt}", *(["-Gdpi=144"] if fmt == "png" else [])]


_MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-"}


def _is(fmt: str, data: bytes) -> bool:
    """Whether `data` is a file of format `fmt`: by its first bytes, for SVG its whole text."""
    if fmt != "svg":
        return data.startswith(_MAGIC[fmt])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    text = text.strip(" \t\r\n\ufeff")
    return text.startswith("<") and "<svg" in text and text.endswith("</svg>")


def describe(data: bytes) -> str:
    """What some bytes look like, for an error message: their size and how they start."""
    head = data[:60].decode("utf-8", "replace")
    shown = "".join(ch if ch.isprintable() else " " for ch in head).strip()
    return f"{len(data):,} bytes starting {shown!r}"


def _failure(engine: str, fmt: str, code: int, stderr: bytes) -> LayoutError:
    message = stderr.decode("utf-8", "replace").strip()
    if fmt != "svg" and "not recognized" in message:
        return LayoutError(
            f"{engine_name(engine)} cannot write {fmt!r} files. Install Graphviz "
            f"(`dot`) for {fmt}, or save as .svg."
        )
    return LayoutError(f"{engine_name(engine)} failed (exit code {code}): {message[-800:]}")


MAX_TIMEOUT = 24 * 3600.0  # seconds: a longer limit is a mistake (10**20 would never end)
_RANGE = f"a number of seconds greater than 0 and at most {MAX_TIMEOUT:g} (a day)"


def check_timeout(value) -> float | None:
    """`value` as a float when it is a number of seconds in (0, MAX_TIMEOUT], None as None;
    otherwise ValueError naming the allowed range."""
    if value is None:
        return None
    number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not number or not 0 < value <= MAX_TIMEOUT:  # NaN fails both comparisons
        raise ValueError(f"timeout must be {_RANGE}, got {value!r}")
    return float(value)


def layout_timeout(timeout=None) -> float:
    """The layout's time limit: `timeout`, else $AUTOVIZ_LAYOUT_TIMEOUT, else 30 seconds."""
    if timeout is not None:
        return check_timeout(timeout)
    raw = os.environ.get("AUTOVIZ_LAYOUT_TIMEOUT", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = math.nan  # refused below
    if not 0 < value <= MAX_TIMEOUT:
        raise ValueError(f"$AUTOVIZ_LAYOUT_TIMEOUT must be {_RANGE}, got {raw!r}")
    return value
