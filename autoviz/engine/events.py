"""Observers the engine notifies about graph events; free when none is registered."""

# The engine checks `if observers:` before building any event, so tracing costs nothing
# unless something is listening.
observers: list = []
_handlers: dict = {}  # event name -> bound methods, resolved once per registration


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


def emit(event: str, *args) -> None:
    """Call `event(*args)` on every observer that defines it."""
    for handler in _handlers.get(event, ()):
        handler(*args)
