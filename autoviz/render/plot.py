"""Condensed iterations as a picture: the loss and each scalar parameter per iteration, a line
each, drawn as plain SVG (no layout engine)."""

import html
import math

from ..tracing.iterations import plotted
from ..tracing.text import number
from .labels import escape
from .theme import FONT_FAMILY, Theme

WIDTH, HEIGHT = 330.0, 110.0  # one chart's plotting area (points): legible on a screen
PAD, GAP = 14.0, 40.0
MAX_LINES = 4  # charts after the loss: the first scalar parameters


# What a condensed run's note tells its reader to do, by Options.advice.
ADVICE = {
    "python": " Draw any of their steps with tl.draw(step=k), or show them in full with "
    "full_iterations= (a number, a list of iterations, or None for all).",
    "cli": " To step through them too, export again with --full-iterations all.",
    "none": "",
}
DRAW_ANY = "; any step can still be drawn with tl.draw(step=k)"


def condensed_text(its: list, advice: str = "python") -> str:
    """One sentence: which iterations and steps are condensed, and how the loss went; then
    what the reader can do about it (see ADVICE)."""
    first, last = its[0], its[-1]
    text = (
        f"Iterations {first.number + 1:,}–{last.number + 1:,} (steps {first.steps[0]:,}–"
        f"{last.steps[-1]:,}) condensed"
    )
    losses = [it.loss for it in its if it.loss is not None]
    if losses:
        text += f": loss {number(losses[0])} → {number(losses[-1])}"
    return text + "." + ADVICE[advice]


def series(its: list) -> list[tuple[str, list]]:
    """(name, one value per iteration) for the loss and the scalar parameters, in order."""
    lines = [("loss", [it.loss for it in its])]
    names = list(dict.fromkeys(name for it in its for name in it.values))
    for name in names:
        values = [it.values.get(name) for it in its]
        if plotted(values) and len(lines) <= MAX_LINES:
            lines.append((name, values))
    return [(name, values) for name, values in lines if plotted(values)]


def condensed_svg(its: list, theme: Theme, advice: str = "python") -> str:
    """A chart per series, stacked, under the sentence of condensed_text."""
    charts = series(its)
    big, small = theme.font_size, theme.small_size
    top = PAD + big * 1.4 + small * 3.2  # room for the subtitle and the first chart's name
    columns = 2 if len(charts) > 2 else 1  # wider than tall, as screens and slides are
    rows = -(-len(charts) // columns)
    height = top + rows * (HEIGHT + GAP) + PAD
    width = columns * (WIDTH + 70) + 2 * PAD
    font = f'font-family="{FONT_FAMILY}" fill="{theme.text}"'
    title = f"Iterations {its[0].number + 1:,}–{its[-1].number + 1:,}, condensed"
    body = [
        f'<text x="{PAD}" y="{PAD + big}" font-size="{big}" font-weight="bold" {font}>'
        f"{html.escape(title, quote=False)}</text>",
        f'<text x="{PAD}" y="{PAD + big * 1.4 + small}" font-size="{small}" {font}>'
        f"per iteration{DRAW_ANY if advice == 'python' else ''}</text>",
    ]
    if not charts:
        body.append(
            f'<text x="{PAD}" y="{top + small}" font-size="{small}" {font}>'
            "no loss or scalar parameter to plot</text>"
        )
        height = top + small * 2 + PAD
    span = (its[0].number + 1, its[-1].number + 1)
    for i, (name, values) in enumerate(charts):
        x0 = PAD + 60 + (i % columns) * (WIDTH + 70)
        body.append(_chart(name, values, span, x0, top + (i // columns) * (HEIGHT + GAP), theme))
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<svg width="{width:.1f}pt" height="{height:.1f}pt" viewBox="0 0 {width:.1f} '
        f'{height:.1f}" xmlns="http://www.w3.org/2000/svg">\n'
        '<g id="graph0" class="graph">\n'
        f'<rect width="100%" height="100%" fill="{theme.background}"/>\n'
        '<g id="condensed" class="node condensed">\n' + "\n".join(body) + "\n</g>\n</g>\n</svg>\n"
    )


def _chart(name: str, values: list, span: tuple, x0: float, y0: float, theme: Theme) -> str:
    """One series as a polyline in a box, log-scaled when it is positive and spans 100x; the
    iterations `span` (first, last) under its ends."""
    known = [(i, float(v)) for i, v in enumerate(values) if v is not None and math.isfinite(v)]
    small = theme.small_size
    font = f'font-family="{FONT_FAMILY}" fill="{theme.text}" font-size="{small}"'
    label = escape(name)
    under = y0 + HEIGHT + small * 1.2
    parts = [
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{WIDTH}" height="{HEIGHT}" fill="none" '
        f'stroke="{theme.edge}" stroke-width="0.6"/>',
        f'<text x="{x0 + 4:.1f}" y="{y0 - 4:.1f}" {font} font-weight="bold">{label}</text>',
        f'<text x="{x0:.1f}" y="{under:.1f}" {font}>iteration {span[0]:,}</text>',
        f'<text x="{x0 + WIDTH:.1f}" y="{under:.1f}" text-anchor="end" {font}>{span[1]:,}</text>',
    ]
    if not known:
        return "\n".join(parts)
    ys = [v for _, v in known]
    log = min(ys) > 0 and max(ys) / min(ys) >= 100
    scaled = [math.log10(v) for v in ys] if log else ys
    low, high = min(scaled), max(scaled)
    span = (high - low) or 1.0
    last = max(1, len(values) - 1)
    points = " ".join(
        f"{x0 + WIDTH * i / last:.1f},{y0 + HEIGHT - HEIGHT * (s - low) / span:.1f}"
        for (i, _), s in zip(known, scaled, strict=True)
    )
    top, bottom = (10**high, 10**low) if log else (high, low)
    parts += [
        f'<polyline points="{points}" fill="none" stroke="{theme.grad}" stroke-width="1.5"/>',
        f'<text x="{x0 - 4:.1f}" y="{y0 + small:.1f}" text-anchor="end" {font}>'
        f"{number(top, 3)}</text>",
        f'<text x="{x0 - 4:.1f}" y="{y0 + HEIGHT:.1f}" text-anchor="end" {font}>'
        f"{number(bottom, 3)}</text>",
    ]
    if log:
        parts.append(
            f'<text x="{x0 + WIDTH - 4:.1f}" y="{y0 - 4:.1f}" text-anchor="end" {font}>'
            "log scale</text>"
        )
    return "\n".join(parts)
