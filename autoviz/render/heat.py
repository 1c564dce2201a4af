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

from ..tracing.text import flatten

# OKLCH L 0.97, 0.88, 0.76, 0.63, 0.50, 0.36 at hue 250 (blue) and 60 (orange).
NEGATIVE = ("#f5f5f5", "#bfdbf8", "#7fb6ee", "#448dd4", "#0465af", "#023f6f")
POSITIVE = ("#f5f5f5", "#f1d0b7", "#e0a26f", "#c17429", "#915006", "#5b3106")
NAN = "#8c8c8c"
SCALE = {"negative": NEGATIVE, "positive": POSITIVE, "nan": NAN}


def limit(values) -> float:
    """The scale's half range for these elements: max |x| over the finite ones (0 if none)."""
    finite = [abs(v) for v in values if isinstance(v, int | float) and math.isfinite(v)]
    return max(finite, default=0.0)


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


# A tensor drawn as a heatmap inside its node: 1-D or 2-D with a preview (at most this many
# elements, as the tracer keeps them), cells of CELL points, a row at most WIDTH points wide.
MAX_CELLS = 64
CELL, MIN_CELL, WIDTH = 9, 3, 160


def grid(shape) -> tuple[int, int] | None:
    """(rows, columns) of a tensor's heatmap, None when it is not drawn as one."""
    shape = tuple(shape)
    if not 1 <= len(shape) <= 2 or not 0 < math.prod(shape) <= MAX_CELLS:
        return None
    return (1, shape[0]) if len(shape) == 1 else shape


def fills(value, shape) -> list[str]:
    """Each cell's colour, row by row; "none" (the node shows through) when not known."""
    rows, cols = grid(shape)
    flat = list(_flatten(value)) if value is not None else []
    if len(flat) != rows * cols:
        return ["none"] * (rows * cols)
    m = limit(flat)
    return [color(v, m) for v in flat]


def range_text(value, precision: int) -> str:
    """`−0.55 … 0.48`: what a heatmap's colours stand for."""
    from ..tracing.text import number

    finite = [v for v in _flatten(value) if math.isfinite(v)]
    if not finite:
        return "no finite elements"
    return f"{number(min(finite), precision)} … {number(max(finite), precision)}"


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


def _flatten(value):
    """A preview's known elements as floats."""
    return (float(v) for v in flatten(value) if v is not None)
