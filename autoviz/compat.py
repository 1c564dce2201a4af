"""`as_torch()`: inside it `import torch` gives autoviz, so PyTorch lesson code runs unchanged."""

import importlib
import importlib.util
import sys

from .torchnames import submodule_missing

# torch's module names and the autoviz modules they stand for ("module:attribute" for the
# small namespaces that live inside one module). One module object per name, so
# `torch.nn.Linear is autoviz.nn.Linear`.
ALIASES = {
    "torch": "autoviz",
    "torch.nn": "autoviz.nn",
    "torch.nn.functional": "autoviz.nn.functional",
    "torch.nn.init": "autoviz.nn.init",
    "torch.nn.parameter": "autoviz.nn.parameter",
    "torch.nn.utils": "autoviz.nn.utils",
    "torch.optim": "autoviz.optim",
    "torch.optim.lr_scheduler": "autoviz.optim.lr_scheduler",
    "torch.utils": "autoviz.utils",
    "torch.utils.data": "autoviz.utils.data",
    "torch.autograd": "autoviz.autograd",
    "torch.autograd.functional": "autoviz.autograd.functional",
    "torch.cuda": "autoviz.cuda",
    "torch.accelerator": "autoviz.accelerator",
    "torch.backends": "autoviz.backends",
    "torch.backends.cudnn": "autoviz.backends:cudnn",
    "torch.backends.mps": "autoviz.backends:mps",
    "torch.distributions": "autoviz.distributions",
}

# Classes whose repr names torch's module under the alias: `type(t)` is
# <class 'torch.Tensor'>, as a script printing it under PyTorch shows.
_CLASS_MODULES = {
    "autoviz.engine.tensor:Tensor": "torch",
    "autoviz.engine.tensor:Size": "torch",
    "autoviz.engine.dtypes:dtype": "torch",
    "autoviz.engine.device:device": "torch",
    "autoviz.nn.parameter:Parameter": "torch.nn.parameter",
}


def _resolve(target: str):
    module, _, attr = target.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


def _exists(target: str) -> bool:
    """Whether the autoviz module behind an alias is there (torch.distributions may not be)."""
    return importlib.util.find_spec(target.partition(":")[0]) is not None


class _TorchFinder:
    """Last stop for `import torch.x` under the alias: autoviz's module of the same path
    (torch.nn.modules.loss is autoviz.nn.modules.loss), else the error that autoviz has none."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            own = "autoviz" + fullname[len("torch") :]
            try:
                found = importlib.util.find_spec(own) is not None
            except ModuleNotFoundError:
                found = False
            if found:
                return importlib.util.spec_from_loader(fullname, _Same(own))
            raise submodule_missing(fullname)
        return None


class _Same:
    """The loader of an aliased submodule: the autoviz module itself, not a copy."""

    def __init__(self, name: str) -> None:
        self.name = name

    def create_module(self, spec):
        return importlib.import_module(self.name)

    def exec_module(self, module) -> None:
        pass


class as_torch:
    """Within `with autoviz.as_torch():`, `import torch` (and torch.nn, torch.optim,
    torch.utils.data, ...) gives autoviz's modules; on exit everything is as it was, any real
    torch already imported included."""

    def __enter__(self):
        self._saved = {n: m for n, m in sys.modules.items() if _is_torch_name(n)}
        for name in self._saved:
            del sys.modules[name]
        for name, target in ALIASES.items():
            if _exists(target):
                sys.modules[name] = _resolve(target)
        self._finder = _TorchFinder()
        sys.meta_path.insert(0, self._finder)
        self._classes = {}
        for target, module in _CLASS_MODULES.items():
            cls = _resolve(target)
            self._classes[cls] = cls.__module__
            cls.__module__ = module
        return sys.modules["torch"]

    def __exit__(self, *exc) -> None:
        for cls, module in self._classes.items():
            cls.__module__ = module
        sys.meta_path.remove(self._finder)
        for name in [n for n in sys.modules if _is_torch_name(n)]:
            del sys.modules[name]
        sys.modules.update(self._saved)


def _is_torch_name(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")
