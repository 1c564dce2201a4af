"""Record engine events while user code runs under `autoviz.trace()`; cheap per event."""

import sys
from pathlib import Path

import numpy as np

from ..engine import Tensor, events
from .naming import assigned_name
from .preview import preview
from .symbols import ELEMENTWISE
from .timeline import Timeline

_PACKAGE = str(Path(__file__).resolve().parent.parent)
_EXAMPLES = str(Path(_PACKAGE) / "examples")  # lesson scripts shipped with autoviz are user code
_INTERNAL = {}  # code object -> whether it is autoviz's own (looked up for every frame)


class trace:
    """`with autoviz.trace() as tl:` records what the block does; tl is the Timeline.

    Nodes are named after the variables of the code around the `with` block, or after those in
    `namespace` when given (a script's globals, when the script runs inside the block).
    """

    def __init__(self, namespace: dict | None = None) -> None:
        self.namespace = namespace

    def __enter__(self) -> Timeline:
        self.recorder = Recorder(sys._getframe(1), self.namespace)
        events.add_observer(self.recorder)
        return self.recorder.timeline

    def __exit__(self, *exc) -> None:
        events.remove_observer(self.recorder)
        self.recorder.finish()


class Recorder:
    """An engine observer that appends one small record per event to a log.

    Values are previewed at once (they may change in place later); everything else, nodes,
    edges, steps and captions, is built from the log when the block ends.
    """

    def __init__(self, frame, namespace: dict | None = None) -> None:
        self.timeline = Timeline([], [], [])
        self.block_frame = frame
        self.namespace = namespace
        self.log = []
        self.names = {}  # id(tensor) -> variable name
        self.pending = []  # (tensor, frame, variable the line assigns) awaiting a name
        self._targets = {}  # (file, line) -> assigned variable name or None

    def _where(self):
        """The innermost frame outside autoviz, and the user's line there."""
        frame = sys._getframe(2)
        internal = _INTERNAL.get
        while frame is not None:
            code = frame.f_code
            inside = internal(code)
            if inside is None:
                name = code.co_filename
                inside = name.startswith(_PACKAGE) and not name.startswith(_EXAMPLES)
                _INTERNAL[code] = inside
            if not inside:
                break
            frame = frame.f_back
        if frame is None:
            frame = self.block_frame
        if self.pending:
            self._name_pending()
        return frame, (frame.f_code.co_filename, frame.f_lineno)

    def _expect_name(self, tensor, frame, src) -> None:
        """Remember that the line `y = ...` will bind `tensor` to `y`: check at the next event."""
        target = self._targets.get(src, False)
        if target is False:
            target = self._targets[src] = assigned_name(src)
        if target is not None:
            self.pending.append((tensor, frame, target))

    def _name_pending(self) -> None:
        for tensor, frame, target in self.pending:
            if frame.f_locals.get(target) is tensor:
                self.names.setdefault(id(tensor), target)
        self.pending.clear()

    # -- engine events: one append each --------------------------------------------------------
    def on_leaf(self, t: Tensor) -> None:
        frame, src = self._where()
        self.log.append(("leaf", src, t, preview(t._data)))
        self._expect_name(t, frame, src)

    def on_op(self, fn, out: Tensor, inputs) -> None:
        frame, src = self._where()
        self.log.append(("op", src, fn, out, inputs, _preview_inputs(inputs), preview(out._data)))
        self._expect_name(out, frame, src)

    def on_backward_start(self, seeds: dict) -> None:
        _, src = self._where()
        self.log.append(("seed", src, [(fn, preview(g)) for fn, g in seeds.items()]))

    def on_node(self, fn, grad, grads) -> None:
        # Gradient arrays are never changed in place, so they are previewed when building.
        self.log.append(("node", None, fn, grad, grads, _local(fn, grad)))

    def on_accumulate(self, t: Tensor, grad) -> None:
        # .grad is updated in place by later passes: preview it now.
        self.log.append(("accumulate", None, t, t._grad, grad, preview(t._grad._data)))

    def on_backward_end(self, retain_graph: bool) -> None:
        self.log.append(("end", None, retain_graph))

    def on_zero(self, t: Tensor) -> None:
        _, src = self._where()
        self.log.append(("zero", src, t, preview(t._data)))

    def on_grad_set(self, t: Tensor, value) -> None:
        _, src = self._where()
        self.log.append(
            ("set_grad", src, t, value, None if value is None else preview(value._data))
        )

    def on_detach(self, source: Tensor, out: Tensor) -> None:
        frame, src = self._where()
        self.log.append(("detach", src, source, out, preview(out._data)))
        self._expect_name(out, frame, src)

    def on_untracked(self, out: Tensor, inputs) -> None:
        frame, src = self._where()
        self.log.append(("untracked", src, out, inputs, preview(out._data)))
        self._expect_name(out, frame, src)

    def on_inplace(self, t: Tensor) -> None:
        _, src = self._where()
        self.log.append(("inplace", src, t, preview(t._data)))

    def on_retain_grad(self, t: Tensor) -> None:
        _, src = self._where()
        self.log.append(("retain", src, t))

    # -- the end of the block ----------------------------------------------------------------
    def finish(self) -> None:
        """Name what the block's variables hold, then build the timeline from the log."""
        from .builder import build
        from .modules import ModuleNames

        self._name_pending()
        frame = self.block_frame
        scope = self.namespace or {**frame.f_globals, **frame.f_locals}
        for name, value in scope.items():
            if isinstance(value, Tensor) and not name.startswith("_"):
                self.names[id(value)] = self.names.get(id(value), name)
        log, names = self.log, self.names
        modules = ModuleNames(scope)
        self.timeline._pending = lambda tl: build(tl, log, names, modules)
        self.log, self.names, self.block_frame = [], {}, None


def _preview_inputs(inputs) -> list:
    """Values of the inputs that may change later in the block: leaves (an optimizer updates
    them in place) and constants. Outputs of recorded ops are previewed when they are made."""
    values = []
    for v in inputs:
        if isinstance(v, Tensor):
            values.append(preview(v._data) if v.grad_fn is None else None)
        else:
            values.append(v)
    return values


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
