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
from .grad_mode import _state

# id(root array) -> (weak reference to it, [sequence numbers of its in-place changes], offset)
modified: dict = {}
# id(root array) -> (id of the root array its tensor moved on to, the tensor's node then):
# one counter per tensor, as in PyTorch, though a recorded in-place op gives it new memory
_LATER: dict = {}


# id(root array) -> id of the root array its values live on in: a view's result that autoviz
# wrote into the view's base out of place, so the view reads that memory now (see joined)
_JOINED: dict = {}


# id(tensor) -> [its count]: a tensor `.data` gave has a counter of its own, as in PyTorch, so
# an in-place change through it goes unnoticed by backward (the lesson of why not to use it)
own: dict = {}

INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def data_alias(tensor) -> None:
    """Give `tensor` (what `.data` returned) a version counter of its own."""
    key = id(tensor)
    own[key] = [0]
    weakref.finalize(tensor, own.pop, key, None)


def changed_by(tensor, data, *args) -> None:
    """`changed(data, *args)`, an in-place change made through `tensor`: counted on its own
    counter when it has one (a `.data` alias), else on its memory's. An inference tensor has
    no counter outside inference_mode: as torch, the change is made and then refused."""
    if getattr(tensor, "_inference", False) and not _state["inference"]:
        raise RuntimeError(INFERENCE_INPLACE)
    counter = own.get(id(tensor)) if own else None
    if counter is not None:
        counter[0] += 1
        return
    changed(data, *args)


def version_of(tensor) -> int:
    """`tensor._version`."""
    counter = own.get(id(tensor)) if own else None
    return counter[0] if counter is not None else version(tensor._data)


def root(array):
    """The array that owns the memory `array` views."""
    while isinstance(getattr(array, "base", None), np.ndarray):
        array = array.base
    return array


def version(data) -> int:
    """`tensor._version`: how many in-place changes its memory has had."""
    entry = modified.get(id(root(data)))
    return 0 if entry is None else entry[2] + len(entry[1])


def changed(data, moved_to=None, at=None, node=None) -> None:
    """Note an in-place change of `data`'s memory; `moved_to` is the new array of a tensor that
    took on an op's result (PyTorch changes the memory in place there): it keeps the count.
    `at`: the in-place op's own node, which saved what it needs before the change."""
    base = root(data)
    if not isinstance(base, np.ndarray):  # a numpy scalar: immutable, nothing saved can change
        return
    key = id(base)
    entry = modified.get(key)
    if entry is None:
        ref = weakref.ref(base, lambda _, key=key, forget=_forget: forget(key))
        entry = modified[key] = (ref, [], 0)
    # A point in the program's order, between nodes (or the in-place op's own node's).
    entry[1].append(function.next_seq() if at is None else at)
    if moved_to is not None:
        _carry(moved_to, entry[2] + len(entry[1]))
        _LATER[key] = (id(root(moved_to)), node)  # its counter goes on with the new memory


def moved(data, moved_to, node) -> None:
    """A tensor's data moved to `moved_to` by a change counted already: the count goes on."""
    base = root(data)
    if not isinstance(base, np.ndarray):
        return
    entry = modified.get(id(base))
    _carry(moved_to, 0 if entry is None else entry[2] + len(entry[1]))
    _LATER[id(base)] = (id(root(moved_to)), node)


def _carry(data, count: int) -> None:
    base = root(data)
    if isinstance(base, np.ndarray):
        key = id(base)
        ref = weakref.ref(base, lambda _, key=key, forget=_forget: forget(key))
        modified[key] = (ref, [], count)


def _forget(key, modified=modified, later=_LATER, joined=_JOINED) -> None:  # bound: at exit too
    modified.pop(key, None)
    later.pop(key, None)
    joined.pop(key, None)


def _latest(key, entry):
    """(version, node) of the tensor that held this memory, wherever its data went since."""
    seen, node = {key}, None
    while key in _LATER and _LATER[key][0] in modified and _LATER[key][0] not in seen:
        key, node = _LATER[key][0], _LATER[key][1] or node
        seen.add(key)
        entry = modified[key]
    return entry[2] + len(entry[1]), node


def check(node) -> None:
    """PyTorch's error when an array `node` saved was changed in place after `node` was made:
    in its memory, or in the memory its values went on to live in (see joined)."""
    saved = node._saved if isinstance(node._saved, tuple) else ()
    unneeded = function.unneeded_saved(node) if saved else ()
    for i, item in enumerate(saved):
        data = getattr(item, "_data", item)
        key = id(root(data))
        if key not in modified or i in unneeded:
            continue
        first = entry = modified[key]
        after, seen, last = 0, set(), (key, entry)
        while entry is not None and key not in seen:
            seen.add(key)
            last = (key, entry)
            if entry[0]() is not None:
                after += len(entry[1]) - bisect.bisect(entry[1], node._seq)
            key = _JOINED.get(key)
            entry = modified.get(key)
        if after:
            # the message gives the tensor's version now, wherever its data went (a node here
            # may keep an input torch would not, so only the memory its values are in counts)
            now = _latest(*last)[0]
            before = bisect.bisect(first[1], node._seq)
            # its version when saved: counted in its own memory when that changed since
            expected = first[2] + before if before < len(first[1]) else now - after
            raise RuntimeError(_message(node, data, now, expected))


def joined(data, into) -> None:
    """`data`'s values live on in `into`'s memory (a view's result, written into its base out
    of place and viewed there again): a later change there changes what kept `data`."""
    base, later = root(data), root(into)
    if not isinstance(base, np.ndarray) or not isinstance(later, np.ndarray) or base is later:
        return
    if id(base) not in modified:
        _carry(base, 0)
    _JOINED[id(base)] = id(later)


def _message(node, data, now: int, expected: int) -> str:
    from .dtypes import TYPE_NAMES

    kind = TYPE_NAMES.get(np.result_type(data).name, "")
    what = f"[torch.{kind}Tensor {list(np.shape(data))}]"
    entry = modified.get(id(root(data)))
    later = _latest(id(root(data)), entry)[1] if entry is not None else None
    # torch names a saved output by the node that saved it, a saved input by its node now
    # (a saved output of a node with several outputs is named by its number among them)
    outs = getattr(node, "_outs", ())
    number = next((i for i, out in enumerate(outs) if out is data), None)
    if number is not None:
        producer = node
    else:
        producer = node if node._out is data else later or _producer(node, data)
        number = getattr(producer, "index", 0)
    if producer is not None:
        name = producer.name().removesuffix("Backward0").removesuffix("Backward")
        what += (
            f", which is output {number} of {'torch::autograd::' * (name == 'CopySlices')}{name}"
        )
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
