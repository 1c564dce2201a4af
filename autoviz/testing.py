"""`torch.testing.assert_close`: tensors, numbers and sequences of them compared within
PyTorch's default tolerances for their dtype, failing with PyTorch's report."""

from __future__ import annotations

import math

import numpy as np

from .engine.tensor import Tensor

# {dtype: (rtol, atol)}, torch.testing's defaults; integers and bools must be equal.
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}

__all__ = ["assert_close"]


def _tolerances(*dtypes) -> tuple[float, float]:
    pairs = [_TOLERANCES.get(np.dtype(d).name, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _number_text(x) -> str:
    return repr(x.item() if hasattr(x, "item") else x)


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses=True,
    rtol=None,
    atol=None,
    equal_nan=False,
    check_device=True,
    check_dtype=True,
    check_layout=True,
    check_stride=False,
    msg=None,
):
    """Raise AssertionError unless actual and expected are close: |a - e| <= atol + rtol·|e|
    elementwise, with the same shape and (check_dtype) dtype."""
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
        )
    _compare(actual, expected, (rtol, atol), equal_nan, check_dtype, msg, [])


def _compare(actual, expected, tolerance, equal_nan, check_dtype, msg, path) -> None:
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            _fail(
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", msg, path
            )
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            _compare(a, e, tolerance, equal_nan, check_dtype, msg, [*path, i])
        return
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _tensors(actual, expected, tolerance, equal_nan, check_dtype, msg, path)
    numbers = (bool, int, float)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        if check_dtype and type(actual) is not type(expected):
            _fail(f"The (d)types do not match: {type(actual)} != {type(expected)}.", msg, path)
        kind = "float64" if isinstance(actual, float) or isinstance(expected, float) else "int64"
        return _values(
            np.asarray(actual),
            np.asarray(expected),
            kind,
            tolerance,
            equal_nan,
            msg,
            path,
            scalar=True,
        )
    raise TypeError(
        "No comparison pair was able to handle inputs of type "
        f"{_type_text(actual)} and {_type_text(expected)}."
    )


def _type_text(x) -> str:
    return "<class 'torch.Tensor'>" if isinstance(x, Tensor) else str(type(x))


def _tensors(actual, expected, tolerance, equal_nan, check_dtype, msg, path) -> None:
    if actual.shape != expected.shape:
        _fail(
            f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}.",
            msg,
            path,
        )
    if check_dtype and actual.dtype != expected.dtype:
        _fail(
            f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}.",
            msg,
            path,
        )
    a, e = actual.detach().numpy(), expected.detach().numpy()
    _values(a, e, (a.dtype, e.dtype), tolerance, equal_nan, msg, path, scalar=a.ndim == 0)


def _values(a, e, dtypes, tolerance, equal_nan, msg, path, scalar) -> None:
    rtol, atol = tolerance
    if rtol is None:
        rtol, atol = _tolerances(*(dtypes if isinstance(dtypes, tuple) else (dtypes,)))
    common = np.result_type(a, e)
    work = common if common.kind == "f" else np.float64
    if common.kind == "b":
        work = np.int64
    with np.errstate(invalid="ignore", over="ignore"):
        a_w, e_w = a.astype(work), e.astype(work)
        close = np.abs(a_w - e_w) <= atol + rtol * np.abs(e_w)
        close |= a_w == e_w  # infinities of one sign
        if equal_nan:
            close |= np.isnan(a_w) & np.isnan(e_w)
    if close.all():
        return
    kind = "close" if rtol or atol else "equal"
    allowed = (
        (f" (up to {atol} allowed)", f" (up to {rtol} allowed)") if kind == "close" else ("", "")
    )
    if scalar:
        difference = abs(a_w - e_w).astype(np.result_type(a, e) if kind == "equal" else work)
        relative = difference / abs(e_w) if e_w != 0 else math.inf
        _fail(
            f"Scalars are not {kind}!\n\nExpected {_number_text(e)} but got {_number_text(a)}.\n"
            f"Absolute difference: {_number_text(difference)}{allowed[0]}\n"
            f"Relative difference: {_number_text(relative)}{allowed[1]}",
            msg,
            path,
        )
    _fail(_tensor_report(a, e, close, kind, allowed), msg, path)


def _tensor_report(a, e, close, kind, allowed) -> str:
    integral = a.dtype.kind in "biu"
    work = np.int64 if integral else np.result_type(a, e)
    with np.errstate(invalid="ignore", divide="ignore"):
        difference = np.abs(a.astype(work) - e.astype(work))
        relative = difference / np.abs(e.astype(work))
    if integral:  # torch reports integers' relative differences in float32
        relative = relative.astype(np.float32)
    mismatched = int((~close).sum())
    lines = [
        f"Tensor-likes are not {kind}!",
        "",
        f"Mismatched elements: {mismatched} / {close.size} ({100 * mismatched / close.size:.1f}%)",
    ]
    for word, values, tail in (
        ("absolute", difference, allowed[0]),
        ("relative", relative, allowed[1]),
    ):
        shown = np.where(close, 0, np.nan_to_num(values, nan=np.inf))
        at = np.unravel_index(int(np.argmax(shown)), shown.shape)
        value = values[at].item()
        lines.append(
            f"Greatest {word} difference: {value} at index {tuple(int(i) for i in at)}{tail}"
        )
    return "\n".join(lines)


def _fail(text: str, msg, path) -> None:
    if msg is not None:
        raise AssertionError(msg(text) if callable(msg) else msg)
    if path:
        text += "\n\nThe failure occurred for item " + "".join(f"[{i}]" for i in path)
    raise AssertionError(text)
