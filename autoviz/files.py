"""Writing the user's files atomically: each goes to a temporary file beside its target and is
renamed over it once whole, so a full disk or an error leaves the old file as it was."""

import contextlib
import os
import secrets
from pathlib import Path

from .interrupts import as_interrupt

_write = os.write  # the one call that puts bytes on disk (tests make it fail as a full disk would)


def write_bytes(path, data: bytes) -> Path:
    """Write `data` to `path` atomically; returns the path."""
    with batch() as files:
        files.add(path, data)
    return Path(path)


def write_text(path, text: str) -> Path:
    """Write `text` (UTF-8) to `path` atomically; returns the path."""
    return write_bytes(path, text.encode("utf-8"))


class Batch:
    """Files written together: each is staged beside its target; all are renamed into place at
    the end, or, after an error, none is and the staged files are removed."""

    def __init__(self) -> None:
        self.staged = []  # (temporary path, target)

    def add(self, path, data: bytes) -> Path:
        target = _target(Path(path))
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        # O_EXCL: never another's file; 0o666 less the umask, as open() would make the target.
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileNotFoundError:  # named by the target, not the temporary file
            raise FileNotFoundError(
                f"cannot write {str(path)!r}: folder {str(target.parent)!r} not found"
            ) from None
        self.staged.append((temporary, target))
        try:
            view = memoryview(data)
            while view:
                view = view[_write(fd, view) :]
            os.fsync(fd)  # on disk before the rename makes it the file
        finally:
            os.close(fd)
        _keep_mode(target, temporary)
        return Path(path)

    def commit(self) -> None:
        for temporary, target in self.staged:
            os.replace(temporary, target)
        self.staged = []

    def discard(self) -> None:
        for temporary, _ in self.staged:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        self.staged = []


@contextlib.contextmanager
def batch():
    """A Batch committed when the block ends, discarded if it raises (SIGTERM and SIGHUP
    included: no staged file is left beside its target)."""
    with as_interrupt():
        files = Batch()
        try:
            yield files
            files.commit()
        except BaseException:
            files.discard()
            raise


def _target(path: Path) -> Path:
    """Where the bytes go: through a symbolic link to the file it names (the link stays)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _keep_mode(target: Path, temporary: Path) -> None:
    """A file written again keeps its permissions (a shared lesson.html stays readable)."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(temporary, target.stat().st_mode & 0o7777)
