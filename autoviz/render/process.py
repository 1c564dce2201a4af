"""Running a layout or raster program on some input, stopping all it started if it overruns."""

import contextlib
import os
import signal
import subprocess


def run(command: list, data: bytes, timeout: float, env: dict | None = None):
    """Exit code, stdout and stderr of `command` fed `data`; subprocess.TimeoutExpired past
    `timeout` seconds, with the program and its children stopped."""
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # its own process group, so a wrapper script's dot stops too
    )
    try:
        stdout, stderr = proc.communicate(data, timeout=timeout)
    except BaseException:  # a timeout or Ctrl-C: in its own session it would run on
        _stop(proc)
        raise
    return proc.returncode, stdout, stderr


def _stop(proc: subprocess.Popen) -> None:
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    else:
        proc.kill()
    proc.communicate()
