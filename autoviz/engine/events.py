"""Observers the engine notifies about graph events; free when none is registered."""

# The engine checks `if observers:` before building any event, so tracing costs nothing
# unless something is listening. Then it calls the event's function here, such as
# `events.on_op(node, out, inputs)`: the observer's own bound method when one observer
# defines it (no loop, no argument packing), else a function that calls each.
observers: list = []
_handlers: dict = {}  # event name -> bound methods, resolved once per registration

EVENTS = (
    "on_leaf",
    "on_op",
    "on_untracked",
    "on_detach",
    "on_inplace",
    "on_rebind",
    "on_zero",
    "on_grad_set",
    "on_retain_grad",
    "on_update",
    "on_zero_grad",
    "on_backward_start",
    "on_node",
    "on_accumulate",
    "on_backward_end",
    "on_write",
)


def _nobody(*args) -> None:
    """An event no observer listens to."""


on_leaf = on_op = on_untracked = on_detach = on_inplace = on_rebind = on_zero = _nobody
on_grad_set = on_retain_grad = on_backward_start = on_node = on_accumulate = _nobody
on_update = on_zero_grad = _nobody
on_backward_end = _nobody
on_write = _nobody  # a tensor's memory handed out to be written (Tensor._storage)


def add_observer(observer) -> None:
    """Register `observer`; the engine calls its methods named after each event."""
    observers.append(observer)
    _rebuild()


def remove_observer(observer) -> None:
    """Stop notifying `observer` (no error if it was never registered)."""
    if observer in observers:
        observers.remove(observer)
        _rebuild()


def _rebuild() -> None:
    _handlers.clear()
    for observer in observers:
        for name in dir(observer):
            if name.startswith("on_"):
                _handlers.setdefault(name, []).append(getattr(observer, name))
    for name in EVENTS:
        handlers = _handlers.get(name, ())
        globals()[name] = handlers[0] if len(handlers) == 1 else _each(handlers)


def _each(handlers):
    if not handlers:
        return _nobody

    def call(*args) -> None:
        for handler in handlers:
            handler(*args)

    return call


class unobserved:
    """No observer is told of the tensors made inside (a custom Function's own forward and
    backward: the ops they run are the Function's inside, not nodes of the graph); changes to
    memory an observer keeps still reach it."""

    MADE = ("on_leaf", "on_op", "on_untracked", "on_detach")

    def __enter__(self) -> None:
        scope = globals()
        self.saved = {name: scope[name] for name in self.MADE}
        scope.update(dict.fromkeys(self.MADE, _nobody))

    def __exit__(self, *exc) -> None:
        globals().update(self.saved)


def emit(event: str, *args) -> None:
    """Call `event(*args)` on every observer that defines it."""
    for handler in _handlers.get(event, ()):
        handler(*args)
