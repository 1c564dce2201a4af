"""How a number and a tensor read, in every view: the one place that decides it.

A number is rounded honestly: to `precision` significant digits, written with a trailing ".0"
only when it is exactly that integer (1363.8601 reads "1364", never "1364.0"). A tensor reads
as its shape with all its elements when it has at most SHOWN of them; a larger one as its shape,
its first elements (captions), and the min, max and mean of its elements (and, for a gradient,
its norm); a tensor whose elements are all one number as `ones (16, 8)`, `zeros (3,)` or
`(4, 4) all 0.5`. Nothing is ever shown as `?`: a value not recorded says so.
"""

import functools
import math
import operator
from itertools import chain, islice

import numpy as np

from .preview import Summary, blocks, grid_shape

SHOWN = 4  # elements a tensor shows in full
HEAD = 3  # first elements a caption shows of a larger one
NOT_RECORDED = "not recorded"


def number(value, precision: int = 4) -> str:
    """A scalar to `precision` significant digits, honestly: "7.0" only for exactly 7;
    NaN, infinities and the sign of zero as Python writes them."""
    if isinstance(value, bool | int):
        return str(value)
    if value is None:
        return NOT_RECORDED
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    text = f"{value:.{precision}g}"
    if "e" not in text and "." not in text and float(text) == value:
        text += ".0"  # exact: 7.0 is 7, not 7 to the nearest unit
    return text


def shape_text(shape) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")" if len(shape) != 1 else f"({shape[0]},)"


class Stats:
    """What a view shows of a tensor's elements: the first few, min, max, mean, norm, how many
    are not finite, and whether every element is the same number."""

    __slots__ = ("head", "max", "mean", "min", "nan", "ninf", "norm", "pinf", "size")

    def __init__(self, value) -> None:
        if type(value) is Summary:
            for key in ("min", "max", "mean", "norm", "nan", "pinf", "ninf"):
                setattr(self, key, getattr(value, key))
            self.head, self.size = list(value.head), value.size
            return
        items = [v for v in flatten(value) if v is not None]
        self.size, self.head = len(items), items
        if _all_finite(items):  # the usual case: one exact sum tells it, no pass per count
            finite, self.nan, self.pinf, self.ninf = items, 0, 0, 0
        else:
            finite = [v for v in items if math.isfinite(v)]
            self.nan = sum(1 for v in items if v != v)
            self.pinf = sum(1 for v in items if v == math.inf)
            self.ninf = sum(1 for v in items if v == -math.inf)
        self.min = min(finite) if finite else None
        self.max = max(finite) if finite else None
        self.mean = _mean(finite) if finite else None
        self.norm = math.inf if self.pinf or self.ninf else math.nan if self.nan else _norm(finite)

    @property
    def uniform(self):
        """The number every element is, when they are all one (and finite); else None."""
        if self.size > 1 and not (self.nan or self.pinf or self.ninf) and self.min == self.max:
            return self.min
        return None

    def odd(self) -> str:
        """`2 nan, 1 inf`: the elements that are not finite, or ""."""
        parts = [f"{n} {word}" for n, word in ((self.nan, "nan"), (self.pinf, "inf"))]
        parts += [f"{self.ninf} -inf"]
        return ", ".join(p for p in parts if not p.startswith("0 "))


def _all_finite(items: list) -> bool:
    """Whether every number of `items` is finite: exactly when their exact sum is (fsum raises
    on +inf beside -inf and on a sum too large for a float)."""
    try:
        return math.isfinite(math.fsum(items))
    except (OverflowError, ValueError):
        return False


def _mean(finite: list) -> float:
    try:
        return math.fsum(finite) / len(finite)
    except OverflowError:  # float64 numbers near the largest: their mean is still a float
        return math.fsum(v / len(finite) for v in finite)


def _norm(finite: list) -> float:
    try:
        squares = math.fsum(map(operator.mul, finite, finite))
    except OverflowError:  # finite squares whose sum is past the largest float
        squares = math.inf
    # a square past the largest float is inf, where the norm need not be
    return squares**0.5 if squares != math.inf else math.hypot(*finite)


def stats(value, shape) -> Stats | None:
    """The Stats of a recorded tensor value (None for a scalar or one not recorded)."""
    if value is None or not shape or not isinstance(value, list | Summary):
        return None
    if _lost(value):
        return None
    return stats_of(value)


def _lost(value) -> bool:
    """A deferred Summary whose value was lost: finite elements, but no statistics."""
    return type(value) is Summary and value.min is None and value.finite > 0


_KNOWN = {}  # id(preview) -> (the preview, its Stats, its texts)
_KNOWN_MAX = 4096


def stats_of(value) -> Stats:
    """Stats(value), made once per recorded preview: its label in every frame, its caption,
    card, tooltip and heatmap all read them (a 400-iteration page made 37,271 Stats of 12,017
    previews)."""
    return _known(value)[1]


def _known(value) -> tuple:
    """The cache entry of a preview. A preview never changes once recorded, and its entry
    keeps it alive, so its id is not reused while the entry is there."""
    known = _KNOWN.get(id(value))
    if known is not None and known[0] is value:
        return known
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    made = _KNOWN[id(value)] = (value, Stats(value), {})
    return made


def value_text(value, shape, precision: int = 4, grad: bool = False) -> str:
    """How captions, explanations, cards and tooltips write a tensor's value (or grad): a
    number; a shape and its elements; or a shape, the first elements and the statistics."""
    return _text(value, shape, precision, grad, HEAD)


def label_text(value, shape, precision: int = 4, grad: bool = False) -> str:
    """The same, as short as a node's label row needs: no first elements past SHOWN."""
    return _text(value, shape, precision, grad, 0)


def _text(value, shape, precision: int, grad: bool, head: int) -> str:
    if not shape:
        return number(next(flatten(value), None) if isinstance(value, list) else value, precision)
    if value is None or not isinstance(value, list | Summary) or _lost(value):
        return f"shape {shape_text(shape)}, {NOT_RECORDED}"
    _, s, texts = _known(value)  # every frame writes a node's label again: written once
    key = (tuple(shape), precision, grad, head)
    text = texts.get(key)
    if text is None:
        text = texts[key] = _written(value, s, shape_text(shape), precision, grad, head)
    return text


def _statistics_of(value, precision: int, grad: bool) -> str:
    """statistics_text of a preview, written once (a card's heatmap and the label share it)."""
    _, s, texts = _known(value)
    key = ("statistics", precision, grad)
    text = texts.get(key)
    if text is None:
        text = texts[key] = statistics_text(s, precision, grad)
    return text


def _written(value, s: Stats, where: str, precision: int, grad: bool, head: int) -> str:
    n = lambda v: number(v, precision)  # noqa: E731
    if s.size <= SHOWN and len(s.head) == s.size:
        return f"shape {where} [{', '.join(map(n, s.head))}]"
    same = s.uniform
    if same is not None:
        word = {1: "ones", 0: "zeros"}.get(same)
        return f"{word} {where}" if word else f"{where} all {n(same)}"
    parts = [f"shape {where}"]
    if head and s.head:
        parts.append(f"[{', '.join(map(n, s.head[:head]))}, …]")
    parts.append(_statistics_of(value, precision, grad))
    return " ".join(parts)


def statistics_text(s: Stats, precision: int = 4, grad: bool = False) -> str:
    """`min -0.61, max 0.48, mean 0.0123` (and `norm 1.2` for a gradient), and what is not
    finite."""
    n = lambda v: number(v, precision)  # noqa: E731
    if s.min is None:
        text = "no finite elements"
    else:
        text = f"min {n(s.min)}, max {n(s.max)}, mean {n(s.mean)}"
    if grad and s.min is not None:
        text += f", norm {n(s.norm)}"
    odd = s.odd()
    return f"{text} ({odd})" if odd else text


def heat_cells(value, shape) -> tuple[int, int, tuple, list] | None:
    """(rows, columns, block, cells) of a tensor's heatmap: every element of a small one (laid
    out as preview.grid_shape), a summary's block means; None for a scalar or none recorded."""
    if not shape or value is None:
        return None
    if type(value) is Summary:
        if not value.grid:
            return None
        return len(value.grid), len(value.grid[0]), value.block, [v for r in value.grid for v in r]
    rows, cols = grid_shape(shape)
    cells = list(flatten(value))
    if len(cells) != rows * cols:
        return None
    if blocks(rows, cols) != (1, 1):  # a tall small tensor: the same blocks as a summary's
        return heat_cells(Summary.of(np.array(cells).reshape(shape)), shape)
    return rows, cols, (1, 1), cells


def limit(value) -> float:
    """A heatmap's colour scale, ±this: max |x| over the tensor's finite elements (0 if none);
    a summary's from its min and max, so block means are coloured on the tensor's own scale."""
    if type(value) is Summary:
        return max(abs(value.min), abs(value.max)) if value.min is not None else 0.0
    finite = [abs(v) for v in flatten(value) if isinstance(v, int | float) and math.isfinite(v)]
    return max(finite, default=0.0)


def range_text(value, precision: int = 4) -> str:
    """`-0.55 … 0.48`: what a heatmap's colours stand for (the tensor's own min and max)."""
    s = stats_of(value) if isinstance(value, list | Summary) else None
    if s is None or s.min is None:
        return "no finite elements"
    return f"{number(s.min, precision)} … {number(s.max, precision)}"


def flatten(value):
    """The elements of a nested-list preview, in order (an iterator)."""
    # A preview is rectangular (numpy's tolist), so its depth shows in its first and last
    # entries: a row of numbers or rows of them, the many, are read without a Python step per
    # element (every label reads its tensor's elements).
    if type(value) is not list or not value:
        return _nested(value)
    first, last = value[0], value[-1]
    if type(first) is not list and type(last) is not list:
        return iter(value)
    flat_rows = type(first) is list and type(last) is list and first and last
    if flat_rows and type(first[0]) is not list and type(last[-1]) is not list:
        return chain.from_iterable(value)
    return _nested(value)


def _nested(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        else:
            yield item


def first(value, count: int) -> list:
    """The first `count` elements of a nested-list preview."""
    return list(islice(flatten(value), count))


@functools.lru_cache(maxsize=4096)  # a loop's names come again and again; raising is slow
def is_number(text: str) -> bool:
    """Whether `text` reads as a number (`2.0`, `-1e-3`, `inf`)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def shown(value, precision: int = 4, grad: bool = False, digits: int = 6):
    """A recorded value as the player's cards, tooltips and heatmaps read it: a number as it
    is; a tensor as {"shape", "text" (value_text), "label" (label_text), "heat": {"rows",
    "cols", "block", "cells" (to `digits` significant digits), "limit" (the colour scale's
    half range), "range", "stats"}}; None when not recorded."""
    if not isinstance(value, list | Summary):
        return value
    shape = value.shape if type(value) is Summary else _nested_shape(value)
    out = {
        "shape": list(shape),
        "text": value_text(value, shape, precision, grad),
        "label": label_text(value, shape, precision, grad),
    }
    cells = heat_cells(value, shape)
    if cells is not None:
        rows, cols, block, items = cells
        out["heat"] = {
            "rows": rows,
            "cols": cols,
            "block": list(block),
            "cells": _cells(items, digits),
            "limit": limit(value),
            "range": range_text(value, precision),
            "stats": _statistics_of(value, precision, grad),
        }
    return out


def _nested_shape(value) -> tuple:
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return tuple(dims)


def _cells(items: list, digits: int) -> list:
    """Each element as _rounded makes it, a finite float (most of them) without the call: a
    layer's cards hold hundreds of thousands (the largest cost of a deep program's page)."""
    spec = f".{digits}g"
    return [
        float(format(v, spec)) if type(v) is float and v - v == 0 else _rounded(v, digits)
        for v in items
    ]


def _rounded(v, digits: int):
    """An element for JSON: to `digits` significant digits; non-finite ones as strings."""
    if isinstance(v, bool) or not isinstance(v, float):
        return v
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return float(f"{v:.{digits}g}")
