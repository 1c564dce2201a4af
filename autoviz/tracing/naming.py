"""Name tensors after the variables that hold them in the user's code."""

import dis
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


# Instructions that store the value on top of the stack in a variable (the first name, for the
# two-variable forms Python 3.13 adds).
_STORES = {"STORE_NAME", "STORE_FAST", "STORE_GLOBAL", "STORE_DEREF", "STORE_FAST_LOAD_FAST"}


def stored_names(code) -> dict:
    """Map the byte offset of each instruction whose result is stored in a variable right
    away (the call in `y = w * x` or `a = b = f(x)`) to that variable's name."""
    found = {}
    before = None
    for ins in dis.get_instructions(code):
        if ins.opname == "COPY" and ins.arg == 1 and before is not None:
            continue  # `a = b = ...` and `(a := ...)` copy the value first: the next stores it
        if before is not None and ins.opname in _STORES:
            name = ins.argval
            found[before] = name[0] if isinstance(name, tuple) else name
        before = ins.offset
    return found


class StoredNames:
    """`stored_names` for each code object asked about, worked out once per code object."""

    def __init__(self) -> None:
        self._codes = {}  # id(code) -> (code, its stored_names); holding code keeps ids unique

    def get(self, code, lasti: int) -> str | None:
        """The variable the result of the instruction at `lasti` in `code` is stored in."""
        entry = self._codes.get(id(code))
        if entry is None or entry[0] is not code:
            entry = self._codes[id(code)] = (code, stored_names(code))
        return entry[1].get(lasti)
