"""Run a user's script under the tracer, as the classroom commands do; keep what it traced."""

import builtins
import runpy
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from .errors import AutovizError

_PACKAGE = str(Path(__file__).resolve().parent)


class ScriptError(AutovizError):
    """The user's script raised, or could not be traced."""


@dataclass
class Run:
    """A script's timeline, and what it raised (None when it ran to the end)."""

    timeline: object
    error: BaseException | None = None
    traceback: str = ""
    namespace: dict | None = None  # the script's globals


def run_script(path, args=(), torch: bool = False) -> Run:
    """Run `path` as `python path args...` would (`__main__`, its folder on sys.path), traced."""
    script = Path(path)
    if not script.is_file():
        problem = "is a folder" if script.is_dir() else "does not exist"
        raise ScriptError(f"cannot run {str(path)!r}: it {problem}; give the path of a .py file")
    namespace = _main_namespace(script)
    tracer = _tracer(torch, namespace)
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [str(script), *args]
    sys.path.insert(0, str(script.resolve().parent))
    error, tl = None, None
    try:
        # The tracer sees what the script raised (its timeline ends with an error step).
        with tracer as tl:
            exec(compile(script.read_bytes(), str(script), "exec"), namespace)
    except SystemExit as exit_:
        error = None if exit_.code in (None, 0) else exit_
    except Exception as raised:
        error = raised
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return Run(tl, error, "" if error is None else user_traceback(error, script), namespace)


def _main_namespace(script: Path) -> dict:
    """The globals of a script run as `__main__`, as runpy would make them; kept for naming."""
    return {
        "__name__": "__main__",
        "__file__": str(script),
        "__builtins__": builtins,
        "__package__": None,
        "__spec__": None,
        "__loader__": None,
        "__cached__": None,
        "__doc__": None,
    }


def _tracer(torch: bool, namespace: dict):
    import autoviz

    # trace_torch imports torch only now, and says how to install it when it is missing.
    # It finds the script's globals from the frames it sees; autoviz.trace is told them.
    return autoviz.trace_torch() if torch else autoviz.trace(namespace=namespace)


def user_traceback(error: BaseException, script: Path) -> str:
    """The traceback as Python prints it, with only the user's frames (not autoviz's or runpy's)."""
    if isinstance(error, SystemExit):
        return f"SystemExit: {error.code}\n"
    mine = (str(script), str(script.resolve()))
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if f.filename in mine or not _internal(f.filename)
    ]
    lines = traceback.format_exception_only(type(error), error)
    if frames:
        lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames), *lines]
    return "".join(lines)


def _internal(filename: str) -> bool:
    return (
        filename.startswith(_PACKAGE)
        or filename.startswith("<frozen ")
        or filename == getattr(runpy, "__file__", None)
    )
