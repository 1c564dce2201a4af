"""Tensor heatmaps' colour scale: diverging, centred on zero, safe for colour-blind readers.

Negative values run from light grey to dark blue, positive ones to dark orange: blue against
orange stays apart in every kind of colour blindness, and the two halves are matched in
lightness (stops chosen in OKLCH at the same L), so lightness alone tells a magnitude, whatever
its sign and however the hues are seen, in greyscale print too. The scale of one tensor is
symmetric, ±max|x| over its finite elements, so the lightest grey is always zero. NaN is mid
grey and ±inf the darkest end of their side; the views that can (the player's cards) mark
those with a glyph too. The player draws with this same table (sent in its data), so a card
and a node agree.
"""

import math

from ..tracing.preview import blocks, grid_shape
from ..tracing.text import heat_cells, limit, range_text  # noqa: F401 (the heatmaps' texts)

# OKLCH L 0.97, 0.88, 0.76, 0.63, 0.50, 0.36 at hue 250 (blue) and 60 (orange).
NEGATIVE = ("#f5f5f5", "#bfdbf8", "#7fb6ee", "#448dd4", "#0465af", "#023f6f")
POSITIVE = ("#f5f5f5", "#f1d0b7", "#e0a26f", "#c17429", "#915006", "#5b3106")
NAN = "#8c8c8c"
SCALE = {"negative": NEGATIVE, "positive": POSITIVE, "nan": NAN}


def color(value, half_range: float) -> str:
    """The colour of one element on the scale ±half_range (see the module docstring)."""
    if value is None:
        return "none"  # not known yet: the cell is left empty
    if math.isnan(value):
        return NAN
    stops = POSITIVE if value > 0 else NEGATIVE
    if math.isinf(value):
        return stops[-1]
    t = 0.0 if half_range <= 0 else min(1.0, abs(value) / half_range)
    where = t * (len(stops) - 1)
    i = min(int(where), len(stops) - 2)
    return _mix(stops[i], stops[i + 1], where - i)


def _mix(a: str, b: str, t: float) -> str:
    """sRGB interpolation; halves round up, as the player's Math.round does."""
    channels = []
    for k in (1, 3, 5):
        x, y = int(a[k : k + 2], 16), int(b[k : k + 2], 16)
        channels.append(math.floor(x + (y - x) * t + 0.5))
    return "#" + "".join(f"{c:02x}" for c in channels)


# A tensor drawn as a heatmap inside its node: one cell per element, or per block of elements
# past the summary's cell budget (preview.blocks); cells of CELL points, a row at most WIDTH.
CELL, MIN_CELL, WIDTH = 9, 3, 160


def grid(shape) -> tuple[int, int] | None:
    """(rows, columns) of a tensor's heatmap, None for a scalar or an empty tensor; it depends
    on the shape alone, so the frames of one layout only recolour it."""
    shape = tuple(shape)
    if not shape or not math.prod(shape):
        return None
    rows, cols = grid_shape(shape)
    br, bc = blocks(rows, cols)
    return -(-rows // br), -(-cols // bc)


def fills(value, shape) -> list[str]:
    """Each cell's colour, row by row; "none" (the node shows through) when not known."""
    rows, cols = grid(shape)
    cells = heat_cells(value, shape)
    if cells is None or len(cells[3]) != rows * cols:
        return ["none"] * (rows * cols)
    m = limit(value)
    return [color(v, m) for v in cells[3]]


def table(colors: list, shape, border: str) -> str:
    """An HTML-like label table of one cell per element (cells' fills are the frames' slots)."""
    rows, cols = grid(shape)
    size = max(MIN_CELL, min(CELL, WIDTH // cols))
    cells = iter(colors)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td width="{size}" height="{size}" fixedsize="true" bgcolor="{next(cells)}"></td>'
            for _ in range(cols)
        )
        + "</tr>"
        for _ in range(rows)
    )
    # fixedsize: the table keeps its cells together, not spread over the label's width.
    return (
        f'<table border="0" cellborder="1" cellspacing="0" cellpadding="0" color="{border}" '
        f'fixedsize="true" width="{cols * size}" height="{rows * size}">{body}</table>'
    )
