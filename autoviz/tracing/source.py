"""The traced code as written, recorded while tracing: every line of the traced block, the lines
of the functions it ran and the headers around them, each file under the label its reader knows
(`lesson.py`, Jupyter's `In [8]`). A timeline carries this text, so no view of it, and nothing
loaded from a file, ever reads a path named inside it."""

import linecache
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# Lines a block or a function may hold at most (a generated file could be anything).
MAX_LINES = 2000
_HEADERS = ("for ", "async for ", "while ", "with ", "async with ", "def ", "async def ")
_HEADERS += ("if ", "elif ", "else:", "try:", "except", "finally:", "class ")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


@dataclass
class CodeText:
    """One file's (or notebook cell's) recorded lines: [line number, text as written], in order;
    `block`: the first and last line of the traced `with` block when it is in this file."""

    file: str
    label: str
    lines: list
    block: list | None = None


@dataclass(frozen=True)
class Block:
    """The `with` statement being entered and its body."""

    file: str
    first: int
    last: int


def block_of(frame) -> Block:
    """The block whose `with` statement `frame` is running: its line and every line after it
    indented deeper (blank lines and comments inside included)."""
    file, first = frame.f_code.co_filename, frame.f_lineno
    lines = linecache.getlines(file, frame.f_globals)
    if not 0 < first <= len(lines):
        return Block(file, first, first)
    indent, last = _width(lines[first - 1]), first
    for n in range(first + 1, min(len(lines), first + MAX_LINES) + 1):
        text = lines[n - 1]
        if not text.strip():
            continue
        if _width(text) <= indent:
            break
        last = n
    return Block(file, first, last)


def whole_file(file: str) -> Block:
    """A script run as a whole (the CLI's commands): its every line is the traced block."""
    count = len(linecache.getlines(file))
    return Block(file, 1, max(1, min(count, MAX_LINES)))


def record(block: Block | None, places) -> list[CodeText]:
    """The text of the block and of the places (file, line) steps came from, with the
    headers (`for`, `with`, `def`, …) each such line sits in, read now, while the files are
    the program's own."""
    wanted = {}  # file -> set of line numbers, in order of first use
    if block is not None:
        wanted[block.file] = set(range(block.first, block.last + 1))
        wanted[block.file].update(row for row, _ in _enclosing(block.file, block.first))
    for file, line in places:
        if line is None:
            continue
        rows = wanted.setdefault(file, set())
        if line not in rows:
            rows.add(line)
            rows.update(row for row, _ in _enclosing(file, line))
    labels = _labels(list(wanted))
    out = []
    for file, rows in wanted.items():
        lines = [[n, _line(file, n)] for n in sorted(rows)[:MAX_LINES]]
        span = [block.first, block.last] if block is not None and block.file == file else None
        out.append(CodeText(file, labels[file], lines, span))
    return out


def is_header(text: str) -> bool:
    """Whether a line opens a block (`for`, `with`, `def`, `if`, …)."""
    return text.strip().startswith(_HEADERS)


def identifiers(code: list) -> set:
    """Every name the recorded code spells (variables, functions, attributes)."""
    return {word for text in code for _, line in text.lines for word in _IDENTIFIER.findall(line)}


def _line(file: str, n: int) -> str:
    return linecache.getline(file, n).rstrip("\r\n")


def _width(text: str) -> int:
    return len(text) - len(text.lstrip())


def _enclosing(file: str, line: int) -> list:
    """The headers line `line` of `file` sits in, innermost first, found by indentation."""
    found, indent = [], None
    for row in range(line, max(0, line - MAX_LINES), -1):
        text = linecache.getline(file, row)
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = _width(text)
        if indent is None:
            indent = width
        elif width < indent:
            indent = width
            if stripped.startswith(_HEADERS):
                found.append((row, stripped))
        if indent == 0:
            break
    return found


def _labels(files: list) -> dict:
    """What each file is called: a script by its name; a notebook cell as Jupyter shows it,
    `In [8]` (its execution count), or `cell 1`, `cell 2`, … where that is not known."""
    counts = _cell_numbers()
    labels, cells = {}, 0
    for file in files:
        if "ipykernel_" in file or file.startswith("<ipython-input"):
            cells += 1
            number = counts.get(file)
            labels[file] = f"In [{number}]" if number is not None else f"cell {cells}"
        else:
            labels[file] = Path(file).name
    return labels


def _cell_numbers() -> dict:
    """Cell file -> its execution count, from the running IPython (none outside one)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    found = getattr(getattr(shell, "compile", None), "_filename_map", None)
    return dict(found) if isinstance(found, dict) else {}
