"""The argument helpers PyTorch's layers use (_single, _pair, _triple, _ntuple), importable
from torch.nn.modules.utils as custom layers in lessons import them."""

import collections.abc
import itertools


def _ntuple(n, name="parse"):
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(itertools.repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    """(a, b) → (b, b, a, a) for n = 2: a padding as F.pad takes it."""
    return tuple(x for x in reversed(t) for _ in range(n))
