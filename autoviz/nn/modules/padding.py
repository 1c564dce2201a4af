"""Padding layers: zeros or a constant, reflection, replication and circular padding."""

from ...engine.ops.arguments import ntuple
from .. import functional as F
from .module import Module


class _Pad(Module):
    nd = 1
    mode = "constant"

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = ntuple(padding, 2 * self.nd)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPad(_ConstantPad):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


def _make(name, base, nd, mode, doc):
    return type(name, (base,), {"nd": nd, "mode": mode, "__doc__": doc, "__module__": __name__})


ConstantPad1d = _make(
    "ConstantPad1d", _ConstantPad, 1, "constant", "Pad the last axis with a constant."
)
ConstantPad2d = _make(
    "ConstantPad2d", _ConstantPad, 2, "constant", "Pad the last two axes with a constant."
)
ConstantPad3d = _make(
    "ConstantPad3d", _ConstantPad, 3, "constant", "Pad the last three axes with a constant."
)
ZeroPad1d = _make("ZeroPad1d", _ZeroPad, 1, "constant", "Pad the last axis with zeros.")
ZeroPad2d = _make("ZeroPad2d", _ZeroPad, 2, "constant", "Pad the last two axes with zeros.")
ZeroPad3d = _make("ZeroPad3d", _ZeroPad, 3, "constant", "Pad the last three axes with zeros.")
ReflectionPad1d = _make(
    "ReflectionPad1d", _Pad, 1, "reflect", "Pad the last axis with its reflection."
)
ReflectionPad2d = _make(
    "ReflectionPad2d", _Pad, 2, "reflect", "Pad the last two axes with their reflection."
)
ReflectionPad3d = _make(
    "ReflectionPad3d", _Pad, 3, "reflect", "Pad the last three axes with their reflection."
)
ReplicationPad1d = _make(
    "ReplicationPad1d", _Pad, 1, "replicate", "Pad the last axis with its edge values."
)
ReplicationPad2d = _make(
    "ReplicationPad2d", _Pad, 2, "replicate", "Pad the last two axes with their edge values."
)
ReplicationPad3d = _make(
    "ReplicationPad3d", _Pad, 3, "replicate", "Pad the last three axes with their edge values."
)
CircularPad1d = _make(
    "CircularPad1d", _Pad, 1, "circular", "Pad the last axis by wrapping it around."
)
CircularPad2d = _make(
    "CircularPad2d", _Pad, 2, "circular", "Pad the last two axes by wrapping them around."
)
CircularPad3d = _make(
    "CircularPad3d", _Pad, 3, "circular", "Pad the last three axes by wrapping them around."
)
