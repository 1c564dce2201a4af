"""`as_torch()`: inside it `import torch` gives autoviz, so PyTorch lesson code runs unchanged."""

import contextlib
import importlib
import importlib.util
import sys
import threading
import types

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
    "torch.cuda.amp": "autoviz.amp:cuda_amp",
    "torch.cpu": "autoviz.cpu",
    "torch.cpu.amp": "autoviz.amp:cpu_amp",
    "torch.amp": "autoviz.amp",
    "torch.version": "autoviz.version",
    "torch.torch_version": "autoviz.torch_version",
    "torch.accelerator": "autoviz.accelerator",
    "torch.backends": "autoviz.backends",
    "torch.backends.cudnn": "autoviz.backends:cudnn",
    "torch.backends.mps": "autoviz.backends:mps",
    "torch.distributions": "autoviz.distributions",
    "torch.special": "autoviz.special",
    "torch.testing": "autoviz.testing",
    "torch.utils.checkpoint": "autoviz.utils.checkpoint",
}

# Classes whose repr names torch's module under the alias: `type(t)` is
# <class 'torch.Tensor'>, as a script printing it under PyTorch shows.
_CLASS_MODULES = {
    "autoviz.engine.tensor:Tensor": "torch",
    "autoviz.engine.tensor:Size": "torch",
    "autoviz.engine.dtypes:dtype": "torch",
    "autoviz.engine.device:device": "torch",
    "autoviz.engine.device:memory_format": "torch",
    "autoviz.engine.device:layout": "torch",
    "autoviz.nn.parameter:Parameter": "torch.nn.parameter",
    "autoviz.engine.fidelity.random:Generator": "torch._C",
    "autoviz.nn.hooks:RemovableHandle": "torch.utils.hooks",
    "autoviz.engine.function:RemovableHandle": "torch.utils.hooks",
    "autoviz.engine.function:Function": "torch.autograd.function",
    "autoviz.engine.dtypes:finfo": "torch",
    "autoviz.engine.dtypes:iinfo": "torch",
    **{
        f"autoviz.engine.grad_mode:{name}": "torch.autograd.grad_mode"
        for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode")
    },
    "autoviz.engine.grad_mode:set_detect_anomaly": "torch.autograd.anomaly_mode",
    "autoviz.engine.grad_mode:detect_anomaly": "torch.autograd.anomaly_mode",
}


# autoviz's packages laid out as torch's: a class of autoviz.nn.modules.linear prints as
# torch.nn.modules.linear's under the alias (`type(model)`, `type(loader)`)
_MIRRORED = ("autoviz.nn", "autoviz.optim", "autoviz.utils", "autoviz.distributions")


def _mirrored_classes():
    """(class, torch's module name for it) for the classes of autoviz's mirrored packages."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(_MIRRORED) or module is None:
            continue
        torch_name = "torch" + name[len("autoviz") :]
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__ == name:
                yield value, torch_name


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
    torch already imported included, and a module first imported inside the block that uses
    torch (torchviz, a lesson's helpers) is forgotten, so importing it again gets real torch.

    `sys.modules` is one for the whole process: overlapping blocks, nested, re-entered or in
    several threads, share one swap, made by the first to enter and undone by the last to
    leave (in between, every thread's `import torch` gives autoviz)."""

    def __enter__(self):
        global _SWAP
        with _LOCK:
            if _SWAP is None:
                _SWAP = _Swap()
            _SWAP.depth += 1
            return sys.modules["torch"]

    def __exit__(self, *exc) -> None:
        global _SWAP
        with _LOCK:
            _SWAP.depth -= 1
            if _SWAP.depth == 0:
                swap, _SWAP = _SWAP, None
                swap.undo()


class _Swap:
    """torch's module names bound to autoviz's, and what undoes it."""

    def __init__(self) -> None:
        self.depth = 0
        self.before = set(sys.modules)
        self.saved = {n: m for n, m in sys.modules.items() if _is_torch_name(n)}
        for name in self.saved:
            del sys.modules[name]
        self.aliases = {}
        for name, target in ALIASES.items():
            if _exists(target):
                self.aliases[name] = sys.modules[name] = _resolve(target)
        self.finder = _TorchFinder()
        sys.meta_path.insert(0, self.finder)
        self.classes = {}
        for target, module in _CLASS_MODULES.items():
            cls = _resolve(target)
            self.classes[cls] = cls.__module__
            cls.__module__ = module
        for cls, module in _mirrored_classes():
            self.classes.setdefault(cls, cls.__module__)
            cls.__module__ = module
        # `torch.__version__` is the version of PyTorch whose API autoviz follows
        autoviz = sys.modules["torch"]
        self.version = autoviz.__version__
        autoviz.__version__ = importlib.import_module("autoviz.torch_version").__version__

    def undo(self) -> None:
        sys.modules["autoviz"].__version__ = self.version
        for name in _bound_to_autoviz(self.before, self):
            del sys.modules[name]
        for cls, module in self.classes.items():
            cls.__module__ = module
        with contextlib.suppress(ValueError):  # the user's code may have taken it out
            sys.meta_path.remove(self.finder)
        for name in [n for n in sys.modules if _is_torch_name(n)]:
            del sys.modules[name]
        sys.modules.update(self.saved)


def _bound_to_autoviz(before: set, swap: _Swap) -> list[str]:
    """The modules imported during the swap (not autoviz's own) that hold one of the aliased
    modules or something from autoviz, directly or through another such module."""
    new = {
        name: module
        for name, module in list(sys.modules.items())
        if name not in before and not _is_torch_name(name) and not _is_autoviz_name(name)
    }
    marked = {id(m) for m in swap.aliases.values()} | {id(c) for c in swap.classes}
    bound, changed = set(), True
    while changed:  # until no module is found to hold one that is bound
        changed = False
        for name, module in new.items():
            if name not in bound and _holds(module, marked, bound):
                bound.add(name)
                marked.add(id(module))
                changed = True
    return sorted(bound)


def _holds(module, marked: set, bound: set) -> bool:
    for value in list(getattr(module, "__dict__", {}).values()):
        if id(value) in marked:
            return True
        try:
            owner = value.__module__ if not isinstance(value, types.ModuleType) else None
        except Exception:  # an object whose attributes raise holds nothing
            continue
        if isinstance(owner, str) and (_is_autoviz_name(owner) or owner in bound):
            return True
    return False


_LOCK = threading.RLock()
_SWAP = None  # the swap in force, or None


def _is_autoviz_name(name: str) -> bool:
    return name == "autoviz" or name.startswith("autoviz.")


def _is_torch_name(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")
