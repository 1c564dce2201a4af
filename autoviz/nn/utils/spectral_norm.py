"""The older, hook-based spectral normalisation (torch.nn.utils.spectral_norm's module): u and
v drawn at registration, one power iteration (v, then u) per training forward, the weight
left as it was until the first forward."""

from ...engine import no_grad
from ...engine.ops.normalization import normalize
from .weight_norm import undo_reparam


class SpectralNorm:
    """The forward pre-hook: module.<name> = name_orig / σ, σ = uᵀ W v."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12) -> None:
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.name, self.dim, self.eps = name, dim, eps
        self.n_power_iterations = n_power_iterations

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration: bool):
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(normalize(mat.t().mv(u), dim=0, eps=self.eps))
                    u.copy_(normalize(mat.mv(v), dim=0, eps=self.eps))
            u, v = u.clone(), v.clone()
        return weight / u.dot(mat.mv(v))

    def __call__(self, module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """w / σ(w) recomputed before each forward; name_orig is the learnt parameter."""
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    weight = module._parameters[name]
    with no_grad():
        h, w = fn.reshape_weight_to_matrix(weight).shape
        u = normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=eps)
        v = normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=eps)
    del module._parameters[name]
    module.register_parameter(name + "_orig", weight)
    setattr(module, name, weight.detach())
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    module._spectral_norm_hook = module.register_forward_pre_hook(fn)
    return module


def remove_spectral_norm(module, name="weight"):
    """Back to a plain parameter: the weight as the last u and v give it, without iterating."""
    hook = module.__dict__.get("_spectral_norm_hook")
    if hook is not None:
        fn = module._forward_pre_hooks[hook.id]
        with no_grad():
            setattr(module, name, fn.compute_weight(module, do_power_iteration=False))
    return undo_reparam(
        module, name, "_spectral_norm_hook", "spectral_norm", ("_orig",), ("_u", "_v")
    )
