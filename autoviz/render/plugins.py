"""Graphviz's plugins minus Pango for SVG layouts: dot then sizes text from its own font tables.

Loading Pango and fontconfig is most of a fresh `dot`'s start-up (about 20 of 25 ms), and
measuring every label through them most of a lesson graph's layout. Without the Pango plugin,
dot sizes text from built-in width tables for Times, Courier and Arial. Helvetica, the diagrams'
font, has Arial's widths, as do Liberation Sans and most fonts a browser draws it with; and a
browser draws the SVG in its own fonts, whatever dot measured. So an SVG layout runs dot with
$GVBINDIR pointing at a folder whose plugin configuration lists only the libraries `dot -v`
reports using for SVG and layout. $AUTOVIZ_MEASURE_FONTS=1 measures with the real fonts.
"""

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import process
from .theme import FONT

TIMEOUT = 10.0  # seconds for dot to lay out a graph of one node; more means something is wrong
# Fonts whose widths dot has tables for; a graph naming another font is measured in it.
_TABLED = ("helvetica", "arial", "times", "courier")
_FONT_NAME = re.compile(r'f(?:ontname|ace)\s*=\s*"?([^"\]>]*)')  # starts with a literal: fast
_IMAGE = re.compile(r"image\s*=")
_PROBE = f'digraph {{ node [fontname="{FONT}"] a [label=<<b>a</b><br/>b>] }}'.encode()


def environment(engine: str, source: str) -> dict | None:
    """The environment to lay `source` out as SVG without Pango; None to run `engine` as is."""
    if os.environ.get("AUTOVIZ_MEASURE_FONTS", "0") not in ("", "0"):
        return None
    if Path(engine).name not in ("dot", "dot.exe") or not suits(source):
        return None
    folder = plugin_folder(engine)
    return None if folder is None else {**os.environ, "GVBINDIR": folder}


def suits(source: str) -> bool:
    """Whether `source` needs nothing Pango gives: no images, and only fonts dot has tables for."""
    lowered = source.lower()  # the tags and attributes of HTML-like labels take any case
    if "<img" in lowered or _IMAGE.search(lowered):  # images load through other plugins
        return False
    return all(name.strip().startswith(_TABLED) for name in _FONT_NAME.findall(lowered))


@functools.cache
def plugin_folder(engine: str) -> str | None:
    """A folder configuring `engine` with its SVG and layout plugins only, made once per process;
    None when its `dot -v` report or the configured run is not as Graphviz's own."""
    try:
        used = _plugins_used(engine)
        if used is None:
            return None
        folder = Path(tempfile.mkdtemp(prefix="autoviz-graphviz-"))
        _remove_at_exit(folder)
        libdir, config, libraries = used
        for name in libraries:
            if not Path(name).is_absolute():
                _link(Path(libdir, name), folder / name)
        kept = _blocks_of(config.read_text(encoding="utf-8"), libraries)
        (folder / config.name).write_text(kept, encoding="utf-8")
        return str(folder) if _works(engine, folder) else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def _plugins_used(engine: str) -> tuple[str, Path, list[str]] | None:
    """`dot -v`'s plugin folder, configuration file and the libraries an SVG layout loads."""
    code, _, stderr = process.run([engine, "-v", "-Tsvg"], b"digraph {}", TIMEOUT)
    report = stderr.decode("utf-8", "replace")
    libdir = re.search(r'^libdir = "(.+)"$', report, re.MULTILINE)
    config = re.search(r"configuration file:\s*\n\s*(.+?)\s*\n\s*was successfully", report)
    libraries = re.findall(r"^Activated plugin library: (.+?)\s*$", report, re.MULTILINE)
    found = code == 0 and libdir and config and libraries
    if not found or any("pango" in name for name in libraries):
        return None
    return libdir.group(1), Path(config.group(1)), libraries


def _blocks_of(config: str, libraries: list[str]) -> str:
    """The blocks of a plugin configuration that describe `libraries`, as written."""
    kept, keep = [], False
    for line in config.splitlines():
        if line[:1] not in ("", " ", "\t", "#", "}"):  # a library's block starts unindented
            keep = line.split()[0] in libraries
        if keep:
            kept.append(line)
    return "\n".join(kept) + "\n"


def _link(target: Path, link: Path) -> None:
    """A symbolic link, or a copy where links need privileges (Windows)."""
    try:
        link.symlink_to(target)
    except OSError:
        shutil.copy2(target, link)


def _works(engine: str, folder: Path) -> bool:
    """Whether `engine` configured from `folder` lays out a label in the diagrams' font cleanly."""
    env = {**os.environ, "GVBINDIR": str(folder)}
    code, stdout, stderr = process.run([engine, "-Tsvg"], _PROBE, TIMEOUT, env)
    return code == 0 and not stderr and stdout.rstrip().endswith(b"</svg>")


def _remove_at_exit(folder: Path) -> None:
    owner = os.getpid()  # a forked child exiting must not remove its parent's folder

    def remove() -> None:
        if os.getpid() == owner:
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
