"""Graphviz's plugins minus Pango for SVG layouts: dot then sizes text from its own font tables.

Loading Pango and fontconfig is most of a fresh `dot`'s start-up (about 20 of 25 ms), and
measuring every label through them most of a lesson graph's layout. Without the Pango plugin,
dot sizes text from built-in width tables for Times, Courier and Arial (the diagrams' font, whose
widths Helvetica, Liberation Sans and Arimo share); and a browser draws the SVG in its own fonts,
whatever dot measured. So an SVG layout runs dot with $GVBINDIR pointing at a folder whose
plugin configuration lists only the libraries `dot -v` reports using for SVG and layout. The
folder is made once per installed dot, in autoviz's cache folder.
$AUTOVIZ_MEASURE_FONTS=1 measures text in the installed fonts instead.
"""

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import process
from .theme import FONT

TIMEOUT = 10.0  # seconds for dot to lay out a graph of one node; more means something is wrong
# Font names with a width table in every Graphviz, compared as Graphviz 2.50+ does (letters
# only, lower case); a graph naming another font is measured in it.
TABLED = {"helvetica", "arial", "times", "timesroman", "courier"}
_FONT_NAME = re.compile(r'f(?:ontname|ace)"?\s*=\s*"?([^"\]>]*)')  # starts with a literal: fast
# Text beyond Latin-1, except the symbol blocks autoviz's own labels use (arrows, ×, …, ∂, ⚠,
# and the superscripts of a transposed weight's `weightᵀ`, ², ₁): dot's tables have no widths
# for it, so a Greek or Chinese name is measured in its font.
_OTHER_SCRIPT = re.compile("[^\x00-\xff\u1d2c-\u1d6a\u2000-\u209f\u2190-\u22ff\u2600-\u26ff]")
_NEEDS_PLUGINS = re.compile(r"(?:image|layout)\s*=")  # images, or another layout engine
_PROBE = f'digraph {{ node [fontname="{FONT}"] a [label=<<b>a</b><br/>b>] }}'.encode()
_ON, _OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def environment(engine: str, source: str, limit=TIMEOUT) -> dict | None:
    """The environment to lay `source` out as SVG without Pango; None to run `engine` as is.
    Looking up dot's plugins, the first time, shares `limit` (seconds or a process.Deadline)
    with the layout, and takes TIMEOUT at most."""
    if _measure_fonts() or Path(engine).name.lower() not in ("dot", "dot.exe"):
        return None
    folder = plugin_folder(engine, limit) if suits(source) else None
    return None if folder is None else {**os.environ, "GVBINDIR": folder}


def suits(source: str) -> bool:
    """Whether `source` needs nothing but dot's SVG and layout plugins and its font tables."""
    if not source.isascii() and _OTHER_SCRIPT.search(source):
        return False
    lowered = source.lower()  # the tags and attributes of HTML-like labels take any case
    if "<img" in lowered or _NEEDS_PLUGINS.search(lowered):
        return False
    return all(re.sub("[^a-z]", "", name) in TABLED for name in _FONT_NAME.findall(lowered))


_FOLDERS = {}  # engine -> its plugin folder, or None when it has none that works


def plugin_folder(engine: str, limit=TIMEOUT) -> str | None:
    """The folder configuring `engine` with its SVG and layout plugins only, made on first use;
    None when its `dot -v` report or the configured run is not as Graphviz's own. A lookup that
    runs out of time raises subprocess.TimeoutExpired and is tried again next time."""
    if engine not in _FOLDERS:
        _FOLDERS[engine] = _lookup(engine, _within(limit))
    return _FOLDERS[engine]


def _within(limit) -> process.Deadline:
    """`limit`, no longer than TIMEOUT from now."""
    seconds = limit.left("dot -v") if isinstance(limit, process.Deadline) else limit
    return process.Deadline(min(seconds, TIMEOUT))


def _lookup(engine: str, deadline: process.Deadline) -> str | None:
    try:
        folder = _folder_for(engine)
        if not folder.is_dir():
            _make(engine, folder, deadline)
        return str(folder) if folder.is_dir() else None
    except subprocess.TimeoutExpired:
        raise
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError):
        return None  # RuntimeError: no home folder


def forget(engine: str, limit=TIMEOUT) -> None:
    """After a layout failed in the folder but not with every plugin: if the folder itself no
    longer works (a Graphviz upgrade moved its libraries, say), remove it, so that the next
    layout makes it again. A folder that works stays: the graph needed more. Checking shares
    `limit`; with no time left, the folder is left as it is."""
    _FOLDERS.pop(engine, None)
    try:
        folder = _folder_for(engine)
        if not folder.is_dir() or _works(engine, folder, _within(limit)):
            return
        aside = Path(tempfile.mkdtemp(prefix=f"{folder.name}-old-", dir=folder.parent))
        try:
            folder.rename(aside / folder.name)  # out of the way at once; others make a new one
        finally:
            shutil.rmtree(aside, ignore_errors=True)  # with the folder, or empty if it stayed
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError):
        pass  # someone else moved it first, or it cannot be moved: the next layout will tell


def _measure_fonts() -> bool:
    raw = os.environ.get("AUTOVIZ_MEASURE_FONTS", "")
    value = raw.strip().lower()
    if value not in _ON + _OFF:
        raise ValueError(f"AUTOVIZ_MEASURE_FONTS must be 1 (on) or 0 (off), got {raw!r}")
    return value in _ON


def _folder_for(engine: str) -> Path:
    """Where the folder for this installed dot lives (whether made yet or not)."""
    return _cache() / f"graphviz-{_fingerprint(engine)}"


def _cache() -> Path:
    """autoviz's cache folder: $XDG_CACHE_HOME/autoviz, else ~/.cache/autoviz (a relative
    $XDG_CACHE_HOME is ignored, as the XDG specification says)."""
    base = Path(os.environ.get("XDG_CACHE_HOME", ""))
    return (base if base.is_absolute() else Path.home() / ".cache") / "autoviz"


def _fingerprint(engine: str) -> str:
    """Names the installed dot: a new or upgraded one gets a folder of its own."""
    path = os.path.realpath(engine)
    stat = os.stat(path)
    return hashlib.sha256(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}".encode()).hexdigest()[:16]


def _make(engine: str, folder: Path, limit) -> None:
    """Fill a draft folder and, if dot works from it, move it into place in one step."""
    used = _plugins_used(engine, limit)
    if used is None:
        return
    libdir, config, libraries = used
    _not_a_file(folder.parent)
    folder.parent.mkdir(parents=True, exist_ok=True)
    draft = Path(tempfile.mkdtemp(prefix=f"{folder.name}-", dir=folder.parent))
    try:
        for name in dict.fromkeys(libraries):  # each once
            if _plain_name(name) and name != config.name:
                _link(Path(libdir, name), draft / name)
        kept = _blocks_of(config.read_text(encoding="utf-8"), libraries)
        _new_file(draft / config.name, kept.encode("utf-8"))
        if _works(engine, draft, limit):
            _not_a_file(folder)
            with contextlib.suppress(OSError):  # another process got there first: theirs will do
                draft.rename(folder)
    finally:
        shutil.rmtree(draft, ignore_errors=True)


def _not_a_file(path: Path) -> None:
    """Remove a file or a symbolic link that does not lead to a folder where a folder goes
    (a dangling link, a file left by something else); a folder stays."""
    if not path.is_dir() and (path.is_symlink() or path.exists()):
        with contextlib.suppress(FileNotFoundError):  # someone else removed it first
            path.unlink()


def _plugins_used(engine: str, limit) -> tuple[str, Path, list[str]] | None:
    """`dot -v`'s plugin folder, configuration file and the libraries an SVG layout loads."""
    code, _, stderr = process.run([engine, "-v", "-Tsvg"], b"digraph {}", limit)
    report = stderr.decode("utf-8", "replace").replace("\r\n", "\n")  # Windows writes CRLF
    libdir = re.search(r'^libdir = "(.+)"$', report, re.MULTILINE)
    config = re.search(r"configuration file:\s*\n\s*(.+?)\s*\n\s*was successfully", report)
    libraries = re.findall(r"^Activated plugin library: (.+?)\s*$", report, re.MULTILINE)
    if code != 0 or not (libdir and config and libraries):
        return None
    return libdir.group(1), Path(config.group(1)), libraries


def _blocks_of(config: str, libraries: list[str]) -> str:
    """The blocks of a plugin configuration that describe `libraries`, as written."""
    kept, keep = [], False
    for line in config.splitlines():
        words = line.split()
        if words and line[:1] not in (" ", "\t", "#", "}"):  # a library's block starts unindented
            keep = words[0] in libraries
        if keep:
            kept.append(line)
    return "\n".join(kept) + "\n"


def _plain_name(name: str) -> bool:
    """A library's file name with no folder in it: its link stays inside the draft."""
    return name not in ("", ".", "..") and Path(name).name == name and "\\" not in name


def _link(target: Path, link: Path) -> None:
    """A symbolic link, or a copy where links need privileges (Windows). The cache holds
    links into the system's plugin folder: it never opens one for writing, or it would write
    into Graphviz's own files (a copy goes to a new file, never through what is there)."""
    try:
        link.symlink_to(target)
    except OSError:
        _new_file(link, target.read_bytes())


def _new_file(path: Path, data: bytes) -> None:
    """Write a file that is not there yet; never through a link, nor over another file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o644)
    with open(fd, "wb") as out:
        out.write(data)


def _works(engine: str, folder: Path, limit) -> bool:
    """Whether `engine` configured from `folder` lays out a label in the diagrams' font cleanly
    (Graphviz 2.50+ warns about a font it has no table for)."""
    env = {**os.environ, "GVBINDIR": str(folder)}
    code, stdout, stderr = process.run([engine, "-Tsvg"], _PROBE, limit, env)
    return code == 0 and not stderr and stdout.rstrip().endswith(b"</svg>")
