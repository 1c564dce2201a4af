"""Write tests/torch_layer_names.txt: the documented public names of PyTorch's layer groups
(torch.nn, nn.functional, nn.init, nn.utils, optim, optim.lr_scheduler, utils.data,
distributions) and their submodules, read from the installed PyTorch. tests/test_torch_layer_api.py
checks that autoviz has each one (or says why not). Run with the PyTorch the project compares
against: `python tools/torch_layer_names.py`.

A name counts when it is public (no leading underscore, in __all__ where the module has
one) and is a class or function PyTorch defines (its __module__ is torch's), so typing
helpers and re-exported standard-library names are left out.
"""

import importlib
import pkgutil
import types
from pathlib import Path

import torch

GROUPS = (
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.nn.utils.rnn",
    "torch.nn.utils.parametrize",
    "torch.nn.utils.parametrizations",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.optim.swa_utils",
    "torch.utils.data",
    "torch.distributions",
    "torch.distributions.transforms",
    "torch.distributions.constraints",
)
PACKAGES = (
    "torch.nn",
    "torch.nn.modules",
    "torch.nn.utils",
    "torch.optim",
    "torch.utils.data",
    "torch.distributions",
)
OUT = Path(__file__).resolve().parent.parent / "tests" / "torch_layer_names.txt"


def documented(module) -> list:
    names = getattr(module, "__all__", None)
    names = list(names) if names is not None else [n for n in dir(module) if not n.startswith("_")]
    keep = []
    for name in names:
        obj = getattr(module, name, None)
        if name.startswith("_") or obj is None or isinstance(obj, types.ModuleType):
            continue
        owner = getattr(obj, "__module__", None) or ""
        if callable(obj) and (owner.startswith("torch") or (owner == "" and name in dir(module))):
            keep.append(name)
        elif not callable(obj) and type(obj).__module__.startswith("torch"):
            keep.append(name)  # constraints, identity_transform: instances torch defines
    return sorted(set(keep))


def submodules() -> list:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names += [
            f"{package}.{m.name}"
            for m in pkgutil.iter_modules(module.__path__)
            if not m.name.startswith("_")
        ]
    return sorted(set(names))


def main() -> None:
    version = torch.__version__.split("+")[0]
    lines = [f"# documented names of PyTorch {version}'s layer groups; tools/torch_layer_names.py"]
    for group in GROUPS:
        lines.append(f"{group}: {' '.join(documented(importlib.import_module(group)))}")
    lines.append(f"modules: {' '.join(submodules())}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({sum(len(line.split()) - 1 for line in lines[1:])} names)")


if __name__ == "__main__":
    main()
