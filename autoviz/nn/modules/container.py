"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""

import itertools
import operator
from collections import OrderedDict

from ...engine.tensor import Tensor
from ..parameter import Parameter
from .module import Module


class Sequential(Module):
    """Modules applied one after the other; named "0", "1", ... unless given an OrderedDict."""

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx):
        items = list(self._modules.items())
        if isinstance(idx, slice):
            return type(self)(OrderedDict(items[idx]))  # slices keep their names, as in torch
        return items[_check_index(idx, len(items))][1]

    def __setitem__(self, idx: int, module) -> None:
        key = list(self._modules)[_check_index(idx, len(self))]
        setattr(self, key, module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [keys[_check_index(idx, len(keys))]]:
            delattr(self, key)
        _renumber(self)  # as torch: the rest are named 0, 1, ... again

    def insert(self, index: int, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        _shift_in(self, index % (n + 1) if index < 0 else index, module)
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return Sequential().extend(self).extend(other)

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return self.extend(list(other))

    def __mul__(self, other):
        return Sequential().extend(list(self) * _factor(self, other))

    __rmul__ = __mul__

    def __imul__(self, other):
        return self.extend(list(self) * (_factor(self, other) - 1))


def _factor(seq, other) -> int:
    if not isinstance(other, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(seq)} and {type(other)}")
    if other <= 0:
        raise ValueError(f"Non-positive multiplication factor {other} for {type(seq)}")
    return other


def _renumber(container) -> None:
    modules = list(container._modules.values())
    container._modules.clear()
    container._modules.update((str(i), m) for i, m in enumerate(modules))


def _shift_in(container, index: int, module) -> None:
    """`module` at position `index`, the ones from there on one place later."""
    modules = container._modules
    for i in range(len(modules), index, -1):
        modules[str(i)] = modules[str(i - 1)]
    modules[str(index)] = module


def _check_index(idx, size: int) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class ModuleList(Module):
    """A list of modules whose parameters the parent registers; it has no forward of its own."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_check_index(idx, len(self)))]

    def __setitem__(self, idx: int, module) -> None:
        self.add_module(str(_check_index(idx, len(self))), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [keys[_check_index(idx, len(keys))]]:
            delattr(self, key)
        _renumber(self)

    def insert(self, index: int, module) -> None:
        _shift_in(self, index, module)

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def __add__(self, other):
        return ModuleList([*self, *other])

    def __iadd__(self, modules):
        return self.extend(modules)

    def __repr__(self) -> str:
        # PyTorch folds runs of identical children: "(0-2): 3 x Linear(...)".
        if not self._modules:
            return f"{self._get_name()}()"
        lines, start = [], 0
        for text, run in itertools.groupby(repr(m) for m in self._modules.values()):
            count = len(list(run))
            end = start + count - 1
            label = f"({start}): " if count == 1 else f"({start}-{end}): {count} x "
            lines.append(label + text.replace("\n", "\n  "))
            start = end + 1
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Modules by name, registered with the parent (in insertion order)."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str):
        return self._modules[key]

    def __setitem__(self, key: str, module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key: str):
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules) -> None:
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module


def _parameter(value):
    """PyTorch wraps plain tensors put into a ParameterList or ParameterDict."""
    return (
        Parameter(value)
        if isinstance(value, Tensor) and not isinstance(value, Parameter)
        else value
    )


def _summary(value, legacy: bool) -> str:
    """One line per entry: `Parameter containing: [torch.float32 of size 2x3]`."""
    if not isinstance(value, Tensor):
        return repr(value)
    size = "x".join(str(n) for n in value.shape)
    kind = value.type() if legacy else repr(value.dtype)  # ParameterDict: the legacy type
    return f"Parameter containing: [{kind} of size {size}]"


class ParameterList(Module):
    """A list of parameters registered with the parent, named "0", "1", ..."""

    def __init__(self, values=None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_check_index(idx, len(self))))

    def __setitem__(self, idx: int, value) -> None:
        setattr(self, str(_check_index(idx, len(self))), _parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def append(self, value):
        self._size += 1
        setattr(self, str(self._size - 1), _parameter(value))
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_summary(p, legacy=False)}" for i, p in enumerate(self))


class ParameterDict(Module):
    """Parameters by name, registered with the parent; a plain dict is taken in sorted order."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys = []
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        if key not in self._keys:
            self._keys.append(key)
        setattr(self, key, _parameter(value))

    def __delitem__(self, key: str) -> None:
        self._keys.remove(key)
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return list(self._keys)

    def values(self):
        return [self[k] for k in self._keys]

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def update(self, parameters) -> None:
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, dict):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_summary(v, legacy=True)}" for k, v in self.items())


class Container(Module):
    """The deprecated container: its keyword arguments become submodules."""

    def __init__(self, **kwargs) -> None:
        import warnings

        super().__init__()
        warnings.warn(
            "nn.Container is deprecated. All of it's functionality is now implemented in "
            "nn.Module. Subclass that instead.",
            stacklevel=2,
        )
        for key, value in kwargs.items():
            self.add_module(key, value)
