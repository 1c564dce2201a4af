"""Parametrizations: a module's tensor computed from another on every access
(`register_parametrization(model, "weight", Symmetric())`), as torch.nn.utils.parametrize."""

import contextlib

from ..modules.container import ModuleDict, ModuleList
from ..parameter import Parameter

_cache = {"enabled": False, "values": {}}


@contextlib.contextmanager
def cached():
    """Within it, each parametrized tensor is computed once and reused."""
    _cache["enabled"] = True
    try:
        yield
    finally:
        _cache["enabled"] = False
        _cache["values"].clear()


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order to `original`."""

    def __init__(self, modules, original, unsafe=False) -> None:
        super().__init__(modules)
        self.unsafe = unsafe
        first = modules[0]
        value = original
        if hasattr(first, "right_inverse"):
            value = first.right_inverse(original.detach())
        if isinstance(value, tuple):
            for i, part in enumerate(value):
                setattr(self, f"original{i}", Parameter(part.detach(), original.requires_grad))
            self.is_tensor = False
            self.ntensors = len(value)
        else:
            data = value.detach() if value is not original else original.detach()
            self.original = Parameter(data, original.requires_grad)
            self.is_tensor, self.ntensors = True, 1

    def right_inverse(self, value) -> None:
        """Set the originals so that the parametrized tensor is `value`."""
        for module in reversed(list(self)):
            if hasattr(module, "right_inverse"):
                value = module.right_inverse(value)
        if self.is_tensor:
            self.original._storage()[...] = value._data
        else:
            for i, part in enumerate(value):
                getattr(self, f"original{i}")._storage()[...] = part._data

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _parametrized_class(module):
    cls = type(module)
    if getattr(cls, "_is_parametrized", False):
        return cls
    return type(
        f"Parametrized{cls.__name__}",
        (cls,),
        {"_is_parametrized": True, "__module__": cls.__module__},
    )


def _property(name):
    def get(self):
        key = (id(self), name)
        if _cache["enabled"] and key in _cache["values"]:
            return _cache["values"][key]
        value = self.parametrizations[name]()
        if _cache["enabled"]:
            _cache["values"][key] = value
        return value

    def set_(self, value):
        self.parametrizations[name].right_inverse(value)

    return property(get, set_)


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Replace module.<tensor_name> by parametrization(original): the original is kept as
    module.parametrizations.<tensor_name>.original."""
    if is_parametrized(module, tensor_name):
        module.parametrizations[tensor_name].append(parametrization)
        return module
    if tensor_name not in module._parameters and tensor_name not in module._buffers:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a parametrized "
            f"element with name '{tensor_name}'"
        )
    original = getattr(module, tensor_name)
    plist = ParametrizationList([parametrization], original, unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        module.__class__ = _parametrized_class(module)
        module.parametrizations = ModuleDict()
    module.parametrizations[tensor_name] = plist
    setattr(type(module), tensor_name, _property(tensor_name))
    return module


def is_parametrized(module, tensor_name=None) -> bool:
    plists = module.__dict__.get("_modules", {}).get("parametrizations")
    if plists is None:
        return False
    return tensor_name is None or tensor_name in plists


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undo register_parametrization: the tensor becomes a parameter again, with its current
    parametrized value (leave_parametrized=True) or its original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    value = Parameter(plist().detach(), True) if leave_parametrized else plist.original
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    setattr(module, tensor_name, value)
    if not len(module.parametrizations):
        del module._modules["parametrizations"]
        module.__class__ = type(module).__mro__[1]
    return module


def type_before_parametrizations(module):
    cls = type(module)
    return cls.__mro__[1] if getattr(cls, "_is_parametrized", False) else cls


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    names = [tensor_name] if tensor_name else list(from_module.parametrizations)
    for name in names:
        for p in from_module.parametrizations[name]:
            register_parametrization(to_module, name, p)
    return to_module


__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]
