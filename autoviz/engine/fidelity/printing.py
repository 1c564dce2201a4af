"""PyTorch's tensor repr, reproduced for numpy arrays."""

from __future__ import annotations

import math

import numpy as np

from ..dtypes import default_float

# torch's default print options (torch.set_printoptions(profile="default")).
PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80
SCI_MODE = None  # None: chosen from the values, as torch does; True or False forces it
PREFIX = "tensor("

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
) -> None:
    """`torch.set_printoptions`: digits after the point, when to summarise with `...`, ..."""
    global PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH, SCI_MODE
    options = dict(_PROFILES[profile]) if profile is not None else {}
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems}
    given["linewidth"] = linewidth
    options.update({k: v for k, v in given.items() if v is not None})
    PRECISION = options.get("precision", PRECISION)
    THRESHOLD = options.get("threshold", THRESHOLD)
    EDGEITEMS = options.get("edgeitems", EDGEITEMS)
    LINEWIDTH = options.get("linewidth", LINEWIDTH)
    SCI_MODE = sci_mode


def get_printoptions() -> dict:
    return {
        "precision": PRECISION,
        "threshold": THRESHOLD,
        "edgeitems": EDGEITEMS,
        "linewidth": LINEWIDTH,
        "sci_mode": SCI_MODE,
    }


# dtypes torch prints without a `dtype=` suffix (besides the default float dtype).
_IMPLICIT_DTYPES = {"int64", "bool"}
# numpy dtypes whose names are also torch dtype names (torch.float16, torch.uint8, ...).
_KNOWN_DTYPES = {"float16", "float32", "float64", "bool"} | {
    f"{sign}int{bits}" for sign in ("", "u") for bits in (8, 16, 32, 64)
}


def format_tensor(
    data: np.ndarray, *, grad_fn: str | None = None, requires_grad: bool = False
) -> str:
    """Return what `repr(torch_tensor)` prints for a tensor holding `data`."""
    data = np.asarray(data)
    dtype = data.dtype.name
    if dtype not in _KNOWN_DTYPES:
        raise TypeError(f"cannot print a tensor of numpy dtype {dtype}")
    suffixes = []
    default = default_float().name
    if data.size == 0:
        body = "[]"
        # an empty tensor shows its shape unless it is (0,), and any dtype but the default
        # float one, since there are no elements to tell it apart.
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype != default:
            suffixes.append(f"dtype=torch.{dtype}")
    else:
        body = _body(data)
        if dtype not in _IMPLICIT_DTYPES and dtype != default:
            suffixes.append(f"dtype=torch.{dtype}")
    # torch shows requires_grad only when there is no grad_fn, i.e. on leaves.
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(PREFIX + body, suffixes)


def _body(data: np.ndarray) -> str:
    """The bracketed elements, summarized with `...` once the tensor is too big."""
    summarize = data.size > THRESHOLD
    # A summarized tensor's number format is chosen from the elements it shows only.
    fmt = _Formatter(_shown_elements(data) if summarize else data)
    return _nested(data, fmt, len(PREFIX), summarize)


def _shown_elements(data: np.ndarray) -> np.ndarray:
    """Keep the first and last EDGEITEMS along every axis longer than 2 * EDGEITEMS."""
    for axis, length in enumerate(data.shape):
        if length > 2 * EDGEITEMS:
            keep = [*range(EDGEITEMS), *range(length - EDGEITEMS, length)]
            data = np.take(data, keep, axis=axis)
    return data


class _Formatter:
    """One number format, and one column width, for every element of a tensor."""

    def __init__(self, data: np.ndarray):
        values = data.ravel().tolist()  # Python floats/ints: their format() is what torch uses
        self.is_float = data.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.width = True, False, 1
        if not self.is_float:
            self.width = max(len(str(v)) for v in values)
            return
        # zeros, nan and inf neither pick the format nor count towards the width
        shown = [v for v in values if math.isfinite(v) and v != 0]
        if not shown:
            return
        self.int_mode = all(v == math.ceil(v) for v in shown)
        big, small = max(map(abs, shown)), min(map(abs, shown))
        self.sci_mode = big / small > 1000.0 or big > 1.0e8 or small < 1.0e-4
        if SCI_MODE is not None:
            self.sci_mode = SCI_MODE
        if self.sci_mode:
            widths = [len(f"{v:.{PRECISION}e}") for v in shown]
        elif self.int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in shown]  # +1 for the trailing "."
        else:
            widths = [len(f"{v:.{PRECISION}f}") for v in shown]
        self.width = max(widths)

    def format(self, value: float | int | bool) -> str:
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:.{PRECISION}e}"
        elif self.int_mode:
            # the "." marks an integer-valued float; nan and inf need no mark
            text = f"{value:.0f}" + ("." if math.isfinite(value) else "")
        else:
            text = f"{value:.{PRECISION}f}"
        return text.rjust(self.width)


def _nested(data: np.ndarray, fmt: _Formatter, indent: int, summarize: bool) -> str:
    """Format `data` whose opening bracket sits `indent` columns from the left margin."""
    if data.ndim == 0:
        return fmt.format(data.item())
    if data.ndim == 1:
        return _vector(data, fmt, indent, summarize)
    if summarize and len(data) > 2 * EDGEITEMS:
        head = [_nested(row, fmt, indent + 1, summarize) for row in data[:EDGEITEMS]]
        tail = [_nested(row, fmt, indent + 1, summarize) for row in data[-EDGEITEMS:]]
        rows = [*head, "...", *tail]
    else:
        rows = [_nested(row, fmt, indent + 1, summarize) for row in data]
    # sub-tensors of a 3-D tensor are separated by a blank line, of 4-D by two, ...
    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(rows) + "]"


def _vector(data: np.ndarray, fmt: _Formatter, indent: int, summarize: bool) -> str:
    """A 1-D row, wrapped so lines hold as many ", "-separated cells as LINEWIDTH allows."""
    per_line = max(1, (LINEWIDTH - indent) // (fmt.width + 2))
    if summarize and len(data) > 2 * EDGEITEMS:
        head, tail = data[:EDGEITEMS].tolist(), data[-EDGEITEMS:].tolist()
        cells = [*map(fmt.format, head), " ...", *map(fmt.format, tail)]
    else:
        cells = [fmt.format(v) for v in data.tolist()]
    lines = [", ".join(cells[i : i + per_line]) for i in range(0, len(cells), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _add_suffixes(text: str, suffixes: list[str]) -> str:
    """Append `, suffix` items, moving one to its own line when it would pass LINEWIDTH."""
    # torch measures the last line 2 characters longer than it is; we do too, so that
    # suffixes wrap at exactly the same place.
    line_len = len(text.rsplit("\n", 1)[-1]) + 2
    for suffix in suffixes:
        if line_len + len(suffix) + 2 > LINEWIDTH:
            text += ",\n" + " " * len(PREFIX) + suffix
            line_len = len(PREFIX) + len(suffix)
        else:
            text += ", " + suffix
            line_len += len(suffix) + 2
    return text + ")"
