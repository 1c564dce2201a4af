"""Record engine events while user code runs under `autoviz.trace()`; cheap per event."""

import sys
import threading
import warnings
from pathlib import Path

import numpy as np

from ..collector import hold_oldest_generation, restore
from ..engine import Tensor, events
from ..engine import versions as _versions
from ..engine.grad_mode import _state as _grad_mode
from .naming import StoredNames
from .preview import PREVIEW_LIMIT, Summary, deferred, dtype_name, kept, preview
from .source import block_of
from .symbols import ELEMENTWISE, plain
from .timeline import Timeline
from .updates import update_rule

_PACKAGE = str(Path(__file__).resolve().parent.parent)
_EXAMPLES = str(Path(_PACKAGE) / "examples")  # lesson scripts shipped with autoviz are user code
_INSIDE, _OUTSIDE = set(), set()  # file names of code that is, or is not, autoviz's own
_ARRAY = np.ndarray
# Gradients of more elements are logged as their Summary, computed from them when a view reads
# it (gradients never change in place); smaller ones are kept whole for the builder.
_LARGE = 1024
_getframe = sys._getframe
_get_ident = threading.get_ident


class trace:
    """`with autoviz.trace() as tl:` records what the block does; tl is the Timeline.

    Nodes are named after the variables of the code around the `with` block, or after those in
    `namespace` when given (a script's globals, when the script runs inside the block).
    """

    def __new__(cls, namespace: dict | None = None):
        # Inside as_torch() this class is also torch.trace, the matrix trace: a script's
        # torch.trace(m) is the sum of m's diagonal, not a recorder.
        if isinstance(namespace, Tensor):
            return namespace.trace()
        return super().__new__(cls)

    def __init__(self, namespace: dict | None = None) -> None:
        self.namespace = namespace

    def __enter__(self) -> Timeline:
        self.recorder = Recorder(sys._getframe(1), self.namespace)
        self.recorder.timeline._block = block_of(sys._getframe(1))
        self.thresholds = hold_oldest_generation()
        events.add_observer(self.recorder)
        return self.recorder.timeline

    def __exit__(self, kind, error, tb) -> None:
        events.remove_observer(self.recorder)
        try:
            if isinstance(error, Exception):  # not Ctrl-C or sys.exit(): the block raised
                self.recorder.on_error(error)
            self.recorder.finish()
        finally:
            restore(self.thresholds)


class Recorder:
    """An engine observer that appends one small record per event to a log (ops and backward
    nodes flat, without a tuple of their own: see _resolve).

    A record keeps the user's code object and instruction offset, not the file and line,
    which are looked up once per place when the log is built (`_resolve`). Values that may
    change in place later (arrays) are copied at once when large (their Summary is computed when
    a view reads it: preview.deferred) and previewed at once when small; numpy scalars cannot
    change, so they are kept and previewed when building. Nodes, edges, steps and captions are
    all built from the log when the Timeline is first used.
    """

    # Slots: attribute access on the hot path stays fast (an instance __dict__, which dir()
    # in events.add_observer would make real, is slower to read).
    __slots__ = (
        "_all_sites",
        "_callers",
        "_kept",
        "_kept_of",
        "_sites",
        "_stored",
        "_used",
        "_user_code",
        "block_frame",
        "log",
        "names",
        "namespace",
        "pending",
        "skipped",
        "thread",
        "timeline",
    )

    def __init__(self, frame, namespace: dict | None = None) -> None:
        self.timeline = Timeline([], [], [])
        self.block_frame = frame
        self.namespace = namespace
        self.log = []
        # id(tensor) -> variable name; results of ops at trusted sites are named only when the
        # log is resolved (see _Site).
        self.names = {}
        # (tensor, its site, the user's frame) awaiting a name; one at most, as every event
        # settles the one before.
        self.pending = None
        self._sites = {}  # offset -> the _Site last seen at it (checked: offsets collide)
        self._all_sites = {}  # (id(code), offset) -> _Site; the site keeps its code alive
        # code object -> (code, offset) of the user's line that first called it (the call that
        # entered a function, shown for context beside its lines), or None at the block's level
        self._callers = {}
        self._stored = StoredNames()
        # The code of the user's frame of an earlier op: an op from the same code skips the test
        # of its file name (ops in a loop all come from one code object).
        self._user_code = None
        # The leaves and constants that ops have used. Tensors, not their id(): tensors hash by
        # identity (as PyTorch's do), and calling id() costs more than the set lookup.
        self._used = set()
        # id(root array) -> [_Kept]: large results kept, not copied, for their deferred
        # Summary, until something is about to write into that memory (on_write)
        self._kept = {}
        self._kept_of = {}  # id(tensor) -> its _Kept, to count the log's references to it
        self.thread = _get_ident()  # the thread that entered the block: the only one recorded
        self.skipped = {}  # thread name -> events it sent that were not recorded

    def _skip(self) -> None:
        """An event from another thread: counted, not recorded (its ops are not this code's)."""
        name = threading.current_thread().name
        self.skipped[name] = self.skipped.get(name, 0) + 1

    def _where(self):
        """The innermost frame outside autoviz, from the caller of the engine function that
        sent the event (that function is autoviz's own)."""
        frame = _getframe(3)
        if frame.f_code.co_filename not in _OUTSIDE:
            frame = self._user_frame(frame)
        if self.pending is not None:
            self._check_name(self.pending)
            self.pending = None
        if frame.f_code not in self._callers:
            self._callers[frame.f_code] = self._caller(frame)
        return frame

    def _caller(self, frame):
        """(code, offset) of the user's line that called `frame`'s function, skipping
        autoviz's own frames (nn.Module.__call__); None for the block's own level."""
        if frame is self.block_frame:
            return None
        caller = frame.f_back
        while caller is not None and caller is not self.block_frame:
            name = caller.f_code.co_filename
            if name not in _INSIDE and (name in _OUTSIDE or not _is_inside(name)):
                return caller.f_code, caller.f_lasti
            caller = caller.f_back
        return None

    def _user_frame(self, frame):
        """`frame`, or the first frame out from it that runs code outside autoviz (the block's
        own frame if there is none)."""
        while True:
            name = frame.f_code.co_filename
            if name not in _INSIDE and (name in _OUTSIDE or not _is_inside(name)):
                return frame
            frame = frame.f_back
            if frame is None:
                return self.block_frame

    def _expect_name(self, tensor, frame) -> None:
        """If the instruction that made `tensor` stores it in a variable (`y = ...`), name the
        tensor after it: now at a trusted site, else at the next event, when that store has
        happened (see _check_name)."""
        code, lasti = frame.f_code, frame.f_lasti
        site = self._sites.get(lasti)
        if site is None or site.code is not code:
            site = self._site(code, lasti, frame)
        if site.trusted:
            self.names.setdefault(id(tensor), site.name)
        elif site.check:
            self.pending = (tensor, site, frame)

    def _site(self, code, lasti, frame) -> "_Site":
        site = self._all_sites.get((id(code), lasti))
        if site is None:
            site = _Site(code, lasti, self._stored.get(code, lasti))
            self._all_sites[(id(code), lasti)] = site
            if code not in self._callers:
                self._callers[code] = self._caller(frame)
        self._sites[lasti] = site
        return site

    def _check_name(self, pending) -> None:
        """Name the tensor of the last event after the variable its instruction stores into
        (read from the bytecode), if that variable now holds it.

        Reading a frame's variables costs about a microsecond, so each place is checked until
        it first proves right, then trusted. One that is found holding something else is
        checked every time: a call running several ops (`loss = F.cross_entropy(...)` names
        only its last result), a builtin running ops itself (`loss = sum(losses)`), a call
        that makes tensors but returns something else (`state = net.state_dict()`).
        """
        tensor, site, frame = pending
        if frame.f_locals.get(site.name) is tensor:
            self.names.setdefault(id(tensor), site.name)
            if site.trusted is None:
                site.trusted, site.check = True, False
        else:
            site.trusted = False

    # -- engine events: one append each --------------------------------------------------------
    def on_leaf(self, t: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        data = t._data
        value = deferred(data) if type(data) is _ARRAY else data
        self.log.append(("leaf", frame.f_code, frame.f_lasti, t, value))
        self._expect_name(t, frame)

    def on_op(self, fn, out: Tensor, inputs) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        # The hot path: what _where and _expect_name do, written out. The event comes from the
        # engine function that made the node: for + - * / and the one-input methods the very
        # function the user called, whose caller is the user's code; otherwise Op.apply (or
        # attach) a frame or two further in, which _user_frame walks out of. An op from the same
        # code as the last one skips even that (looking at a frame costs an allocation).
        frame = _getframe(2)
        code = frame.f_code
        if code is not self._user_code:
            frame = self._user_frame(frame)
            code = frame.f_code
            if code.co_filename in _OUTSIDE:  # not the block's frame run by autoviz's own code
                self._user_code = code
        if self.pending is not None:
            self._check_name(self.pending)
            self.pending = None
        lasti = frame.f_lasti
        # The values of leaves (an optimizer updates them in place) and constants used as
        # inputs are read only the first time each is used: that use makes its node.
        values = None
        for v in inputs:
            if isinstance(v, Tensor) and v.grad_fn is None and v not in self._used:
                values = self._input_values(inputs)
                break
        data = out._data
        if type(data) is _ARRAY:
            data = preview(data) if data.size <= PREVIEW_LIMIT else self._keep(out, data)
        site = self._sites.get(lasti)
        if site is None or site.code is not code:
            site = self._site(code, lasti, frame)
        # Flat in the log, inputs too (see _resolve): fewer objects for the garbage collector
        # to visit again and again (a tuple of tensors stays tracked; one of gradients not).
        # extend(), as the += operator's dispatch costs more than the method call.
        log = self.log
        log.extend((_OP, site, fn, out, values, data, len(inputs)))
        log.extend(inputs)
        kept_of = self._kept_of
        if kept_of:  # the log's references to kept results, and the node's (see _secure_reachable)
            uses = 2 if None in getattr(fn, "_next", ()) else 1  # it keeps its inputs then
            for v in inputs:
                found = kept_of.get(id(v))
                if found is not None:
                    found.uses += uses
        if site.check:
            self.pending = (out, site, frame)

    def _keep(self, t: Tensor, data) -> Summary:
        """The deferred Summary of an op's large result, read from its array itself (see
        _Kept): the engine tells before anything writes into that memory (on_write)."""
        key = id(data) if data.base is None else id(_versions.root(data))
        found = _Kept(t, data, _versions.modified.get(key))
        self._kept.setdefault(key, []).append(found)
        self._kept_of[id(t)] = found
        return Summary.later(found, data.shape, dtype_name(data.dtype))

    def on_write(self, t: Tensor) -> None:
        # Any thread's: a copy is never wrong, a write unseen would be.
        if self._kept:
            for found in self._kept.pop(id(_versions.root(t._data)), ()):
                found.copy()

    def _secure_reachable(self) -> None:
        """At the block's end: copy the kept results the program can still write to (a
        variable, a view or anything but this log holds them); no code can change the rest."""
        if not self._kept:
            return
        for group in self._kept.values():
            if any(found.reachable() for found in group):
                for found in group:
                    found.copy()
        self._kept, self._kept_of = {}, {}

    def _input_values(self, inputs) -> list:
        """Previews of the inputs that are leaves or constants (None for the others)."""
        values = []
        for v in inputs:
            if isinstance(v, Tensor):
                if v.grad_fn is None:
                    self._used.add(v)
                    v = v._data
                    if type(v) is _ARRAY:
                        v = deferred(v)
                else:
                    v = None
            values.append(v)
        return values

    def on_backward_start(self, seeds: dict) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        values = [(fn, deferred(g)) for fn, g in seeds.items()]  # the user's own
        self.log.append(("seed", frame.f_code, frame.f_lasti, values))

    def on_node(self, fn, grad, grads) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        # Gradients are never changed in place: they are previewed when building. The usual
        # scalar step, a non-zero number in and no array out, is logged as it is; anything
        # else is looked at closer first (_node_record).
        if type(grad) is _ARRAY or not grad:
            return self._node_record(fn, grad, grads)
        for g in grads:
            if type(g) is _ARRAY:
                return self._node_record(fn, grad, grads)
        self.log.extend((_NODE, fn, grad, None, grads, None))

    def _node_record(self, fn, grad, grads) -> None:
        """Log a backward step, large gradients as their (deferred) Summary. A zero upstream
        gradient of a scalar needs work now (see _local)."""
        local = full = None
        if type(grad) is not _ARRAY or not grad.ndim:
            if not grad:
                local = _local(fn, grad)
        else:
            full = _before_sums(fn, grad, grads)
            if grad.size > _LARGE:
                grad = kept(grad)
        for g in grads:
            if type(g) is _ARRAY and g.size > _LARGE:
                grads = tuple(map(_light, grads))
                break
        self.log.extend((_NODE, fn, grad, local, grads, full))

    def on_accumulate(self, t: Tensor, grad) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        # .grad is updated in place by later passes: preview it now.
        total = deferred(t._grad._data)
        self.log.append(("accumulate", None, None, t, t._grad, _light(grad), total))

    def on_backward_end(self, retain_graph: bool) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        self.log.append(("end", None, None, retain_graph))

    def on_zero(self, t: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        self.log.append(("zero", frame.f_code, frame.f_lasti, t, deferred(t._data)))

    def on_grad_set(self, t: Tensor, value) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        new = None if value is None else deferred(value._data)
        self.log.append(("set_grad", frame.f_code, frame.f_lasti, t, value, new))

    def on_detach(self, source: Tensor, out: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        self.log.append(("detach", frame.f_code, frame.f_lasti, source, out, deferred(out._data)))
        self._expect_name(out, frame)

    def on_untracked(self, out: Tensor, inputs) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        data = out._data
        value = deferred(data) if type(data) is _ARRAY else data
        enabled = _grad_mode["enabled"]  # off: under no_grad; on: its inputs need no grad
        self.log.append(("untracked", frame.f_code, frame.f_lasti, out, inputs, value, enabled))
        self._expect_name(out, frame)

    def on_inplace(self, t: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        self.log.append(("inplace", frame.f_code, frame.f_lasti, t, deferred(t._data)))

    def on_update(self, t: Tensor, optimizer, group: dict) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        rule = update_rule(type(optimizer).__name__, group)
        self.log.append(("update", frame.f_code, frame.f_lasti, t, deferred(t._data), rule))

    def on_zero_grad(self, tensors, set_to_none: bool) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        grads = [None if t._grad is None else deferred(t._grad._data) for t in tensors]
        self.log.append(("zero_grad", frame.f_code, frame.f_lasti, tensors, grads, set_to_none))

    def on_rebind(self, t: Tensor, out: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        # An in-place op on a tensor in the graph: `t` now stands for the op's result `out`.
        self.log.append(("rebind", None, None, t, out))

    def on_retain_grad(self, t: Tensor) -> None:
        if _get_ident() != self.thread:
            return self._skip()
        frame = self._where()
        self.log.append(("retain", frame.f_code, frame.f_lasti, t))

    def on_error(self, error: Exception) -> None:
        """The block raised: log the line that raised, and the op that failed (see
        failed_call) with the tensors it was given, or the backward node that did."""
        if self.pending is not None:
            self._check_name(self.pending)
            self.pending = None
        frames = []
        tb = error.__traceback__
        while tb is not None:
            frames.append((tb.tb_frame, tb.tb_lasti))
            tb = tb.tb_next
        user = [i for i, (f, _) in enumerate(frames) if not _is_inside(f.f_code.co_filename)]
        if not user:
            return
        frame, lasti = frames[user[-1]]
        if frame.f_code not in self._callers:  # a function that raised before any event
            outer = frames[user[-2]] if len(user) > 1 else None
            self._callers[frame.f_code] = (outer[0].f_code, outer[1]) if outer else None
        inner = [f for f, _ in frames[user[-1] + 1 :]]
        failed = failed_call(inner)
        self.log.append(("error", frame.f_code, lasti, *failed, type(error).__name__, str(error)))

    # -- the end of the block ----------------------------------------------------------------
    def finish(self) -> None:
        """Name what the block's variables hold, then build the timeline from the log."""
        from .builder import Recorded
        from .modules import ModuleNames
        from .view import EngineView

        if self.pending is not None:
            self._check_name(self.pending)
            self.pending = None
        self._secure_reachable()
        frame = self.block_frame
        scope = self.namespace or {**frame.f_globals, **frame.f_locals}
        # A tensor no event named is named after the first variable of the block that holds it.
        names = {}
        for name, value in scope.items():
            if isinstance(value, Tensor) and not name.startswith("_"):
                names.setdefault(id(value), name)
                names.setdefault(("data", id(value._data)), name)  # embedding keeps the data
        names.update(self.names)
        log = self.log
        modules = ModuleNames(scope)
        callers = self._callers
        note_skipped(self.timeline, self.skipped, "autoviz.trace()")
        view = EngineView(modules)
        self.timeline._pending = Recorded(lambda: _resolve(log, names, callers), names, view)
        self.log, self.names, self.block_frame = [], {}, None
        self._sites, self._all_sites, self._stored, self._used = {}, {}, StoredNames(), set()
        self._callers = {}


def note_skipped(tl: Timeline, skipped: dict, tracer: str) -> None:
    """Say, in the timeline and as a warning, that other threads' events were not recorded."""
    tl.skipped = dict(skipped)
    if skipped:
        count, names = sum(skipped.values()), ", ".join(sorted(skipped))
        warnings.warn(
            f"{tracer} records the thread that entered it only: {count:,} events of other "
            f"threads ({names}) were not recorded. Run what you want to see in that thread.",
            stacklevel=4,
        )


def failed_call(frames: list) -> tuple:
    """What raised, from autoviz's frames under the user's line (outermost first): the
    backward node whose backward failed, or else the op called (its name, the tensors given
    it, the modules running), the innermost public function of autoviz given a tensor.

    Returns (node, name, tensors, modules): node None for an op, name None when nothing of
    autoviz's raised (a Python error in the user's own code).
    """
    from ..engine.backward import execute
    from ..engine.function import AccumulateGrad, Node
    from .modules import _module_class

    backward = [i for i, f in enumerate(frames) if f.f_code is execute.__code__]
    for frame in reversed(frames[backward[0] :] if backward else []):
        for value in frame.f_locals.values():
            if isinstance(value, Node) and not isinstance(value, AccumulateGrad):
                return value, None, [], ()
    module_cls = _module_class() or ()
    modules = tuple(
        f.f_locals.get("self")
        for f in frames
        if f.f_code.co_name == "__call__" and isinstance(f.f_locals.get("self"), module_cls)
    )
    for frame in reversed(frames):
        code = frame.f_code
        name = code.co_name
        if name in _HELPERS or (name.startswith("_") and not name.startswith("__")):
            continue
        count = code.co_argcount + bool(code.co_flags & 0x04)  # and *args
        args = [frame.f_locals.get(v) for v in code.co_varnames[:count]]
        args = [a for arg in args for a in (arg if isinstance(arg, tuple) else (arg,))]
        tensors = [a for a in args if isinstance(a, Tensor)]
        if tensors:
            return None, op_name(name), tensors, modules
    return None, None, [], ()


# Functions every op goes through, which name no op of their own.
_HELPERS = frozenset(["binary", "apply", "attach", "new_node", "forward", "__call__"])
# Python's names for the operators, as a learner writes the op.
_DUNDERS = {
    "__add__": "add",
    "__radd__": "add",
    "__sub__": "sub",
    "__rsub__": "rsub",
    "__mul__": "mul",
    "__rmul__": "mul",
    "__truediv__": "div",
    "__rtruediv__": "div",
    "__matmul__": "matmul",
    "__pow__": "pow",
    "__rpow__": "pow",
    "__neg__": "neg",
    "__getitem__": "index",
    "__setitem__": "setitem",
    "__iadd__": "add_",
    "__isub__": "sub_",
    "__imul__": "mul_",
    "__itruediv__": "div_",
}


def op_name(function: str) -> str:
    """`__matmul__` -> `matmul`: the name of the op a function (or an operator) runs."""
    if function in _DUNDERS:
        return _DUNDERS[function]
    return function[2:-2] if function.startswith("__") and function.endswith("__") else function


def _is_inside(name: str) -> bool:
    """Whether the file `name` is part of autoviz; remembered in _INSIDE or _OUTSIDE."""
    inside = name.startswith(_PACKAGE) and not name.startswith(_EXAMPLES)
    (_INSIDE if inside else _OUTSIDE).add(name)
    return inside


class _Kept:
    """An op's large result, for its deferred Summary: its array while the memory's version
    (engine/versions.py) is the one it had at the step, else the copy taken before a write."""

    __slots__ = ("array", "saved", "tensor", "uses", "version")

    def __init__(self, t: Tensor, data, entry) -> None:
        self.tensor, self.array, self.saved, self.uses = t, data, None, 0
        self.version = 0 if entry is None else entry[2] + len(entry[1])  # versions.version

    def __call__(self):
        if self.saved is None and self.array is not None:
            if _versions.version(self.array) == self.version:
                self.saved = self.array
            self.array = self.tensor = None
        return self.saved

    def copy(self) -> None:
        if self.saved is None and self.array is not None:
            if _versions.version(self.array) == self.version:
                self.saved = self.array.copy()
            self.array = self.tensor = None

    def reachable(self) -> bool:
        """Whether anything but the log (its record, its uses as an input, nodes keeping
        their inputs) holds the tensor, or anything views its array."""
        t, array = self.tensor, self.array
        if t is None:
            return False
        if sys.getrefcount(t) > 4 + self.uses:  # the record's, this, the argument, `t`
            return True
        # this, the argument, `array`, and the tensor's and its node's (which made it) own
        own = (t._data is array) + (getattr(t.grad_fn, "_out", None) is array)
        return sys.getrefcount(array) > 3 + own


class _Site:
    """A place in the user's code where events happen: an instruction of a code object.

    `name` is the variable the instruction stores its result in (None if it stores none).
    Whether that variable really holds the result is checked at the next event (_check_name)
    until it first proves right: from then on the site is `trusted`, and what is made there is
    named without a look (the results of ops when the log is resolved, which costs the hot path
    nothing). A site found holding something else once (`trusted` False) is checked every time.
    """

    __slots__ = ("check", "code", "lasti", "name", "src", "trusted")

    def __init__(self, code, lasti: int, name: str | None) -> None:
        self.code, self.lasti, self.name = code, lasti, name
        self.src = None  # its (file, line, caller), found when the log is resolved
        self.trusted = None  # not checked yet
        self.check = name is not None  # whatever is made here waits for _check_name


def _line_number(code, lasti: int) -> int | None:
    """The line of the instruction at byte offset `lasti`, as `frame.f_lineno` gives it."""
    for start, end, line in code.co_lines():
        if start <= lasti < end:
            return line
    return None


def _before_sums(fn, grad, grads) -> dict | None:
    """{input: what the op sends it before the sum back to its shape} for the inputs of a
    broadcasting op whose gradient has another shape than the large upstream `grad`, computed
    as the engine's backward computes it, from what the op saved (the builder's previews of
    a large upstream cannot tell it); None when no input was broadcast."""
    full = None
    for index, g in enumerate(grads):
        if type(g) is _ARRAY and g.shape != grad.shape:
            with np.errstate(all="ignore"):  # inf × 0 is NaN here as in the engine's backward
                sent = _unsummed(fn, grad, index)
            if sent is not None and sent.shape == grad.shape:
                full = full or {}
                full[index] = _light(sent)
    return full


def _unsummed(fn, grad, index: int):
    name, saved = plain(fn.name()), getattr(fn, "_saved", None)
    if name == "SubBackward0" and index == 1:
        return -grad
    if name in ("AddBackward0", "SubBackward0"):
        return grad
    if type(saved) is not tuple or len(saved) != 2:
        return None  # freed, or an op whose pre-sum gradient is not computed here
    a, b = saved
    if name == "MulBackward0":
        return grad * (b if index == 0 else a)
    if name == "DivBackward0":
        return grad / b if index == 0 else -grad * a / (b * b)
    return None


def _light(grad):
    """`grad`, or its Summary when it is a large array."""
    if type(grad) is _ARRAY and grad.size > _LARGE:
        return kept(grad)
    return grad


_OP, _NODE = "op", "node"  # the first item of a flat record in the log


def _resolve(log: list, names: dict, callers: dict) -> list:
    """The log as the builder reads it: (kind, (file, line, caller) or None, ...), numpy scalars
    previewed, large gradients as their summaries. Each place of the user's code is looked up once.
    The results of ops at trusted sites are named in `names` (see _Site).

    Ops and backward nodes, the many, are flat in the log: _OP, site, fn, out, values, value,
    the number of inputs, then the inputs; _NODE, fn, grad, local, grads, full. Every other event is
    one tuple.
    """
    sources = {}
    records = []
    append = records.append
    i, end = 0, len(log)
    while i < end:
        item = log[i]
        if item is _OP:
            # The many: one tuple each, numpy scalars left for the builder to make floats
            # (counting the steps reads none of them).
            site, fn, out, values, value, count = log[i + 1 : i + 7]
            inputs = tuple(log[i + 7 : i + 7 + count])
            i += 7 + count
            if site.trusted:
                names[id(out)] = site.name
            src = site.src
            if src is None:
                src = site.src = _place(site.code, site.lasti, callers, sources)
            append(("op", src, fn, out, inputs, values, value))
            continue
        if item is _NODE:
            fn, grad, local, grads, full = log[i + 1 : i + 6]
            i += 6
            records.append(("node", None, fn, grad, grads, local, full))
            continue
        else:
            record = item
            i += 1
        kind, code, lasti = record[0], record[1], record[2]
        src = None if code is None else _place(code, lasti, callers, sources)
        rest = record[3:]
        if kind == "leaf" and isinstance(rest[-1], np.generic):
            rest = (*rest[:-1], rest[-1].item())
        elif kind == "untracked" and isinstance(rest[-2], np.generic):
            rest = (*rest[:-2], rest[-2].item(), rest[-1])
        records.append((kind, src, *rest))
    return records


def _place(code, lasti: int, callers: dict, sources: dict) -> tuple:
    """(file, line, the caller's (file, line) or None) of an instruction, found once."""
    key = (id(code), lasti)
    src = sources.get(key)
    if src is None:
        caller = callers.get(code)
        if caller is not None:
            caller = (caller[0].co_filename, _line_number(*caller))
        src = sources[key] = (code.co_filename, _line_number(code, lasti), caller)
    return src


def _local(fn, grad):
    """Local derivatives of a scalar elementwise op whose upstream gradient is 0.

    Any other time they are contribution / upstream, computed later from the previews; for a
    zero upstream only running backward on 1 tells them, which is cheap only for scalars.
    """
    if grad != 0 if type(grad) is not np.ndarray or grad.ndim == 0 else True:
        return None
    if type(fn).__name__ not in ELEMENTWISE or not fn._forward_cls._builtin:
        return None
    ones = fn._backward(np.ones_like(grad))
    return [preview(g) if g is not None else None for g in ones]
