"""Text on the nodes: names, values and gradients, escaped for Graphviz HTML labels."""

import html
import math

OP_SYMBOLS = {
    "AddBackward0": "+",
    "SubBackward0": "−",
    "MulBackward0": "*",
    "DivBackward0": "/",
    "PowBackward0": "**",
    "NegBackward0": "−",
    "MmBackward0": "@",
    "MvBackward0": "@",
    "DotBackward0": "@",
    "BmmBackward0": "@",
    "ReluBackward0": "relu",
    "TanhBackward0": "tanh",
    "SigmoidBackward0": "σ",
    "ExpBackward0": "exp",
    "LogBackward0": "log",
    "SumBackward0": "sum",
    "SumBackward1": "sum",
    "MeanBackward0": "mean",
    "MeanBackward1": "mean",
}


def escape(text: str) -> str:
    """Make user text literal inside an HTML-like label: markup, quotes, control characters."""
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
    return html.escape(text, quote=True)


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
    flat = list(_flatten(value)) if value is not None else []
    head = ", ".join(number(v, precision) for v in flat[:4])
    more = ", …" if len(flat) > 4 else ""
    return f"shape {shape_text(shape)}" + (f" [{head}{more}]" if flat else "")


def _flatten(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        else:
            yield item
