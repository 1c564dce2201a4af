"""A module's state_dict and load_state_dict, with their hooks and extra state, in PyTorch's
order: pre-hooks, the module's own entries, its children's, post-hooks."""

from collections import OrderedDict, namedtuple

import numpy as np

from ...engine.tensor import Size, Tensor
from ..parameter import Parameter

EXTRA_STATE = "_extra_state"
_POST_HOOK_RETURNED = (
    "Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return "
    "new values, if incompatible_keys need to be modified, it should be done inplace."
)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the keys the model has and the file lacks, and the rest."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _overrides(module, method: str) -> bool:
    """Whether the module's class has its own get_extra_state or set_extra_state."""
    from .module import Module

    return getattr(type(module), method) is not getattr(Module, method)


def save(module, destination, prefix: str, keep_vars: bool):
    """Fill `destination` with the parameters, persistent buffers and extra state of `module`
    and its children, running its state-dict hooks."""
    for hook in module._state_dict_pre_hooks.values():
        hook(module, prefix, keep_vars)
    for name, param in module._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buf in module._buffers.items():
        if buf is not None and name not in module._non_persistent_buffers:
            destination[prefix + name] = buf if keep_vars else buf.detach()
    if _overrides(module, "get_extra_state"):
        destination[prefix + EXTRA_STATE] = module.get_extra_state()
    for name, child in module._modules.items():
        if child is not None:
            save(child, destination, prefix + name + ".", keep_vars)
    metadata = {"version": getattr(module, "_version", 1)}
    for hook in module._state_dict_hooks.values():
        if hook(module, destination, prefix, metadata) is not None:
            raise RuntimeError("state_dict post-hook must return None")
    return destination


def load(module, state_dict, strict: bool, assign: bool) -> "_IncompatibleKeys":
    """Copy the values of `state_dict` into the model (assign: take its tensors themselves);
    PyTorch's error, listing every mismatch, when strict and any key is missing or extra."""
    state_dict = OrderedDict(state_dict)  # pre-hooks may edit it; the caller's stays as it was
    missing, unexpected, errors = [], [], []
    _load(module, state_dict, "", assign, (missing, unexpected, errors))
    incompatible = _IncompatibleKeys(missing, unexpected)
    for _, sub in module.named_modules():
        for hook in sub._load_state_dict_post_hooks.values():
            if hook(sub, incompatible) is not None:
                raise AssertionError(_POST_HOOK_RETURNED)
    if strict:
        if incompatible.unexpected_keys:
            keys = _quoted(incompatible.unexpected_keys)
            errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
        if incompatible.missing_keys:
            keys = _quoted(incompatible.missing_keys)
            errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
    if errors:
        raise RuntimeError(
            f"Error(s) in loading state_dict for {type(module).__name__}:\n\t" + "\n\t".join(errors)
        )
    return incompatible


def _load(module, state_dict, prefix: str, assign: bool, found) -> None:
    """Load one module's entries, then its children's; every missing and unexpected key is
    listed whatever `strict` says (torch's loader is strict inside, and only raises when
    asked)."""
    missing, unexpected, errors = found
    metadata = {"version": getattr(module, "_version", 1)}
    for hook in module._load_state_dict_pre_hooks.values():
        hook(module, state_dict, prefix, metadata, True, missing, unexpected, errors)
    own = {**module._parameters, **module._buffers}
    own = {
        k: v for k, v in own.items() if v is not None and k not in module._non_persistent_buffers
    }
    for name, target in own.items():
        key = prefix + name
        if key not in state_dict:
            missing.append(key)
            continue
        wrong = _copy_into(key, target, state_dict[key], copy=not assign)
        errors += wrong
        if assign and not wrong:
            _assign(module, name, target, state_dict[key])
    extra = prefix + EXTRA_STATE
    if _overrides(module, "set_extra_state"):
        if extra in state_dict:
            module.set_extra_state(state_dict[extra])
        else:
            missing.append(extra)
    elif extra in state_dict:
        unexpected.append(extra)
    for key in state_dict:
        if key.startswith(prefix) and key != extra:
            first, *rest = key[len(prefix) :].split(".", 1)
            if (first not in module._modules) if rest else (first not in own):
                unexpected.append(key)
    for name, child in module._modules.items():
        if child is not None:
            _load(child, state_dict, prefix + name + ".", assign, found)


def _assign(owner, name: str, target, value) -> None:
    """load_state_dict(assign=True): the state dict's tensor in place of `target`."""
    if isinstance(target, Parameter) and not isinstance(value, Parameter):
        value = Parameter(value, requires_grad=target.requires_grad)
    elif isinstance(target, Parameter):
        value.requires_grad_(target.requires_grad)
    setattr(owner, name, value)


def _quoted(keys) -> str:
    return ", ".join(f'"{k}"' for k in keys)


def _copy_into(key: str, target, value, copy: bool = True) -> list:
    """Copy `value` into `target`'s storage (or only check, without `copy`); an error message
    (as a list) on a shape mismatch."""
    data = value._data if isinstance(value, Tensor) else np.asarray(value)
    if np.shape(data) != tuple(target.shape):
        return [
            f"size mismatch for {key}: copying a param with shape {Size(np.shape(data))!r} from "
            f"checkpoint, the shape in current model is {target.shape!r}."
        ]
    if copy:
        target._storage()[...] = data
    return []
