"""Switching gradient tracking on and off: no_grad, enable_grad, set_grad_enabled."""

import functools

_state = {"enabled": True}


def is_grad_enabled() -> bool:
    """True when new operations are recorded in the graph."""
    return _state["enabled"]


class set_grad_enabled:
    """Turn recording on or off: as a call, a context manager or a decorator."""

    def __init__(self, mode: bool) -> None:
        self.prev = _state["enabled"]
        self.mode = bool(mode)
        _state["enabled"] = self.mode

    def __enter__(self):
        return None

    def __exit__(self, *exc) -> None:
        _state["enabled"] = self.prev

    def __call__(self, func):
        mode = self.mode
        _state["enabled"] = self.prev  # used as a decorator: do not change the mode now

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return func(*args, **kwargs)

        return wrapper


class _GradMode:
    """Base for no_grad and enable_grad: a context manager and a decorator."""

    mode = True

    def __enter__(self):
        self.prev = _state["enabled"]
        _state["enabled"] = self.mode

    def __exit__(self, *exc) -> None:
        _state["enabled"] = self.prev

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with type(self)():
                return func(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Do not record operations: results do not require grad."""

    mode = False


class enable_grad(_GradMode):
    """Record operations again, even inside no_grad."""

    mode = True
