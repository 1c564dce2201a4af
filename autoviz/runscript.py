"""Run a user's script under the tracer, as the classroom commands do; keep what it traced."""

import ast
import atexit
import builtins
import contextlib
import importlib.util
import os
import runpy
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from .errors import AutovizError
from .tracing.source import whole_file

_PACKAGE = str(Path(__file__).resolve().parent)


class ScriptError(AutovizError):
    """The user's script raised, or could not be traced; `exit_code` is the command's."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class Run:
    """A script's timeline, and what it raised (None when it ran to the end)."""

    timeline: object
    error: BaseException | None = None
    traceback: str = ""
    engine: str = "autoviz"  # the engine it ran on: "autoviz" or "torch"


ENGINES = ("auto", "autoviz", "torch")


def run_script(path, args=(), engine: str = "autoviz", exiting: bool = False) -> Run:
    """Run `path` as `python path args...` would (`__main__`, its folder on sys.path), traced.

    engine "autoviz": on autoviz's engine, `import torch` included (as_torch); "torch": real
    PyTorch through the bridge; "auto": torch for a script that imports it where it is
    installed, else autoviz. `exiting`: the process ends after this run (the CLI); its exit
    then clears the script's globals, after the atexit handlers the script registered, as
    Python clears `__main__`'s: a file the script left open is flushed and closed.
    """
    script = Path(path)
    if not script.is_file():
        problem = "is a folder" if script.is_dir() else "does not exist"
        raise ScriptError(f"cannot run {str(path)!r}: it {problem}; give the path of a .py file")
    engine = choose_engine(script, engine)
    namespace = _main_namespace(script)
    if exiting:  # registered first, so it runs after the script's own handlers
        atexit.register(_release, namespace)
    tracer = _tracer(engine, namespace)
    saved_argv, saved_path, saved_cwd = sys.argv[:], sys.path[:], os.getcwd()
    sys.argv = [str(script), *args]
    sys.path.insert(0, str(script.resolve().parent))
    error, tl = None, None
    try:
        # The tracer sees what the script raised (its timeline ends with an error step).
        with _engine_context(engine), tracer as tl:
            tl._block = whole_file(str(script))  # the traced block is the script, every line
            exec(compile(script.read_bytes(), str(script), "exec"), namespace)
    except SystemExit as exit_:
        error = None if exit_code(exit_) == 0 else exit_  # sys.exit(256) ends well, as python's
    except Exception as raised:
        error = raised
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        with contextlib.suppress(OSError):  # the script may have moved away with os.chdir
            os.chdir(saved_cwd)
    return Run(tl, error, "" if error is None else user_traceback(error, script), engine)


def _release(namespace: dict) -> None:
    """Drop a script's globals, the latest bound first, so a finalizer still finds the
    modules the script imported before it (a `__del__` that logs with `sys`)."""
    for name in reversed(list(namespace)):
        namespace.pop(name, None)


def exit_code(error: BaseException) -> int:
    """The exit status `python script.py` ends with after `error`: sys.exit's number as a C
    long (one beyond it is -1) modulo 256 (sys.exit(-1) gives 255, sys.exit(256) 0, True 1);
    None 0; else 1 (an exception, or sys.exit("a message"))."""
    if not isinstance(error, SystemExit):
        return 1
    code = error.code
    if code is None:
        return 0
    if not isinstance(code, int):
        return 1
    return (code if -(2**63) <= code < 2**63 else -1) & 0xFF


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


def choose_engine(script: Path, engine: str) -> str:
    """ "autoviz" or "torch" for `engine`; "auto" looks at the script's imports and at whether
    PyTorch is installed."""
    if engine not in ENGINES:
        raise ScriptError(f"unknown engine {engine!r} (must be one of {list(ENGINES)})")
    if engine != "auto":
        return engine
    if imports_torch(script) and importlib.util.find_spec("torch") is not None:
        return "torch"
    return "autoviz"


def imports_torch(script: Path) -> bool:
    """Whether the script says `import torch` or `from torch... import` (not `as` autoviz)."""
    try:
        tree = ast.parse(script.read_bytes())
    except (SyntaxError, ValueError):
        return False  # running it reports the error
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "torch" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
            return True
    return False


def _engine_context(engine: str):
    if engine == "torch":
        return contextlib.nullcontext()
    from .compat import as_torch

    return as_torch()  # `import torch` gives autoviz; undone when the script ends


def _tracer(engine: str, namespace: dict):
    import autoviz

    # trace_torch imports torch only now, and says how to install it when it is missing.
    # It finds the script's globals from the frames it sees; autoviz.trace is told them.
    return autoviz.trace_torch() if engine == "torch" else autoviz.trace(namespace=namespace)


def user_traceback(error: BaseException, script: Path) -> str:
    """The traceback as Python prints it, with only the user's frames (not autoviz's or runpy's)."""
    if isinstance(error, SystemExit):  # Python prints a message given to sys.exit, not a number
        return "" if isinstance(error.code, int) else f"{error.code}\n"
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
