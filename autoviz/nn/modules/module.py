"""`nn.Module`: the base class that finds a model's parameters and submodules by attribute."""

from collections import OrderedDict
from typing import Any, TypeVar

import numpy as np

from ...engine.backward import zero_grads
from ...engine.creation import empty_like
from ...engine.device import NO_CUDA, check_device
from ...engine.dtypes import dtype as _dtype
from ...engine.function import module_stack
from ...engine.tensor import Tensor
from .. import hooks
from ..hooks import register_module_forward_hook, register_module_forward_pre_hook  # noqa: F401
from ..parameter import Buffer, Parameter
from . import state_dict as _state

_TENSOR_TYPES = {
    "float16": "torch.HalfTensor",
    "float32": "torch.FloatTensor",
    "float64": "torch.DoubleTensor",
    "int32": "torch.IntTensor",
    "int64": "torch.LongTensor",
    "uint8": "torch.ByteTensor",
    "bool": "torch.BoolTensor",
}


def _type_name(value) -> str:
    """How PyTorch names a value's type in its assignment errors."""
    if isinstance(value, Tensor):
        return _TENSOR_TYPES.get(value._data.dtype.name, "torch.Tensor")
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


def _indent(text: str) -> str:
    """Indent every line but the first by two spaces, for a child's repr inside its parent."""
    return text.replace("\n", "\n  ")


_STATE_HOOKS = (
    "_state_dict_pre_hooks",
    "_state_dict_hooks",
    "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks",
)


class Module:
    """Base class of layers and models: Parameters and Modules set as attributes are registered."""

    T_destination = TypeVar("T_destination", bound=dict[str, Any])
    dump_patches = False
    call_super_init = False
    _version = 1  # a state_dict's metadata: the format of this class's entries

    def __init__(self) -> None:
        # object.__setattr__: our own __setattr__ needs these dicts to exist already.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_pre_hooks", {})
        object.__setattr__(self, "_forward_hooks", {})
        object.__setattr__(self, "_backward_hooks", {})
        object.__setattr__(self, "_backward_pre_hooks", {})
        object.__setattr__(self, "_non_full_backward_hooks", {})  # register_backward_hook's
        # the ids of the hooks registered with_kwargs=True, which get forward's kwargs too
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", {})
        object.__setattr__(self, "_forward_hooks_with_kwargs", {})
        object.__setattr__(self, "_forward_hooks_always_called", {})
        for store in _STATE_HOOKS:
            object.__setattr__(self, store, {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args, **kwargs):
        # Ops recorded during forward remember the modules running, for grouped diagrams.
        stack = module_stack
        stack.append(stack[-1] + (self,) if stack else (self,))
        try:
            if (
                self._forward_pre_hooks
                or self._forward_hooks
                or hooks.GLOBAL_PRE
                or hooks.GLOBAL_POST
                or self._backward_hooks
                or self._backward_pre_hooks
                or self._non_full_backward_hooks
            ):
                return self._call_with_hooks(args, kwargs)
            return self.forward(*args, **kwargs)
        finally:
            stack.pop()

    def _call_with_hooks(self, args, kwargs):
        """forward between the hooks, in PyTorch's order: pre-hooks, forward, forward hooks."""
        args, kwargs = hooks.run_pre_hooks(self, args, kwargs)
        backward = (
            hooks.BackwardHook(self) if self._backward_hooks or self._backward_pre_hooks else None
        )
        if backward is not None:
            args = backward.setup_inputs(args)
        try:
            result = self.forward(*args, **kwargs)
        except Exception:
            hooks.run_always_called(self, args, kwargs)
            raise
        output = hooks.run_forward_hooks(self, args, kwargs, result)
        if self._non_full_backward_hooks:
            hooks.hook_output_node(self, args, output)
        return backward.setup_outputs(output) if backward is not None else output

    # -- hooks -------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call `hook(module, args)` before each forward; it may return new args. With
        with_kwargs, `hook(module, args, kwargs)`, which may return new (args, kwargs)."""
        handle = hooks.add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Call `hook(module, args, output)` after each forward (`hook(module, args, kwargs,
        output)` with with_kwargs); it may return a new output. always_call: also when forward
        raised."""
        handle = hooks.add_hook(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """Call `hook(module, grad_input, grad_output)` once backward has reached this module's
        input; it may return a new grad_input."""
        if self._non_full_backward_hooks:
            raise RuntimeError(hooks.BOTH_KINDS)
        return hooks.add_hook(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The deprecated hook: `hook(module, grad_input, grad_output)` on the node that made the
        module's output, its grad_input that node's (torch warns it misses the rest)."""
        if self._backward_hooks or self._backward_pre_hooks:
            raise RuntimeError(hooks.BOTH_KINDS)
        return hooks.add_hook(self._non_full_backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Call `hook(module, grad_output)` when the gradient at this module's output arrives,
        before it flows into the module; it may return a new grad_output."""
        return hooks.add_hook(self._backward_pre_hooks, hook, prepend)

    # -- registration ------------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            params[name] = value
        elif isinstance(value, Buffer):
            if buffers is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self.register_buffer(name, value, value.persistent)
        elif params is not None and name in params:
            self._check_none(value, "parameter", name, "torch.nn.Parameter")
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif modules is not None and name in modules:
            self._check_none(value, "child module", name, "torch.nn.Module")
            modules[name] = None
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                self._check_none(value, "buffer", name, "torch.Tensor")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _check_name(self, name, kind: str, store) -> None:
        """torch's checks of a name given to register_parameter or register_buffer."""
        if store is None:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_type_name(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in store:
            raise KeyError(f"attribute '{name}' already exists")

    @staticmethod
    def _check_none(value, kind: str, name: str, expected: str) -> None:
        if value is not None:
            raise TypeError(
                f"cannot assign '{_type_name(value)}' as {kind} '{name}' ({expected} or None "
                "expected)"
            )

    def _forget(self, name: str, keep: dict) -> None:
        """Drop `name` from every other store, so an attribute lives in one place only."""
        self.__dict__.pop(name, None)
        for store in (self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)

    def __getattr__(self, name: str):
        # Only reached when normal lookup fails: registered things live in the dicts.
        for store in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(store)
            if found is not None and name in found:
                return found[name]
        from ...torchnames import missing

        raise missing(
            "torch.nn.Module", name, f"'{type(self).__name__}' object has no attribute '{name}'"
        )

    def __delattr__(self, name: str) -> None:
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        extra = set(self._parameters) | set(self._buffers) | set(self._modules)
        return sorted(set(object.__dir__(self)) | extra)

    def register_parameter(self, name: str, param) -> None:
        self._check_name(name, "parameter", self.__dict__.get("_parameters"))
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._forget(name, keep=self._parameters)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        self._check_name(name, "buffer", self.__dict__.get("_buffers"))
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._forget(name, keep=self._buffers)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_type_name(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._forget(name, keep=self._modules)
        self._modules[name] = module

    register_module = add_module

    # -- walking the tree ---------------------------------------------------------------------
    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        """(dotted name, module) for this module and every descendant, parents first."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                path = f"{prefix}.{name}" if prefix else name
                yield from child.named_modules(memo, path, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self):
        for _, child in self.named_children():
            yield child

    def _named_members(self, store: str, prefix: str, recurse: bool, remove_duplicate: bool):
        """Each module's own entries of `store`, named by path; shared tensors once."""
        owners = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        seen = set()
        for path, module in owners:
            for name, value in getattr(module, store).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{path}.{name}" if path else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn):
        """Call `fn` on every submodule, then on this module (as `model.apply(init_fn)`)."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ------------------------------------------------------------------
    def train(self, mode: bool = True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients: to None by default, as PyTorch ≥ 2.0 does."""
        zero_grads(list(self.parameters()), set_to_none)

    # -- dtypes -------------------------------------------------------------------------------
    def _cast_floats(self, np_dtype, floats_only: bool = True):
        """Convert every floating parameter and buffer (every one, without floats_only) in
        place, keeping the same objects."""
        for tensor in list(self.parameters()) + list(self.buffers()):
            if tensor._data.dtype.kind == "f" or not floats_only:
                tensor._data = np.asarray(tensor._data, dtype=np_dtype)
                if tensor._grad is not None:
                    tensor._grad._data = np.asarray(tensor._grad._data, dtype=np_dtype)
        return self

    def double(self):
        return self._cast_floats(np.float64)

    def float(self):
        return self._cast_floats(np.float32)

    def half(self):
        """Floating-point parameters and buffers as float16 (numpy's half precision)."""
        return self._cast_floats(np.float16)

    def type(self, dst_type):
        """Every parameter and buffer cast to `dst_type` (a dtype), integer buffers too."""
        return self._cast_floats(dst_type.numpy, floats_only=False)

    def to(self, *args, **kwargs):
        """Only dtypes change anything: the one device autoviz has is the CPU."""
        for arg in (*args, kwargs.get("device")):
            if arg is not None and not isinstance(arg, (_dtype, Tensor, bool)):
                check_device(arg)
        for arg in (*args, kwargs.get("dtype")):
            if isinstance(arg, _dtype) and arg.is_floating_point:
                return self._cast_floats(arg.numpy)
        return self

    def cpu(self):
        return self

    def cuda(self, device=None):
        raise AssertionError(NO_CUDA)

    # -- saving and loading -------------------------------------------------------------------
    def state_dict(self, destination=None, prefix: str = "", keep_vars: bool = False):
        """Parameters, persistent buffers and extra state by dotted name, sharing memory with
        the model."""
        out = OrderedDict() if destination is None else destination
        return _state.save(self, out, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy values into the existing tensors in place (assign=True: take the state dict's
        tensors themselves, parameters keeping their requires_grad); report missing or extra
        keys."""
        return _state.load(self, state_dict, strict, assign)

    def get_extra_state(self):
        """What a subclass adds to its state_dict under `_extra_state` (when it overrides this)."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def set_extra_state(self, state) -> None:
        """Takes back what get_extra_state gave, when a state_dict is loaded."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def register_state_dict_pre_hook(self, hook):
        """`hook(module, prefix, keep_vars)` before state_dict reads this module."""
        return hooks.add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """`hook(module, state_dict, prefix, local_metadata)` after, to edit it in place."""
        return hooks.add_hook(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """`hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)` before this module's entries are loaded."""
        return hooks.add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        """`hook(module, incompatible_keys)` after loading, to edit the key lists in place."""
        return hooks.add_hook(self._load_state_dict_post_hooks, hook)

    def to_empty(self, *, device=None, recurse: bool = True):
        """Parameters and buffers replaced by uninitialised tensors of their shapes."""
        check_device(device)
        for module in self.modules() if recurse else [self]:
            for store in (module._parameters, module._buffers):
                for t in store.values():
                    if t is not None:
                        t.data = empty_like(t)
        return self

    def get_submodule(self, target: str = "") -> "Module":
        """The submodule at a dotted path (`"encoder.0"`); "" is this module."""
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        """Put `module` at a dotted path (strict: only where a submodule is already)."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        path, _, name = target.rpartition(".")
        owner = self.get_submodule(path)
        if strict and not hasattr(owner, name):
            raise AttributeError(f"{owner._get_name()} has no attribute `{name}`")
        if hasattr(owner, name) and not isinstance(getattr(owner, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(owner, name, module)

    def _owner_of(self, target: str):
        """(the submodule holding a dotted path's last name, that name), torch's error when
        it has no such attribute."""
        path, _, name = target.rpartition(".")
        owner = self.get_submodule(path)
        if not hasattr(owner, name):
            raise AttributeError(f"{owner._get_name()} has no attribute `{name}`")
        return owner, name

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path (`"0.weight"`)."""
        owner, name = self._owner_of(target)
        value = getattr(owner, name)
        if not isinstance(value, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return value

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path (`"1.running_mean"`)."""
        owner, name = self._owner_of(target)
        if name not in owner._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return owner._buffers[name]

    # -- printing -----------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text between the parentheses of this module's repr, e.g. `in_features=4, ...`."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): {_indent(repr(m))}" for name, m in self._modules.items()]
        if len(lines) == 1 and not children:
            return f"{self._get_name()}({lines[0]})"
        if not lines and not children:
            return f"{self._get_name()}()"
        return self._get_name() + "(\n  " + "\n  ".join(lines + children) + "\n)"
