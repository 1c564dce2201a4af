"""torch's CPU topk (largest, sorted) and sort (not stable) of one row, tie order included:
libstdc++'s nth_element and sort, or its heap functions, run as torch runs them on (key,
index) pairs; and kthvalue's quickselect (Sedgewick's partition, as torch's SortingUtils).

Only rows with equal values need this: there the order is whatever the algorithm leaves, so
it is reproduced step by step (GCC's libstdc++, the library torch's Linux wheels use). A key
comes first when it is greater; keys() orders NaNs as torch's comparators do.
"""

import math

_THRESHOLD = 16  # libstdc++'s _S_threshold: insertion sort below this


def topk_row(values: list, k: int) -> list:
    """Indices of the k largest values, largest first, as torch.topk(..., sorted=True):
    partial_sort when k is small beside the row (k * 64 <= n), else nth_element and a sort
    of the k - 1 before it."""
    pairs = [(v, i) for i, v in enumerate(values)]
    if k * 64 <= len(pairs):
        _heap_select(pairs, 0, k, len(pairs))
        _sort_heap(pairs, 0, k)
    else:
        _nth_element(pairs, 0, k - 1, len(pairs))
        _sort(pairs, 0, k - 1)
    return [i for _, i in pairs[:k]]


def sort_row(keys: list) -> list:
    """The order std::sort leaves (key, index) pairs in, greatest key first: torch.sort's
    indices (stable=False) on keys made by keys()."""
    pairs = [(v, i) for i, v in enumerate(keys)]
    _sort(pairs, 0, len(pairs))
    return [i for _, i in pairs]


def keys(row: list, first: bool, nan_first: bool) -> list:
    """Keys that put a row in torch's order: `first` says whether greater values come first
    (descending, largest), `nan_first` whether NaNs lead or trail (plain numbers without)."""
    if not any(isinstance(v, float) and math.isnan(v) for v in row):
        return row if first else [-v for v in row]
    return [_nan_key(v, first, nan_first) for v in row]


def _nan_key(value, first: bool, nan_first: bool):
    if isinstance(value, float) and math.isnan(value):
        return (1, 0) if nan_first else (-1, 0)
    return (0, value if first else -value)


def kth_index(values: list, k: int) -> int:
    """The index torch.kthvalue reports: its quickselect of position k (0-based) on (value,
    index) pairs, NaN counted greatest."""
    arr, idx = list(values), list(range(len(values)))

    def gt(x, y) -> bool:
        return (x != x and y == y) or x > y  # x != x: NaN

    def swap(i, j) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)  # the median of three as the pivot, at lo
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(pivot, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


def _less(a, b) -> bool:
    """torch's comparator for largest: a comes first when its value is greater."""
    return a[0] > b[0]


# -- libstdc++'s algorithms, on a[first:last] ------------------------------------------------
def _lg(n: int) -> int:
    return n.bit_length() - 1


def _nth_element(a, first, nth, last) -> None:
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last)


def _sort(a, first, last) -> None:
    if first != last:
        _introsort_loop(a, first, last, _lg(last - first) * 2)
        _final_insertion_sort(a, first, last)


def _introsort_loop(a, first, last, depth) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_select(a, first, last, last)
            _sort_heap(a, first, last)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last)
        _introsort_loop(a, cut, last, depth)
        last = cut


def _final_insertion_sort(a, first, last) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i)
    else:
        _insertion_sort(a, first, last)


def _insertion_sort(a, first, last) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        if _less(a[i], a[first]):
            a[first : i + 1] = [a[i], *a[first:i]]
        else:
            _linear_insert(a, i)


def _linear_insert(a, last) -> None:
    val, nxt = a[last], last - 1
    while _less(val, a[nxt]):
        a[last] = a[nxt]
        last, nxt = nxt, nxt - 1
    a[last] = val


def _partition_pivot(a, first, last) -> int:
    mid = first + (last - first) // 2
    _median_to_first(a, first, first + 1, mid, last - 1)
    return _unguarded_partition(a, first + 1, last, first)


def _median_to_first(a, result, x, y, z) -> None:
    if _less(a[x], a[y]):
        if _less(a[y], a[z]):
            pick = y
        elif _less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif _less(a[x], a[z]):
        pick = x
    elif _less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot) -> int:
    while True:
        while _less(a[first], a[pivot]):
            first += 1
        last -= 1
        while _less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _heap_select(a, first, middle, last) -> None:
    _make_heap(a, first, middle)
    for i in range(middle, last):
        if _less(a[i], a[first]):
            _pop_heap(a, first, middle, i)


def _make_heap(a, first, last) -> None:
    n = last - first
    if n < 2:
        return
    parent = (n - 2) // 2
    while True:
        _adjust_heap(a, first, parent, n, a[first + parent])
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value)


def _sort_heap(a, first, last) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last)


def _adjust_heap(a, first, hole, n, value) -> None:
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if _less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value)


def _push_heap(a, first, hole, top, value) -> None:
    parent = (hole - 1) // 2
    while hole > top and _less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value
