"""`tl.save_html(path)`: one self-contained page that steps through a timeline, offline."""

import base64
import gzip
import hashlib
import json
import re
from importlib import resources
from pathlib import Path

from .. import files
from . import frontend
from .playerdata import build

SUFFIXES = (".html", ".htm")
_MARKER = re.compile(r"\{\{(\w+)\}\}")
# The page starts the module's player on its own document (the widget calls render instead).
_START = "\nstartPage();\n"


def save_html(tl, path, **options) -> Path:
    """Write the player for `tl` to `path` (.html); returns the path. Options: those of
    `player_page`."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(
            f"cannot save the player as {path.name!r}: unknown suffix "
            f"{path.suffix or '(none)'!r} (must be one of {list(SUFFIXES)})"
        )
    files.write_text(path, player_page(tl, **options))
    return path


def player_page(
    tl,
    *,
    quiz=False,
    theme: str = "default",
    ghost: bool = False,
    rankdir: str | None = None,
    timeout=None,
    **options,
) -> str:
    """The whole player as HTML text: inline SVGs per graph, per-step changes, CSS and JS.

    `rankdir` None lets the player pick the direction that fits the screen; the drawing
    options are those of `tl.draw`.
    """
    bundle = build(
        tl, quiz=quiz, theme=theme, ghost=ghost, rankdir=rankdir, timeout=timeout, **options
    )
    return bundle_page(bundle)


def bundle_page(bundle) -> str:
    """The page of a built Bundle (the CLI reads the bundle's questions before writing it)."""
    script = frontend.module(compact=True) + _START
    payload = (
        f'<div id="av-layouts" hidden>\n{layouts_html(bundle)}\n</div>\n'
        f'<script type="application/json" id="av-data">{embed_json(bundle.data)}</script>'
    )
    root = '<div id="av-root" class="av-player av-page-root"></div>'
    title = f"autoviz player — {bundle.data['total']} steps"
    return page_html(title, script, root, payload)


def page_html(title: str, script: str, root: str, payload: str, page_class="av-page") -> str:
    """A self-contained page: the player's stylesheet, `root` for it to fill, the data it
    reads (`payload`, already escaped) and its one script, pinned by the page's CSP."""
    parts = {
        "csp": csp(script),
        "title": title,
        "css": frontend.stylesheet(compact=True),
        "page_class": page_class,
        "root": root,
        "payload": payload,
        "js": script,
    }
    return fill_template("player.html", parts)


def fill_template(name: str, parts: dict) -> str:
    """A page template with its {{markers}} replaced, in one pass over the template only:
    markers inside the inserted parts stay literal text."""
    return _MARKER.sub(lambda m: parts[m.group(1)], _asset(name))


def layouts_html(bundle) -> str:
    """Each layout's first direction as inline SVG, the others packed for the page to unpack."""
    graphs = []
    for i, (first, *others) in enumerate(bundle.svgs):
        graphs.append(f'<div data-layout="{i}" data-direction="0">\n{first}</div>')
        for d, svg in enumerate(others, 1):
            graphs.append(
                f'<script type="text/plain" data-layout="{i}" data-direction="{d}">'
                f"{_packed(svg)}</script>"
            )
    return "\n".join(graphs)


def _packed(svg: str) -> str:
    """The layouts in other directions, gzipped (a tenth of the size) and in base64: the page
    shows the first direction at once and unpacks these in the background (for R)."""
    return base64.b64encode(gzip.compress(svg.encode("utf-8"), mtime=0)).decode("ascii")


def embed_json(data) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` can end it or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def csp(script: str) -> str:
    """Only this page's own script may run; nothing may be fetched, from anywhere."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("player", name).read_text("utf-8")
