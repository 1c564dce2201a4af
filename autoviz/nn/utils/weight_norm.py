"""The older, hook-based weight normalisation (torch.nn.utils.weight_norm's module)."""

import warnings

from ..parameter import Parameter
from .parametrizations import norm_except_dim


class Reparam:
    """A forward pre-hook that recomputes module.<name> from its parts before each forward."""

    def __init__(self, name, compute) -> None:
        self.name, self.compute = name, compute

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute(module))


def undo_reparam(module, name, hook, kind, parameters=(), buffers=()):
    """Removes a hook-based reparametrisation: module.<name> becomes a plain parameter again
    (its current value) and the parts it was made of go."""
    handle = module.__dict__.pop(hook, None)
    if handle is None:
        raise ValueError(f"{kind} of '{name}' not found in {module}")
    handle.remove()
    weight = getattr(module, name).detach()
    for part in parameters:
        del module._parameters[name + part]
    for part in buffers:
        del module._buffers[name + part]
    module.__dict__.pop(name, None)
    module.register_parameter(name, Parameter(weight))
    return module


def weight_norm(module, name="weight", dim=0):
    """w = g · v / ‖v‖, with name_g and name_v the learnt parameters."""
    warnings.warn(
        "`torch.nn.utils.weight_norm` is deprecated in favor of "
        "`torch.nn.utils.parametrizations.weight_norm`.",
        FutureWarning,
        stacklevel=2,
    )
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, dim).detach()))
    module.register_parameter(name + "_v", Parameter(weight.detach()))

    def compute(m):
        v, g = getattr(m, name + "_v"), getattr(m, name + "_g")
        return v * (g / norm_except_dim(v, dim))

    hook = Reparam(name, compute)
    setattr(module, name, compute(module))
    module._weight_norm_hook = module.register_forward_pre_hook(hook)
    return module


def remove_weight_norm(module, name="weight"):
    return undo_reparam(module, name, "_weight_norm_hook", "weight_norm", ("_g", "_v"))
