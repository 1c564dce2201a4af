"""Version counters: an in-place change to memory that a backward node saved raises PyTorch's
"modified by an inplace operation" error when backward reaches that node.

Nothing is recorded per op: each in-place change notes, for the memory it changed (the root
array a tensor and its views share), when it happened (the sequence number a node created
then would get). At backward a node checks its saved arrays against those notes, and only
once a program has changed something in place.
"""

import bisect
import weakref

import numpy as np

from . import function

# id(root array) -> (weak reference to it, [sequence numbers of its in-place changes], offset)
modified: dict = {}


def root(array):
    """The array that owns the memory `array` views."""
    while isinstance(getattr(array, "base", None), np.ndarray):
        array = array.base
    return array


def version(data) -> int:
    """`tensor._version`: how many in-place changes its memory has had."""
    entry = modified.get(id(root(data)))
    return 0 if entry is None else entry[2] + len(entry[1])


def changed(data, moved_to=None) -> None:
    """Note an in-place change of `data`'s memory; `moved_to` is the new array of a tensor that
    took on an op's result (PyTorch changes the memory in place there): it keeps the count."""
    base = root(data)
    if not isinstance(base, np.ndarray):  # a numpy scalar: immutable, nothing saved can change
        return
    key = id(base)
    entry = modified.get(key)
    if entry is None:
        ref = weakref.ref(base, lambda _, key=key: modified.pop(key, None))
        entry = modified[key] = (ref, [], 0)
    entry[1].append(function.next_seq())  # a point in the program's order, between nodes
    if moved_to is not None:
        _carry(moved_to, entry[2] + len(entry[1]))


def _carry(data, count: int) -> None:
    base = root(data)
    if isinstance(base, np.ndarray):
        key = id(base)
        modified[key] = (weakref.ref(base, lambda _, key=key: modified.pop(key, None)), [], count)


def check(node) -> None:
    """PyTorch's error when an array `node` saved was changed in place after `node` was made."""
    for item in node._saved if isinstance(node._saved, tuple) else ():
        data = getattr(item, "_data", item)
        entry = modified.get(id(root(data)))
        if entry is None or entry[0]() is None:
            continue
        seqs = entry[1]
        expected = entry[2] + bisect.bisect(seqs, node._seq)
        now = entry[2] + len(seqs)
        if expected != now:
            raise RuntimeError(_message(node, data, now, expected))


def _message(node, data, now: int, expected: int) -> str:
    from .dtypes import TYPE_NAMES

    kind = TYPE_NAMES.get(np.result_type(data).name, "")
    what = f"[torch.{kind}Tensor {list(np.shape(data))}]"
    producer = _producer(node, data)
    if producer is not None:
        what += f", which is output 0 of {producer.name().removesuffix('Backward0')}"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {what}{',' if producer is not None else ''} is at version {now}; expected "
        f"version {expected} instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
        "check_nan=False)."
    )


def _producer(node, data):
    """The node whose output `data` is (the node itself for a saved result), or None for a leaf."""
    if node._out is data:
        return node
    for fn in node._next:
        if fn is not None and getattr(fn, "_out", None) is data:
            return fn
    return None
