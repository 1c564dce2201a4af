"""SIGTERM and SIGHUP treated as Ctrl-C while a layout runs or a file is half written: the
cleanup Ctrl-C gets runs (the layout's processes stopped, the staged file removed), then the
process ends by the signal, as it would have without autoviz."""

import contextlib
import os
import signal
import threading

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(BaseException):
    """Raised where the program was when SIGTERM or SIGHUP came (never caught as an Exception)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"received {signal.Signals(signum).name}")
        self.signum = signum


_depth = 0  # guards entered (the main thread's only: only it receives signals)
_ours = []  # the signals whose default action the guard replaced
_received = None  # the first signal that came inside the guard


@contextlib.contextmanager
def as_interrupt():
    """Inside the block, SIGTERM and SIGHUP raise Terminated, where their default action would
    end the process at once; when the outermost block ends, the process ends by the signal.
    Signals with a handler of their own (the user's, or ignored under nohup) are left alone."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth == 0:
        _install()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            _uninstall()


def _install() -> None:
    global _received
    _received = None
    for signum in SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _raise)
            _ours.append(signum)


def _uninstall() -> None:
    for signum in _ours:
        signal.signal(signum, signal.SIG_DFL)
    _ours.clear()
    if _received is not None:  # cleaned up: now end as the signal would have ended us
        os.kill(os.getpid(), _received)


def _raise(signum, frame) -> None:
    global _received
    if _received is None:  # a second signal while cleaning up must not cut the cleanup short
        _received = signum
        raise Terminated(signum)
