"""Observers the engine notifies about graph events; free when none is registered."""

# The engine checks `if observers:` before building any event, so tracing costs nothing
# unless something is listening.
observers: list = []


def add_observer(observer) -> None:
    """Register `observer`; the engine calls its methods named after each event."""
    observers.append(observer)


def remove_observer(observer) -> None:
    """Stop notifying `observer` (no error if it was never registered)."""
    if observer in observers:
        observers.remove(observer)


def emit(event: str, *args) -> None:
    """Call `event(*args)` on every observer that defines it."""
    for observer in tuple(observers):
        handler = getattr(observer, event, None)
        if handler is not None:
            handler(*args)
