"""User text as every output shows it: invisible characters spelled out, markup escaped, long
rows shortened. One escape for DOT labels, SVG frames, animations and the player alike."""

import html
import json
import re

# Longer rows of a label are shortened with an ellipsis (the full text goes in the tooltip):
# dot refuses an HTML label of about 16,000 characters, and a box that wide is unreadable.
MAX_ROW = 100
# A tooltip holds this much of a label: dot refuses quoted strings of 16,384 characters, and an
# escaped character can take 8 (a backslash is written as four, `&` as `&amp;`).
MAX_TOOLTIP = 1800


def visible(text) -> str:
    """`text` with each character a reader cannot see written as its escape: control
    characters (`\\x1b`), bidi overrides (`\\u202e`), lone surrogates, noncharacters."""
    text = str(text)
    if text.isprintable():  # the usual case: checking each character is slow
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def escape(text) -> str:
    """Make user text literal inside an HTML-like label, SVG or HTML: markup, quotes, and the
    characters `visible` spells out."""
    return html.escape(visible(text), quote=True)


def shorten(text: str, limit: int = MAX_ROW) -> str:
    """`text` cut to `limit` characters, the last an ellipsis, when longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def row(text) -> str:
    """One row of a label as drawn: visible, shortened, escaped (in that order, so an escape
    is never cut in half)."""
    return html.escape(shorten(visible(text)), quote=True)


def dot_row(text) -> str:
    """`row` inside a DOT HTML-like label: dot reads `\\N`, `\\G`, `\\E` in label text (after
    decoding entities) as the node's, graph's and edge's names, and `\\\\` as one backslash."""
    return row(text).replace("\\", "\\\\")


def tooltip(rows: list) -> str:
    """The rows of a label as one quoted DOT tooltip, rows on lines of their own: escaped as
    markup (dot keeps entities); a backslash is four, as dot unescapes quoted strings and then
    reads `\\N`, `\\G`, … in tooltips."""
    rows = [visible(text) for text in rows]
    long = [text for text in rows if len(text) > MAX_ROW]
    # The long rows share what the short ones leave of MAX_TOOLTIP.
    limit = (MAX_TOOLTIP - sum(len(t) for t in rows if len(t) <= MAX_ROW)) // max(1, len(long))
    parts = (html.escape(shorten(text, max(limit, MAX_ROW)), quote=True) for text in rows)
    return "&#10;".join(parts).replace("\\", "\\" * 4)


_LINE = re.compile(r"[^\n]+")
_OTHER_ESCAPE = re.compile(r'\\[^"n]')  # in JSON text whose escaped backslashes are removed


def visible_lines(text: str) -> str:
    """`visible` for each line of a multi-line text (the player's panels), newlines kept."""
    if text.isprintable():  # one line that needs nothing: most texts
        return text
    return _LINE.sub(lambda m: visible(m.group()), text)


def visible_data(data):
    """JSON-like `data` with every string made visible line by line (see `visible_lines`)."""
    # Usually nothing needs it, which its JSON text tells at C speed: printable, and no escape
    # but a newline's or a quote's (JSON writes every other control character as one).
    try:
        text = json.dumps(data, ensure_ascii=False).replace("\\\\", "")
    except (TypeError, ValueError):  # not JSON (a numpy number): look at each string
        return _visible_data(data)
    if text.isprintable() and not _OTHER_ESCAPE.search(text):
        return data
    return _visible_data(data)


def _visible_data(data):
    if type(data) is list and all(type(v) is int for v in data):
        return list(data)  # a player step's changes: slot and string numbers, most of the data
    if isinstance(data, str):
        return visible_lines(data)
    if isinstance(data, dict):
        return {visible_lines(k): _visible_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_visible_data(v) for v in data]
    return data
