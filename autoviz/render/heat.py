"""Tensor heatmaps' colour scale: diverging, centred on zero, safe for colour-blind readers.

Negative values run from light grey to dark blue, positive ones to dark orange (ColorBrewer's
RdBu blue half and PuOr orange half): blue against orange stays apart in every kind of colour
blindness, and lightness alone orders the magnitudes. The scale of one tensor is symmetric,
±max|x| over its finite elements, so white is always zero. NaN is mid grey and ±inf the
darkest end of their side; the views that can (the player's cards) add a glyph to those too.
The player draws with this same table (sent in its data), so a card and a node agree.
"""

import math

NEGATIVE = ("#f7f7f7", "#d1e5f0", "#92c5de", "#4393c3", "#2166ac", "#053061")
POSITIVE = ("#f7f7f7", "#fee0b6", "#fdb863", "#e08214", "#b35806", "#7f3b08")
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
