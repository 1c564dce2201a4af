"""`tl.save_html(path)`: one self-contained page that steps through a timeline, offline."""

import base64
import hashlib
import html
import json
import math
import re
from importlib import resources
from pathlib import Path

from ..render.labels import visible_data
from ..tracing import explain
from .deltas import Deltas, step_deltas

SUFFIXES = (".html", ".htm")
_MARKER = re.compile(r"\{\{(\w+)\}\}")


def save_html(
    tl, path, *, quiz: bool = False, theme: str = "default", ghost: bool = False, **options
) -> Path:
    """Write the player for `tl` to `path` (.html); returns the path."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(
            f"cannot save the player as {path.name!r}: unknown suffix "
            f"{path.suffix or '(none)'!r} (must be one of {list(SUFFIXES)})"
        )
    path.write_text(player_page(tl, quiz=quiz, theme=theme, ghost=ghost, **options), "utf-8")
    return path


def player_page(
    tl, *, quiz: bool = False, theme: str = "default", ghost: bool = False, timeout=None, **options
) -> str:
    """The whole player as HTML text: inline SVG per graph, per-step changes, CSS and JS."""
    from ..render import get_theme, make_options
    from ..render.frames import Frames

    for flag, value in (("quiz", quiz), ("ghost", ghost)):
        if not isinstance(value, bool):
            raise ValueError(f"{flag} must be True or False, got {value!r}")
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    look = get_theme(theme)
    deltas = step_deltas(Frames(tl, look, make_options(**options), timeout), ghost)
    script = _asset("player.js")
    parts = {
        "csp": _csp(script),
        "title": f"autoviz player — {len(tl)} steps",
        "theme": html.escape(look.name),
        "css": _asset("player.css"),
        "graphs": "\n".join(_graph_box(i, layout.svg) for i, layout in enumerate(deltas.layouts)),
        "data": embed_json(player_data(tl, deltas, quiz)),
        "js": script,
    }
    # One pass over the template only: markers inside the inserted parts stay literal text.
    return _MARKER.sub(lambda m: parts[m.group(1)], _asset("player.html"))


def player_data(tl, deltas: Deltas, quiz: bool) -> dict:
    """What the script needs, as plain data; repeated strings are stored once in `strings`."""
    strings, where = [], {}

    def intern(text: str) -> int:
        if text not in where:
            where[text] = len(strings)
            strings.append(text)
        return where[text]

    steps, panels = [], explain.panels(tl)
    # One entry per step, but one only for a graph too large to draw (its note says so).
    for i, (k, note) in enumerate(zip(deltas.steps, deltas.notes, strict=True)):
        panel, flat = panels[k], []
        for slot, value in deltas.changes[i]:
            # Values as the DOM holds them: the script sets them with textContent or as a class.
            flat += [slot, intern(html.unescape(value))]
        steps.append(
            {
                "layout": deltas.layout_of_step[i],
                "changes": flat,
                "phase": panel["phase"],
                "banner": intern(panel["banner"]),
                "explain": intern(note or panel["explain"]),
                "line": panel["line"],
                "quiz": _quiz(tl, k) if quiz and note is None else None,
            }
        )
    lines, _ = explain.code_lines(tl)
    return {
        "format": "autoviz-player",
        "version": 1,
        # Ids as the DOM has them: Graphviz writes "legend-leaf" as "legend&#45;leaf".
        "layouts": [[_slot(key) for key in layout.slots] for layout in deltas.layouts],
        "strings": strings,
        "steps": steps,
        "code": [
            {"file": Path(s.file).name, "line": s.line, "text": s.text, "role": s.role}
            for s in lines
        ],
    }


def _slot(key: tuple) -> list:
    kind, item_id, *row = key
    return [kind, html.unescape(item_id), *row]


def _quiz(tl, k: int) -> dict | None:
    """The question before step k with the sentences Question.check gives for it."""
    q = explain.quiz(tl, k)
    if q is None:
        return None
    far = q.answer + 1.0 + 2.0 * abs(q.answer) if math.isfinite(q.answer) else 0.0
    right, wrong = q.check(repr(q.answer)), q.check(repr(far))[1]
    shown = wrong.split(": ", 1)[1]  # "the answer is 2.0.", for "Show me" without a guess
    return {
        "prompt": q.prompt,
        "answer": repr(q.answer),  # a string: JSON has no inf or nan
        "rel": q.rel_tol,
        "abs": q.abs_tol,
        "right": right[1] if right[0] else None,
        "wrong": wrong,
        "reveal": shown[:1].upper() + shown[1:],
    }


def embed_json(data) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` can end it or open a comment;
    characters a reader cannot see (and lone surrogates, which UTF-8 cannot hold) spelled out."""
    data = visible_data(data)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _graph_box(i: int, svg: str) -> str:
    body = svg[svg.index("<svg") :]  # no XML prolog or DOCTYPE inside HTML
    return f'<div class="av-graph" data-layout="{i}" hidden>\n{body}</div>'


def _csp(script: str) -> str:
    """Only this page's own script may run; nothing may be fetched, from anywhere."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("player", name).read_text("utf-8")
