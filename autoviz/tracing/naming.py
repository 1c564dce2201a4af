"""Name tensors after the variables that hold them in the user's code."""

import dis
import sys
import weakref


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
    """Map id(tensor) and ("fn", id(node), output_nr) to (name, tensor) of the first public
    variable (the node a tensor's gradient goes to, and which of its outputs it is)."""
    found = {}
    for name, value in namespace.items():
        if name.startswith("_") or not is_tensor(value):
            continue
        found.setdefault(id(value), (name, value))
        try:
            fn = getattr(value, "grad_fn", None)
        except RuntimeError:  # torch's view whose base changed in place: it names no node
            fn = None
        if fn is not None:
            node = getattr(fn, "node", fn)  # an autoviz Output stands for output k of its node
            found.setdefault(("fn", id(node), value.output_nr), (name, value))
    return found


# Instructions that store the value on top of the stack in a variable (the first name, for the
# two-variable forms Python 3.13 adds).
_STORES = {
    "STORE_NAME",
    "STORE_FAST",
    "STORE_GLOBAL",
    "STORE_DEREF",
    "STORE_FAST_LOAD_FAST",
    "STORE_FAST_STORE_FAST",
}
# Instructions that may stand between a call and the store of its result: EXTENDED_ARG (a store
# into a variable numbered above 255) and the copy that `a = b = ...` and `(a := ...)` make.
_BETWEEN = {"EXTENDED_ARG", "COPY", "DUP_TOP"}


def stored_names(code) -> dict:
    """Map each byte offset of an instruction whose result is stored in a variable right away
    (the call in `y = w * x` or `a = b = f(x)`) to that variable's name.

    Every offset from the instruction up to the store maps, inline caches included: while a
    Python function it called runs, Python 3.11 and 3.12 report the offset of the call's last
    cache entry as the caller's `f_lasti`, not that of the call itself.
    """
    found = {}
    before = None
    for ins in dis.get_instructions(code):
        if before is not None and ins.opname in _BETWEEN and (ins.arg == 1 or ins.opname != "COPY"):
            continue
        if before is not None and ins.opname in _STORES:
            name = ins.argval
            name = name[0] if isinstance(name, tuple) else name
            for offset in range(before, ins.offset, 2):
                found[offset] = name
        before = ins.offset
    return found


# code object -> its stored_names, for every trace: reading bytecode with dis takes about 17 us
# an instruction, a millisecond or two for a function each time it is traced.
_STORED = weakref.WeakKeyDictionary()


class StoredNames:
    """`stored_names` for each code object asked about, worked out once per code object."""

    def __init__(self) -> None:
        self._codes = {}  # id(code) -> (code, its stored_names); holding code keeps ids unique

    def get(self, code, lasti: int) -> str | None:
        """The variable the result of the instruction at `lasti` in `code` is stored in."""
        entry = self._codes.get(id(code))
        if entry is None or entry[0] is not code:
            names = _STORED.get(code)
            if names is None:
                names = _STORED[code] = stored_names(code)
            entry = self._codes[id(code)] = (code, names)
        return entry[1].get(lasti)
