"""Running a layout or raster program on some input, never waiting past its time limit."""

import subprocess

REAP = 1.0  # seconds to wait for a killed program's pipes to close


def run(command: list, data: bytes, timeout: float, env: dict | None = None):
    """Exit code, stdout and stderr of `command` fed `data`; subprocess.TimeoutExpired past
    `timeout` seconds, with the program killed."""
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        stdout, stderr = proc.communicate(data, timeout=timeout)
    except BaseException:  # a timeout or Ctrl-C
        _stop(proc)
        raise
    return proc.returncode, stdout, stderr


def _stop(proc: subprocess.Popen) -> None:
    """Kill and reap `proc` without waiting on a program it started (a wrapper script's dot),
    which would hold the pipes open until it ended. The program stays in the caller's process
    group, so stopping a Jupyter kernel stops it too."""
    proc.kill()
    try:
        proc.communicate(timeout=REAP)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()
