"""What the player front-end replays: per-step changes, panels, quiz, and layouts both ways."""

import html
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..collector import collector_paused
from ..render.labels import visible_data
from ..tracing import explain
from ..tracing.iterations import iterations, plotted
from ..tracing.quiz import plan_of
from .deltas import Deltas, step_deltas
from .details import details
from .overview import overviews

FORMAT, VERSION = "autoviz-player", 2
# Each graph is laid out in its own direction and the perpendicular one, so the player can pick
# the one that fits the screen (or switch with R) without a layout engine.
PERPENDICULAR = {"LR": "TB", "RL": "TB", "TB": "LR", "BT": "LR"}
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)  # Graphviz's `<!-- n1 -->`: 6% of a layout
_VIEW_BOX = re.compile(r'<svg[^>]*\sviewBox="([^"]*)"')


@dataclass
class Bundle:
    """The player's data (plain JSON), each layout's SVG text per direction, and the frames
    of the first direction (for still pictures)."""

    data: dict
    svgs: list[list[str]]
    frames: object


@collector_paused()  # what it makes stays alive: the collector would only walk it
def build(
    tl,
    *,
    quiz=False,
    theme: str = "default",
    ghost: bool = False,
    rankdir: str | None = None,
    timeout=None,
    progress: bool = True,
    **options,
) -> Bundle:
    """Lay out every graph of `tl` (both directions) and derive what each step changes;
    `progress` shows a progress bar for long timelines (not under a notebook's widget)."""
    from ..render import get_theme, make_options
    from ..render.frames import Entry, Frames

    if not isinstance(ghost, bool):
        raise ValueError(f"ghost must be True or False, got {ghost!r}")
    quiz = plan_of(quiz)  # a bad plan is refused before any layout is made
    if not len(tl):
        raise ValueError("this timeline has no steps: nothing was recorded in the block")
    look = get_theme(theme)
    first = make_options(**options, **({} if rankdir is None else {"rankdir": rankdir}))
    directions = [first.rankdir, PERPENDICULAR[first.rankdir]]
    frames = Frames(tl, look, first, timeout)
    deltas = step_deltas(frames, ghost, progress)
    other = Frames(tl, look, replace(first, rankdir=directions[1]), timeout)
    svgs = []
    for i, layout in enumerate(deltas.layouts):
        first = deltas.layout_of_step.index(i)  # its first entry: its first state, that way
        svg = other.entry_svg(Entry(deltas.steps[first], deltas.condensed[first]), ghost)
        svgs.append([_inline(layout.svg, look.name), _inline(svg, look.name)])
    # Fit's folded overviews, after each layout's directions (export/overview.py).
    folded, folded_svgs = overviews(frames, deltas, directions, look, _inline)
    for variants, more in zip(svgs, folded_svgs, strict=True):
        variants += more
    # Texts as shown: characters a reader cannot see (and lone surrogates, which UTF-8 cannot
    # hold) spelled out, as the picture shows them.
    data = visible_data(_data(tl, deltas, quiz, frames.options.advice))
    data["layouts"] = [
        {
            "slots": [_slot(key) for key in layout.slots],
            "directions": directions,
            "boxes": [_view_box(svg) for svg in variants[:2]],  # to choose a direction unseen
            "overviews": more,
        }
        for layout, variants, more in zip(deltas.layouts, svgs, folded, strict=True)
    ]
    # fontSize: the smallest label text (value and grad rows), which the camera keeps legible.
    data |= {"rankdir": rankdir, "theme": look.name, "fontSize": look.small_size}
    # The node card, links, bands and nudge read these; their names are shown as text too.
    data["details"] = visible_data(details(tl, frames, deltas.steps))
    data["precision"] = frames.options.precision
    return Bundle(data, svgs, frames)


def _data(tl, deltas: Deltas, quiz, advice: str = "python") -> dict:
    """Steps, panels and code as plain data; repeated strings are stored once in `strings`."""
    strings, where = [], {}

    def intern(text: str) -> int:
        if text not in where:
            where[text] = len(strings)
            strings.append(text)
        return where[text]

    steps, panels = [], explain.panels(tl, deltas.steps, quiz)
    # One entry per step, but one only for a graph too large to draw (its note says so), and
    # one for each run of condensed iterations; `index` is the timeline's step, which the
    # counter and the widget's `step` trait use.
    for i, (k, note) in enumerate(zip(deltas.steps, deltas.notes, strict=True)):
        panel, flat = panels[i], []
        for slot, value in deltas.changes[i]:
            # Values as the DOM holds them: the script sets them with textContent or as a class.
            flat += [slot, intern(html.unescape(value))]
        steps.append(
            {
                "index": k,
                "layout": deltas.layout_of_step[i],
                "changes": flat,
                "phase": panel["phase"],
                "banner": intern(_banner(panel, deltas.condensed[i])),
                "explain": intern(note or panel["explain"]),
                "line": panel["line"],
                "quiz": panel["quiz"] if note is None else None,
            }
        )
    lines, _ = explain.code_lines(tl)
    return {
        "format": FORMAT,
        "version": VERSION,
        "total": len(tl),
        "strings": strings,
        "steps": steps,
        # role: "code" (a step's line), "context" (a loop, `with` or `def` header, the call
        # into a function) or "label" (the file or notebook cell the rows below are from)
        "code": [
            {"file": Path(s.file).name, "line": s.line, "text": s.text, "role": s.role}
            for s in lines
        ],
        "iterations": {**iteration_data(tl, deltas), "advice": advice},
    }


def iteration_data(tl, deltas: Deltas) -> dict:
    """Each iteration (graph) of the timeline as series for a plot, and which entries stand
    for the condensed ones (perf's data contract with the front-end, issue 16 item 9).

    `first`: the timeline step each iteration starts at; `loss`: the value its backward
    started from (null when none, or not a finite number); `values`: for each leaf whose value
    is a number, that value after each iteration (what an optimizer made of it); `full`: the
    iterations stepped through in full; `condensed`: one {"entry", "first", "last"} per entry
    standing for a run of condensed iterations (iteration numbers from 0, as `first`'s index).
    """
    its = iterations(tl)
    names = list(dict.fromkeys(name for it in its for name in it.values))
    values = {}
    for name in names:
        series = [it.values.get(name) for it in its]
        if plotted(series):
            values[name] = [_finite(v) for v in series]
    at = {it.number: i for i, it in enumerate(its)}
    condensed = [
        {"entry": i, "first": at[graphs[0]], "last": at[graphs[-1]]}
        for i, graphs in enumerate(deltas.condensed)
        if graphs is not None
    ]
    hidden = {i for run in condensed for i in range(run["first"], run["last"] + 1)}
    return {
        "first": [it.steps[0] for it in its],
        "loss": [_finite(it.loss) for it in its],
        "values": values,
        "full": [i for i in range(len(its)) if i not in hidden],
        "condensed": condensed,
    }


def _banner(panel: dict, graphs) -> str:
    if graphs is None:
        return panel["banner"]
    return f"Iterations {graphs[0] + 1:,}–{graphs[-1] + 1:,}, condensed"


def _finite(value):
    """A number JSON can hold, or None (NaN and infinities leave a gap in the plot)."""
    return value if isinstance(value, int | float) and math.isfinite(value) else None


def _slot(key: tuple) -> list:
    # Ids as the DOM has them: Graphviz writes "legend-leaf" as "legend&#45;leaf".
    kind, item_id, *row = key
    return [kind, html.unescape(item_id), *row]


def _view_box(svg: str) -> list[float]:
    match = _VIEW_BOX.search(svg)
    return [float(v) for v in match.group(1).split()] if match else [0.0, 0.0, 1.0, 1.0]


def _inline(svg: str, theme: str) -> str:
    """The SVG element alone (no prolog or comments), its stylesheet scoped to its theme."""
    svg = _COMMENT.sub("", svg[svg.index("<svg") :])
    return scope_styles(svg, f".av-theme-{theme}")


def scope_styles(svg: str, scope: str) -> str:
    """Prefix every rule of the SVG's stylesheet with the selector `scope`.

    An inline SVG's <style> applies to the whole page: unscoped, a dark stepper's colours
    would restyle a default one beside it in a notebook, and `.hidden` would hide any element
    so named.
    """
    start, end = svg.find("<style>"), svg.find("</style>")
    if start < 0 or end < start:
        return svg
    css = svg[start + len("<style>") : end]
    if "@" in css:
        return svg  # at-rules would need a real CSS parser
    rules = []
    for rule in css.split("}"):
        if "{" not in rule:
            continue
        selectors, body = rule.split("{", 1)
        scoped = ", ".join(f"{scope} {s.strip()}" for s in selectors.split(","))
        rules.append(f"{scoped} {{{body}}}")
    return svg[:start] + "<style>\n" + "\n".join(rules) + "\n" + svg[end:]
