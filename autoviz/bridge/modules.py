"""Which nn.Modules enclose a node, as paths named_modules() gives from the caller's variables."""

import torch


class ModuleMap:
    """Paths ("net.0") of the modules the variables in `namespace` hold, and their parameters."""

    def __init__(self, namespace: dict) -> None:
        roots = [
            (name, value)
            for name, value in namespace.items()
            if isinstance(value, torch.nn.Module) and not name.startswith("_")
        ]
        # A variable holding a submodule (layer = net[0]) is named through its outermost root.
        inner = {id(sub) for _, root in roots for sub in list(root.modules())[1:]}
        roots.sort(key=lambda item: id(item[1]) in inner)
        self.paths, self.by_path, self.owner = {}, {}, {}
        self.param_names = {}  # id(parameter) -> "net.0.weight", as named_parameters() has it
        for name, root in roots:
            for path, sub in root.named_modules(prefix=name):
                if id(sub) not in self.paths:
                    self.paths[id(sub)], self.by_path[path] = path, sub
                for param_name, param in sub.named_parameters(prefix=path, recurse=False):
                    if id(param) not in self.owner:
                        self.owner[id(param)] = sub
                        self.param_names[id(param)] = param_name
        self.unnamed = {}  # id(module) -> (made-up path, module) for modules no variable holds

    def path(self, module) -> str:
        known = self.paths.get(id(module))
        if known is not None:
            return known
        if id(module) not in self.unnamed:
            number = 1 + sum(type(m) is type(module) for _, m in self.unnamed.values())
            self.unnamed[id(module)] = (f"{type(module).__name__}#{number}", module)
        return self.unnamed[id(module)][0]

    def chain(self, module) -> list:
        """[[path, type]] of `module` and every module enclosing it, outermost first."""
        path = self.paths.get(id(module))
        if path is None:
            return [[self.path(module), type(module).__name__]]
        parts = path.split(".")
        prefixes = (".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return [[p, type(self.by_path[p]).__name__] for p in prefixes if p in self.by_path]

    def of_stack(self, stack) -> list:
        """The chain of the innermost module running when an op ran (from forward hooks)."""
        if not stack:
            return []
        if id(stack[-1]) in self.paths:
            return self.chain(stack[-1])
        return [[self.path(m), type(m).__name__] for m in stack]

    def of_parameter(self, key: int) -> list:
        """The chain of the module owning the parameter whose id() is `key`."""
        owner = self.owner.get(key)
        return self.chain(owner) if owner is not None else []

    def of_op(self, fn) -> list:
        """An op that takes parameters directly belongs to their module (shared part if several)."""
        chains = [
            self.of_parameter(id(child.variable))
            for child, _ in fn.next_functions
            if child is not None and hasattr(child, "variable")
        ]
        return common_chain([c for c in chains if c])


def common_chain(chains: list) -> list:
    """The enclosing modules every chain shares, outermost first ([] for none)."""
    if not chains:
        return []
    common = chains[0]
    for other in chains[1:]:
        length = 0
        while length < min(len(common), len(other)) and common[length] == other[length]:
            length += 1
        common = common[:length]
    return common
