"""Name tensors after the variables that hold them in the user's code."""

import linecache
import re
import sys

_ASSIGNMENT = re.compile(r"\s*([A-Za-z_]\w*)\s*(?::[^=]+)?=[^=]")


def caller_namespace(depth: int = 2) -> dict:
    """Variables visible in the frame `depth` levels up: its globals, then its locals."""
    frame = sys._getframe(depth)
    try:
        names = dict(frame.f_globals)
        names.update(frame.f_locals)
        return names
    finally:
        del frame


def names_by_identity(namespace: dict, is_tensor) -> dict:
    """Map id(tensor) and ("fn", id(grad_fn)) to (name, tensor) of the first public variable."""
    found = {}
    for name, value in namespace.items():
        if name.startswith("_") or not is_tensor(value):
            continue
        found.setdefault(id(value), (name, value))
        fn = getattr(value, "grad_fn", None)
        if fn is not None:
            found.setdefault(("fn", id(fn)), (name, value))
    return found


def assigned_name(src) -> str | None:
    """The variable the line at `src` (file, line number) assigns to, as in `y = w * x`."""
    match = _ASSIGNMENT.match(linecache.getline(*src))
    return match.group(1) if match else None
