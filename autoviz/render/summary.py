"""The picture standing in for a graph of a timeline too large to draw: its size, and what to do."""

import textwrap

from .labels import dot_row, escape
from .theme import FONT_FAMILY, Theme

WRAP = 72  # characters per line of the explanation
EM = 0.55  # Arial's average glyph width, in em: the box is sized from it (no layout engine)
PAD = 14.0


def summary_text(part, error: Exception | None = None, advice: str = "python") -> list[str]:
    """The summary's lines: which steps, how big, then, for a Python reader (Options.advice),
    the refusal's own advice and where to pass it; for anyone else, only what is shown."""
    first, last = part.steps[0], part.steps[-1]
    head = f"Steps {first:,}–{last:,}: a graph of {len(part.nodes):,} nodes, too large to draw"
    if error is None:
        return [head]
    shown = f"Its {len(part.steps):,} steps are shown as this one."
    if advice != "python":
        return [head, *textwrap.wrap(shown, WRAP)]
    how = (
        f"{shown} To see it, pass the options that would draw it to tl.draw(step={first}, ...), "
        "Stepper(tl, ...), save_html or save_frames."
    )
    return [head, *textwrap.wrap(str(error), WRAP), *textwrap.wrap(how, WRAP)]


def summary_svg(lines: list[str], theme: Theme) -> str:
    """One grey box holding the summary's lines, the first in bold, as a frame's SVG."""
    big, small = theme.font_size, theme.small_size
    width = max(len(lines[0]) * big * (EM + 0.05), *(len(t) * small * EM for t in lines[1:]))
    height = big * 1.4 + (len(lines) - 1) * small * 1.35
    box_w, box_h = width + 2 * PAD, height + 2 * PAD
    look = theme.kinds["constant"]
    font = f'font-family="{FONT_FAMILY}" fill="{theme.text}"'
    rows, y = [], 8 + PAD + big
    for i, line in enumerate(lines):
        size, weight = (big, ' font-weight="bold"') if i == 0 else (small, "")
        rows.append(
            f'<text x="{8 + PAD:.1f}" y="{y:.1f}" font-size="{size}"{weight} {font}>'
            f"{escape(line)}</text>"
        )
        y += big * 0.4 + small * 1.35 if i == 0 else small * 1.35
    w, h = box_w + 16, box_h + 16
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<svg width="{w:.1f}pt" height="{h:.1f}pt" viewBox="0 0 {w:.1f} {h:.1f}" '
        'xmlns="http://www.w3.org/2000/svg">\n'
        '<g id="graph0" class="graph">\n'
        f'<rect width="100%" height="100%" fill="{theme.background}"/>\n'
        '<g id="summary" class="node summary">\n'
        f'<rect x="8" y="8" rx="8" width="{box_w:.1f}" height="{box_h:.1f}" '
        f'fill="{look["fill"]}" stroke="{look["border"]}" stroke-width="{theme.pen}"/>\n'
        + "\n".join(rows)
        + "\n</g>\n</g>\n</svg>\n"
    )


def summary_dot(lines: list[str]) -> str:
    """The same box as DOT text, for `Diagram.source` and `.save("f.dot")`."""
    label = "<br/>".join(dot_row(line) or "&#32;" for line in lines)
    node = f'summary [id="summary" class="summary" shape=box label=<{label}>]'
    return f"digraph autoviz {{\n\t{node}\n}}\n"
