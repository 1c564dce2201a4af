"""The older, hook-based spectral normalisation (torch.nn.utils.spectral_norm's module)."""

from ..parameter import Parameter
from .parametrizations import _SpectralNorm
from .weight_norm import Reparam


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """w / σ(w) recomputed before each forward; name_orig is the learnt parameter."""
    weight = getattr(module, name)
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    norm = _SpectralNorm(weight, n_power_iterations, dim, eps)
    del module._parameters[name]
    module.register_parameter(name + "_orig", Parameter(weight.detach()))
    module.register_buffer(name + "_u", norm._u)
    module.register_buffer(name + "_v", norm._v)

    def compute(m):
        norm.training = m.training
        return norm(getattr(m, name + "_orig"))

    setattr(module, name, compute(module))
    module._spectral_norm_hook = module.register_forward_pre_hook(Reparam(name, compute))
    return module


def remove_spectral_norm(module, name="weight"):
    handle = module.__dict__.pop("_spectral_norm_hook", None)
    if handle is None:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    handle.remove()
    weight = getattr(module, name).detach()
    del module._parameters[name + "_orig"]
    for part in ("_u", "_v"):
        del module._buffers[name + part]
    module.__dict__.pop(name, None)
    module.register_parameter(name, Parameter(weight))
    return module
