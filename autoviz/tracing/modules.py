"""Which nn.Modules an op ran in, as dotted paths named from the caller's variables."""

import sys


class ModuleNames:
    """Paths of modules (`net.0`) from the roots a namespace holds; type names otherwise."""

    def __init__(self, namespace: dict) -> None:
        self.paths = {}  # id(module) -> dotted path
        self.types = {}  # dotted path -> module type name
        self.owner = {}  # id(parameter) -> path of the module that owns it
        self.param_names = {}  # id(parameter) -> its dotted name, `net.0.weight`
        self._chains = {}  # tuple of running modules -> [[path, type], ...]
        module_cls = _module_class()
        if module_cls is None:  # nn never imported: no module can have run
            return
        roots = [
            (name, value)
            for name, value in namespace.items()
            if not name.startswith("_") and isinstance(value, module_cls)
        ]
        # Whole models first: a layer also held by a variable keeps its path inside the model.
        roots.sort(key=lambda item: -sum(1 for _ in item[1].modules()))
        for name, root in roots:
            self._add_root(name, root)

    def _add_root(self, prefix: str, root) -> None:
        for path, module in root.named_modules(prefix=prefix):
            if id(module) in self.paths:
                continue
            self.paths[id(module)] = path
            self.types[path] = type(module).__name__
            for attr, param in module._parameters.items():
                if param is not None and id(param) not in self.owner:
                    self.owner[id(param)] = path
                    self.param_names[id(param)] = f"{path}.{attr}"

    def _path(self, module) -> str:
        """A module's path; one no variable reaches is named by its type (`Linear`, `Linear_2`)."""
        path = self.paths.get(id(module))
        if path is None:
            base = type(module).__name__
            path, n = base, 1
            while path in self.types:
                n += 1
                path = f"{base}_{n}"
            self._add_root(path, module)
        return path

    def of_op(self, fn) -> list:
        """[[path, type], ...] for the modules running when `fn` was recorded, outermost first."""
        return self.of_running(getattr(fn, "_modules", ()))

    def of_running(self, running: tuple) -> list:
        """[[path, type], ...] for a tuple of running modules, outermost first."""
        if not running:
            return []
        chain = self._chains.get(running)
        if chain is None:
            paths = [self._path(m) for m in running]
            chain = self._chains[running] = [[p, self.types[p]] for p in paths]
        return [list(pair) for pair in chain]

    def of_parameter(self, tensor) -> list:
        """The chain of the module owning `tensor` (a parameter), or [] for other tensors."""
        path = self.owner.get(id(tensor))
        if path is None:
            return []
        parts = path.split(".")
        prefixes = [".".join(parts[: i + 1]) for i in range(len(parts))]
        return [[p, self.types[p]] for p in prefixes if p in self.types]


def _module_class():
    """nn.Module if autoviz.nn was imported (it loads on first use), else None."""
    loaded = sys.modules.get("autoviz.nn.modules.module")
    return loaded.Module if loaded is not None else None
