"""torch's process-wide switches that lesson code sets (threads, deterministic algorithms):
accepted and remembered, checked as torch checks them; autoviz's numpy kernels are
single-threaded and deterministic whatever they say."""

from __future__ import annotations

import os

_settings = {
    "threads": os.cpu_count() or 1,
    "interop_threads": os.cpu_count() or 1,
    "deterministic": False,
    "warn_only": False,
    "debug_mode": 0,
}


def _positive(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{name} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return value


def set_num_threads(int) -> None:
    """Remember the number of threads asked for (autoviz computes on one)."""
    _settings["threads"] = _positive(int, "set_num_threads")


def get_num_threads() -> int:
    """The number set by set_num_threads (at first, the machine's CPU count)."""
    return _settings["threads"]


def set_num_interop_threads(int) -> None:
    _settings["interop_threads"] = _positive(int, "set_num_interop_threads")


def get_num_interop_threads() -> int:
    return _settings["interop_threads"]


def use_deterministic_algorithms(mode, *, warn_only=False) -> None:
    """Remember the switch: every autoviz op is deterministic already."""
    if not isinstance(mode, bool):
        raise TypeError(
            "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
            f"{type(mode).__name__}"
        )
    _settings.update(deterministic=mode, warn_only=bool(warn_only))
    _settings["debug_mode"] = 0 if not mode else (1 if warn_only else 2)


def are_deterministic_algorithms_enabled() -> bool:
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _settings["warn_only"]


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode) -> None:
    """ "default"/0, "warn"/1 or "error"/2, as use_deterministic_algorithms sets them."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                f"got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(
            f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
        )
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    return _settings["debug_mode"]


_PRECISIONS = ("highest", "high", "medium")


def set_float32_matmul_precision(precision) -> None:
    """Remember the precision asked for: autoviz's float32 matmuls are numpy's, in float32,
    as torch's are on a CPU at "highest"."""
    if precision not in _PRECISIONS:
        import warnings

        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current "
            "setFloat32MatmulPrecision call has no effect.",
            UserWarning,
            stacklevel=2,
        )
        return
    _settings["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _settings.get("matmul_precision", "highest")


def set_warn_always(b) -> None:
    """Whether warnings torch gives once are given every time (autoviz's follow Python's
    filters either way)."""
    _settings["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _settings.get("warn_always", False)
