"""Tell a PyTorch API that autoviz lacks from a typo, for the error a failed lookup raises."""

import functools
from pathlib import Path

from .errors import NotInAutoviz

_HINT = "autoviz has the parts of PyTorch that lessons use (docs/pytorch.md lists them)"


@functools.cache
def _names() -> dict:
    """{owner: set of public names}, read from torch_names.txt and torch_layer_names.txt
    (the nn, optim, utils.data and distributions groups; both written by tools/)."""
    owners = {}
    for listing in ("torch_names.txt", "torch_layer_names.txt"):
        text = Path(__file__).with_name(listing).read_text(encoding="utf-8")
        for line in text.splitlines():
            if line and not line.startswith("#"):
                owner, _, names = line.partition(": ")
                owners.setdefault(owner, set()).update(names.split())
    return owners


def in_torch(owner: str, name: str) -> bool:
    """Whether PyTorch has `owner.name` (owner such as "torch.nn" or "torch.Tensor")."""
    return name in _names().get(owner, ())


def missing(owner: str, name: str, plain: str) -> AttributeError:
    """The error for a failed lookup of `name` on `owner`: NotInAutoviz when PyTorch has it,
    else `plain`, the AttributeError PyTorch itself would raise."""
    if not name.startswith("_") and in_torch(owner, name):
        return NotInAutoviz(f"{owner}.{name} is not in autoviz yet ({_HINT})")
    return AttributeError(plain)


def module_attribute(module: str, name: str) -> AttributeError:
    """`missing` for an attribute of a module such as torch.nn (or a submodule of it that
    PyTorch has, such as torch.nn.parallel)."""
    if not name.startswith("_") and f"{module}.{name}" in _names().get("submodules", ()):
        return NotInAutoviz(f"{module}.{name} is not in autoviz yet ({_HINT})")
    return missing(module, name, f"module {module!r} has no attribute {name!r}")


def submodule_missing(fullname: str) -> ModuleNotFoundError:
    """The error for `import torch.x` where autoviz has no torch.x."""
    parts = fullname.split(".")
    known = len(parts) >= 2 and parts[1] in _names().get("modules", ())
    if known or fullname in _names().get("submodules", ()):
        return ModuleNotFoundError(f"{fullname} is not in autoviz yet ({_HINT})", name=fullname)
    return ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)


class _NotYet:
    """A PyTorch Tensor method autoviz lacks: reading it raises NotInAutoviz (so hasattr
    is False), where a __getattr__ would slow every attribute read of every tensor."""

    __slots__ = ("name",)

    def __set_name__(self, owner, name) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        raise NotInAutoviz(f"torch.Tensor.{self.name} is not in autoviz yet ({_HINT})")


def mark_missing(cls, owner: str) -> None:
    """Give `cls` a _NotYet for each of PyTorch's public names for `owner` it does not have."""
    for name in _names().get(owner, ()):
        if not hasattr(cls, name):
            slot = _NotYet()
            slot.name = name
            setattr(cls, name, slot)
