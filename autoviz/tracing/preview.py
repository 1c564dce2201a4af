"""Tensor values as small JSON-friendly previews, taken when an event happens: the elements of
a small tensor, a Summary of a large one (its statistics, first elements and a heatmap grid)."""

import math

import numpy as np

PREVIEW_LIMIT = 64  # elements kept whole in a tensor's preview; larger ones are summarised
HEAD = 6  # first elements a summary keeps, in row-major order
# A summary's heatmap: at most CELLS cells, at most COLUMNS in a row and ROWS rows; each cell
# is the mean of a block of elements when the tensor has more (a 7 × 10 weight keeps all 70).
CELLS, COLUMNS, ROWS = 256, 64, 16


def preview(data):
    """A JSON-friendly preview: a number for one element, nested lists when small, else a
    Summary (a Summary given is returned as it is)."""
    if data is None:
        return None
    if isinstance(data, np.generic):  # the common case in scalar programs: no array needed
        return data.item()
    if type(data) is Summary:
        return data
    arr = np.asarray(data)
    if arr.ndim == 0:
        return arr.item()
    return arr.tolist() if arr.size <= PREVIEW_LIMIT else Summary.of(arr)


def deferred(data):
    """preview(data) with a large array's Summary deferred to the view that reads it: the array
    is copied now, so the Summary tells its value at this step whatever happens to it later
    (a copy costs a fraction of the statistics and the heatmap)."""
    if type(data) is np.ndarray and data.size > PREVIEW_LIMIT:
        return Summary.later(data.copy().view, data.shape, dtype_name(data.dtype))
    return preview(data)


def kept(data):
    """Like `deferred`, for an array nothing changes in place (a gradient backward made):
    kept, not copied."""
    if type(data) is np.ndarray and data.size > PREVIEW_LIMIT:
        return Summary.later(data.view, data.shape, dtype_name(data.dtype))
    return preview(data)


class Summary:
    """What is kept of a tensor too large to keep whole: its shape and dtype, the min, max and
    mean of its finite elements and the 2-norm of them all, how many are NaN, +inf and -inf,
    its first HEAD elements, and a grid of at most CELLS block means (`block` elements by
    `block` per cell) for a heatmap. Statistics are exact (float64 over every element)."""

    __slots__ = ("block", "dtype", "grid", "head", "max", "mean", "min", "nan", "ninf", "norm")
    __slots__ += ("pinf", "shape", "_source")
    FIELDS = ("shape", "dtype", "min", "max", "mean", "norm", "nan", "pinf", "ninf", "head")
    FIELDS += ("grid", "block")

    def __init__(self, **fields) -> None:
        for key in self.FIELDS:
            setattr(self, key, fields[key])

    @classmethod
    def later(cls, source, shape: tuple, dtype: str) -> "Summary":
        """The Summary of the array `source()` returns, computed when a field is first read
        (recording keeps the values and defers the statistics and the heatmap to the view that
        shows them). `source()` returns None when the value was lost (its tensor changed in
        place without a copy taken): then only the shape and dtype are known."""
        summary = object.__new__(cls)
        summary._source, summary.shape, summary.dtype = source, tuple(shape), dtype
        return summary

    def __getattr__(self, name: str):
        # Only reached for a slot not set yet: the fields of a Summary made by `later`.
        if name == "_source" or name not in _FIELDS:
            raise AttributeError(name)
        source = self._source
        self._source = None
        arr = source() if source is not None else None
        fields = Summary.of(arr) if arr is not None else None
        for key in _FIELDS:
            if key not in ("shape", "dtype"):
                setattr(self, key, getattr(fields, key) if fields else _UNKNOWN.get(key))
        return getattr(self, name)

    def __reduce__(self):
        return Summary.from_dict, (self.to_dict(),)

    @classmethod
    def of(cls, arr: np.ndarray) -> "Summary":
        """The summary of array `arr` (of any size: the views call it on small ones too),
        its sums in float64 over every element. Few numpy calls: it runs for every large
        tensor an op makes or backward sends."""
        flat = arr.reshape(-1)
        if flat.dtype.kind == "b":
            flat = flat.view(np.uint8)
        nan = pinf = ninf = 0
        low, high = (flat.min().item(), flat.max().item()) if flat.size else (None, None)
        x = flat if flat.dtype == np.float64 else flat.astype(np.float64)
        finite = x
        if flat.dtype.kind == "f" and flat.size and not math.isfinite(low + high):
            bad = ~np.isfinite(x)
            nan = int(np.count_nonzero(np.isnan(x)))
            pinf = int(np.count_nonzero(x == math.inf))
            ninf = int(np.count_nonzero(bad)) - nan - pinf
            finite = x[~bad]
            low, high = (finite.min().item(), finite.max().item()) if finite.size else (None, None)
        if flat.dtype.kind == "f" and low is not None:
            low, high = float(low), float(high)
        mean = float(finite.sum()) / finite.size if finite.size else None
        # einsum's own loop, not BLAS: np.dot's threads wait on each other for milliseconds
        # a call on a busy machine, and a training loop previews thousands of tensors.
        norm = math.sqrt(float(np.einsum("i,i", x, x))) if not (nan or pinf or ninf) else math.nan
        grid, block = _grid(x, arr.shape)
        return cls(
            shape=tuple(arr.shape),
            dtype=dtype_name(arr.dtype),
            min=low,
            max=high,
            mean=mean,
            norm=math.inf if (pinf or ninf) and not nan else norm,
            nan=nan,
            pinf=pinf,
            ninf=ninf,
            head=flat[:HEAD].tolist(),
            grid=grid,
            block=block,
        )

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def finite(self) -> int:
        return self.size - self.nan - self.pinf - self.ninf

    def to_dict(self) -> dict:
        out = {key: getattr(self, key) for key in self.FIELDS}
        out["shape"] = list(self.shape)
        out["block"] = list(self.block)
        return out

    @classmethod
    def from_dict(cls, fields: dict) -> "Summary":
        return cls(**{**fields, "shape": tuple(fields["shape"]), "block": tuple(fields["block"])})

    def transposed(self) -> "Summary":
        """The summary of the 2-D tensor's transpose (its first elements are not known)."""
        grid = [list(row) for row in zip(*self.grid, strict=True)] if self.grid else []
        fields = {key: getattr(self, key) for key in self.FIELDS}
        fields |= {"shape": self.shape[::-1], "grid": grid, "block": self.block[::-1], "head": []}
        return Summary(**fields)

    def __eq__(self, other) -> bool:
        return type(other) is Summary and all(
            _same(getattr(self, k), getattr(other, k)) for k in self.FIELDS
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"Summary(shape={self.shape}, min={self.min}, max={self.max}, mean={self.mean})"


_FIELDS = frozenset(Summary.FIELDS)
# A deferred Summary whose value was lost: its statistics are not known (None), never made up.
_UNKNOWN = {"nan": 0, "pinf": 0, "ninf": 0, "head": [], "grid": [], "block": (1, 1)}


def _same(a, b) -> bool:
    """Equality where NaN equals NaN (a summary of NaNs is the same summary)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


_DTYPE_NAMES = {}  # numpy dtype -> its name: str(dtype) is slow, and a run has a few


def dtype_name(dtype) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def grid_shape(shape) -> tuple[int, int]:
    """A tensor's elements as rows × columns: a 1-D tensor is one row, a higher one has its
    leading dimensions flattened into rows."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return math.prod(shape[:-1]), shape[-1]


def blocks(rows: int, cols: int) -> tuple[int, int]:
    """The block of elements each heatmap cell stands for, so that there are at most CELLS
    cells, COLUMNS in a row and ROWS in a column; the dimension with more cells is halved
    first."""
    br = bc = 1
    while -(-cols // bc) > COLUMNS:
        bc *= 2
    while -(-rows // br) > ROWS:
        br *= 2
    while -(-rows // br) * -(-cols // bc) > CELLS:
        if -(-cols // bc) > -(-rows // br):
            bc *= 2
        else:
            br *= 2
    return br, bc


def _grid(flat: np.ndarray, shape) -> tuple[list, tuple]:
    """Block means of the elements laid out as grid_shape(shape); NaN in a block makes its
    cell NaN, an infinity (of one sign) its cell that infinity."""
    rows, cols = grid_shape(shape)
    if not flat.size:
        return [], (1, 1)
    br, bc = blocks(rows, cols)
    m = flat.reshape(rows, cols)
    if (br, bc) == (1, 1):
        return m.tolist(), (1, 1)
    r, c = -(-rows // br), -(-cols // bc)
    counts = br * bc  # whole blocks (the usual layer): one count for every cell
    if (r * br, c * bc) != (rows, cols):  # partial blocks at the edges: zeros fill them
        padded = np.zeros((r * br, c * bc), dtype=m.dtype)
        padded[:rows, :cols] = m
        m = padded
        heights = np.minimum(br, rows - br * np.arange(r))
        counts = np.outer(heights, np.minimum(bc, cols - bc * np.arange(c)))
    with np.errstate(invalid="ignore", over="ignore"):
        means = m.reshape(r, br, c, bc).sum(axis=(1, 3)) / counts
    return means.tolist(), (br, bc)


# Views torch makes inside one call and never returns (the x.view(B*T, C) of F.linear on a
# 3-D input, the transposes of attention): the same elements in another shape or order.
RESHAPES = frozenset(
    [
        "ViewBackward0",
        "UnsafeViewBackward0",
        "ReshapeAliasBackward0",
        "CloneBackward0",
        "AliasBackward0",
        "SqueezeBackward0",
        "SqueezeBackward1",
        "SqueezeBackward2",
        "UnsqueezeBackward0",
    ]
)


def derived(op: str, source, shape: tuple, params: dict):
    """The preview of what view op `op` made of an input whose preview is `source`, as a
    tensor of `shape`: exact where the input's elements are known, a summary's statistics and
    first elements kept by a reshape that keeps its heatmap's rows; else None (not known)."""
    if source is None:
        return None
    if type(source) is Summary:
        from .replay import elements  # replay reads summaries' elements the same way

        arr = elements(source)
        if arr is None:
            if op in RESHAPES and grid_shape(shape) == grid_shape(source.shape):
                fields = {key: getattr(source, key) for key in Summary.FIELDS}
                return Summary(**fields | {"shape": tuple(shape)})
            if op == "TBackward0" and len(source.shape) == 2:
                return source.transposed()
            return None
    else:
        arr = np.asarray(source)
    try:
        out = _moved(op, arr, tuple(shape), params)
        return preview(out) if out.shape == tuple(shape) else None
    except (ValueError, KeyError, TypeError, IndexError, np.exceptions.AxisError):
        return None  # arguments not recorded, or not of this shape: not known


def _moved(op: str, arr: np.ndarray, shape: tuple, params: dict):
    if op in RESHAPES:
        return arr.reshape(shape)
    if op == "TBackward0":
        return arr.T
    if op == "TransposeBackward0":
        return np.swapaxes(arr, params["dim0"], params["dim1"])
    if op == "PermuteBackward0":
        return np.transpose(arr, params["dims"])
    if op == "ExpandBackward0":
        return np.broadcast_to(arr, shape)
    if op == "SelectBackward0":
        return np.take(arr, params["index"], axis=params["dim"])
    if op == "SliceBackward0":
        cut = slice(params["start"], params["end"], params["step"])
        return arr[(slice(None),) * params["dim"] + (cut,)]
    raise KeyError(op)
