"""Numbers and shapes as short text, for captions and labels."""

import functools
import math
from itertools import islice


def number(value: float, precision: int = 4) -> str:
    """A scalar to `precision` significant digits; NaN and infinities spelled out."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = f"{value:.{precision}g}"
    if "e" not in text and "." not in text:
        text += ".0"
    return text


def shape_text(shape) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")" if len(shape) != 1 else f"({shape[0]},)"


def value_text(value, shape, precision: int = 4) -> str:
    """A scalar as a number; a tensor as its shape plus a short preview when small."""
    if not shape:
        return number(value, precision) if value is not None else "?"
    flat = list(islice(flatten(value), 5)) if value is not None else []  # 4 shown, 1 more?
    head = ", ".join(number(v, precision) for v in flat[:4])
    more = ", …" if len(flat) > 4 else ""
    return f"shape {shape_text(shape)}" + (f" [{head}{more}]" if flat else "")


def flatten(value):
    """The elements of a nested-list preview, in order."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        else:
            yield item


@functools.lru_cache(maxsize=4096)  # a loop's names come again and again; raising is slow
def is_number(text: str) -> bool:
    """Whether `text` reads as a number (`2.0`, `-1e-3`, `inf`)."""
    try:
        float(text)
    except ValueError:
        return False
    return True
