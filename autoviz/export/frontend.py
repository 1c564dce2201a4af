"""The player's front-end files: one ES module (its parts joined in order) and its stylesheet."""

import re
from functools import cache
from importlib import resources

# The module's parts, joined into one ES module: anywidget loads a single module text and the
# HTML page inlines it, so the parts share one scope and nothing is imported or fetched.
PARTS = (
    "dom.js",
    "picture.js",
    "camera.js",
    "quiz.js",
    "player.js",
    "layout.js",
    "overview.js",
    "scrub.js",
    "heatmap.js",
    "inspect.js",
    "nudge.js",
    "iterations.js",
    "compare.js",
    "main.js",
)
STYLES = ("player.css", "details.css")


@cache
def module(compact: bool = False) -> str:
    """The ES module: `export default { render }` for anywidget, `startPage()` for the page.

    `compact` leaves out comments and indentation (the HTML file's copy: a third smaller).
    """
    text = "\n".join(_asset(f"js/{name}") for name in PARTS)
    return _compact(text) if compact else text


@cache
def stylesheet(compact: bool = False) -> str:
    """The player's CSS, every rule under `.av-player` so a notebook page is left alone."""
    text = "\n".join(_asset(name) for name in STYLES)
    return _compact(text) if compact else text


# Comments that take whole lines (the parts are written so: no code shares a line with
# one, no string or template literal spans lines), then indentation and blank lines.
_BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.S | re.M)
_LINE_COMMENT = re.compile(r"^[ \t]*//.*\n", re.M)
_INDENT = re.compile(r"^[ \t]+|\n(?=\n)", re.M)


def _compact(text: str) -> str:
    text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", text))
    return _INDENT.sub("", text)


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("player", name).read_text("utf-8")
