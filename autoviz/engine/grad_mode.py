"""Switching gradient tracking on and off: no_grad, enable_grad, set_grad_enabled,
inference_mode."""

import functools

# "inference_used": an inference tensor may exist (autograd then checks what ops save)
_state = {"enabled": True, "inference": False, "inference_used": False}


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

    def __repr__(self) -> str:
        return f"{type(self).__module__}.set_grad_enabled(mode={self.mode})"

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


class inference_mode:
    """Like no_grad, and the tensors made inside are inference tensors (`is_inference()`): a
    context manager or a decorator; `inference_mode(False)` changes nothing."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self):
        self.prev = (_state["enabled"], _state["inference"])
        if self.mode:
            _state["enabled"], _state["inference"] = False, True
            _state["inference_used"] = True

    def __exit__(self, *exc) -> None:
        _state["enabled"], _state["inference"] = self.prev

    def __call__(self, func):
        if not callable(func):  # @inference_mode(False) is handled by __init__; this is misuse
            raise TypeError(f"inference_mode expects a function to decorate, got {func!r}")
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)

        return wrapper


def is_inference_mode_enabled() -> bool:
    return _state["inference"]


_anomaly = {"enabled": False, "check_nan": True}
ANOMALY_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only "
    "be enabled for debugging."
)


class set_detect_anomaly:
    """Anomaly detection on or off: a call, a context manager or a decorator (autoviz's errors
    already name the op; the mode is kept so that code using it runs)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = dict(_anomaly)
        _anomaly["enabled"], _anomaly["check_nan"] = bool(mode), bool(check_nan)
        if mode:
            import warnings

            warnings.warn(ANOMALY_WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        return None

    def __exit__(self, *exc) -> None:
        _anomaly.update(self.prev)


class detect_anomaly(set_detect_anomaly):
    def __init__(self, check_nan: bool = True) -> None:
        super().__init__(True, check_nan)

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with detect_anomaly():
                return func(*args, **kwargs)

        return wrapper


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly mode also stops a backward node that returns NaN."""
    return _anomaly["check_nan"]


def is_anomaly_enabled() -> bool:
    return _anomaly["enabled"]
