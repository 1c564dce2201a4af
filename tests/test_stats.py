"""The statistics every label, caption and card shows of a tensor, against numpy's own."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autoviz.render.dot import _non_finite
from autoviz.tracing.text import Stats

ELEMENTS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    # sums that overflow though each number is finite
    st.sampled_from([1e308, -1e308, 1.5e154, 0.0, -0.0]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(ELEMENTS, min_size=1, max_size=12), st.integers(1, 3))
def test_stats_are_numpys(items, rows):
    items = items[: len(items) - len(items) % rows] or items[:1]
    rows = rows if len(items) % rows == 0 else 1
    value = np.array(items).reshape(rows, -1).tolist()
    s = Stats(value)
    arr = np.array(items)
    finite = arr[np.isfinite(arr)]
    assert (s.size, s.nan) == (arr.size, int(np.isnan(arr).sum()))
    assert (s.pinf, s.ninf) == (int((arr == math.inf).sum()), int((arr == -math.inf).sum()))
    if finite.size:
        assert (s.min, s.max) == (finite.min(), finite.max())
        try:
            assert s.mean == math.fsum(finite) / finite.size
        except OverflowError:  # numbers near float64's largest: the mean is still finite
            assert math.isclose(s.mean, math.fsum(finite / finite.size))
    else:
        assert s.min is s.max is s.mean is None
    if finite.size == arr.size:
        assert math.isclose(s.norm, math.hypot(*finite))
    assert _non_finite(value) == (finite.size < arr.size)


def test_stats_of_integers_and_bools_are_exact():
    s = Stats([[2**62, -(2**62)], [3, 4]])
    assert (s.min, s.max, s.mean) == (-(2**62), 2**62, 7 / 4)
    assert s.norm == math.sqrt(math.fsum([2.0**124, 2.0**124, 9, 16]))
    b = Stats([True, False, True])
    assert (b.min, b.max, b.nan, b.norm) == (False, True, 0, math.sqrt(2))
