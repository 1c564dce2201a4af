"""Module hooks: forward pre-hooks, forward hooks and full backward hooks, run as PyTorch runs
them (a backward hook sees the gradients at the module's inputs and outputs, caught by identity
nodes named BackwardHookFunctionBackward, as in torch's graph)."""

import itertools
import warnings

from ..engine.function import Function
from ..engine.grad_mode import is_grad_enabled
from ..engine.tensor import Tensor
from ..errors import NotInAutoviz

_ids = itertools.count()


class RemovableHandle:
    """What `register_*_hook` returns: `handle.remove()` takes the hook off again."""

    def __init__(self, hooks: dict) -> None:
        self.hooks_dict_ref = hooks
        self.id = next(_ids)

    def remove(self) -> None:
        self.hooks_dict_ref.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def add_hook(hooks: dict, hook, prepend: bool = False) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks_items = list(hooks.items())
        hooks.clear()
        hooks.update([hooks_items[-1], *hooks_items[:-1]])
    return handle


# Hooks for every module (torch.nn.modules.module.register_module_forward_hook and its
# pre-hook twin), run before each module's own, as torch runs them.
GLOBAL_PRE, GLOBAL_POST, GLOBAL_WITH_KWARGS, GLOBAL_ALWAYS = {}, {}, {}, {}


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """`hook(module, args)` before the forward of every module; it may return new args."""
    return add_hook(GLOBAL_PRE, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """`hook(module, args, output)` after the forward of every module (`hook(module, args,
    kwargs, output)` with with_kwargs); it may return a new output."""
    handle = add_hook(GLOBAL_POST, hook)
    if with_kwargs:
        GLOBAL_WITH_KWARGS[handle.id] = True
    if always_call:
        GLOBAL_ALWAYS[handle.id] = True
    return handle


def run_pre_hooks(module, args: tuple, kwargs: dict) -> tuple:
    """Each pre-hook may return new inputs (one value or a tuple; with_kwargs, new (args,
    kwargs)). Returns (args, kwargs)."""
    with_kwargs = getattr(module, "_forward_pre_hooks_with_kwargs", {})
    for key, hook in [*GLOBAL_PRE.items(), *module._forward_pre_hooks.items()]:
        if key in with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(
                        "forward pre-hook must return None or a tuple of (new_args, new_kwargs),"
                        f" but got {result}."
                    )
                args, kwargs = result
            continue
        result = hook(module, args)
        if result is not None:
            args = result if isinstance(result, tuple) else (result,)
    return args, kwargs


def run_forward_hooks(module, args: tuple, kwargs: dict, output):
    """Each forward hook may return a new output (with_kwargs: it is given kwargs too)."""
    with_kwargs = {**GLOBAL_WITH_KWARGS, **getattr(module, "_forward_hooks_with_kwargs", {})}
    for key, hook in [*GLOBAL_POST.items(), *module._forward_hooks.items()]:
        result = (
            hook(module, args, kwargs, output) if key in with_kwargs else hook(module, args, output)
        )
        if result is not None:
            output = result
    return output


def run_always_called(module, args: tuple, kwargs: dict) -> None:
    """After forward raised: the hooks registered with always_call=True, given output None
    (an error of theirs is a warning, so forward's own error is the one raised)."""
    always = {**GLOBAL_ALWAYS, **getattr(module, "_forward_hooks_always_called", {})}
    with_kwargs = {**GLOBAL_WITH_KWARGS, **getattr(module, "_forward_hooks_with_kwargs", {})}
    for key, hook in [*GLOBAL_POST.items(), *module._forward_hooks.items()]:
        if key not in always:
            continue
        try:
            hook(module, args, kwargs, None) if key in with_kwargs else hook(module, args, None)
        except Exception as error:  # forward's own error is the one to raise
            warnings.warn(
                "module forward hook with ``always_call=True`` raised an exception that was "
                f"silenced as another error was raised in forward: {error}",
                stacklevel=4,
            )


BOTH_KINDS = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. Please "
    "use only one of them."
)
_NON_FULL = "Using a non-full backward hook when "
_MISSING = " is deprecated and will be removed in future versions. This hook will be missing some "


def hook_output_node(module, args: tuple, output) -> None:
    """register_backward_hook's hooks, on the grad_fn of the output's first tensor, with
    torch's warning of what such a hook misses."""
    first = output
    while not isinstance(first, Tensor):
        first = (
            next(v for v in first.values() if isinstance(v, Tensor))
            if isinstance(first, dict)
            else first[0]
        )
    node = first.grad_fn
    if node is None:
        return
    for hook in list(module._non_full_backward_hooks.values()):
        node.register_hook(
            lambda grad_input, grad_output, hook=hook: hook(module, grad_input, grad_output)
        )
    _warn_non_full(args, output, node)


def _warn_non_full(inputs: tuple, output, node) -> None:
    results = (output,) if isinstance(output, Tensor) else output
    if not (isinstance(results, tuple) and all(isinstance(r, Tensor) for r in results)):
        return _future(
            "Using non-full backward hooks on a Module that does not return a single "
            "Tensor or a tuple of Tensors is deprecated and will be removed in future "
            "versions. This hook will be missing some of the grad_output. Please use "
            "register_full_backward_hook to get the documented behavior."
        )
    if not all(isinstance(i, Tensor) for i in inputs):
        return _future(
            "Using non-full backward hooks on a Module that does not take as input a "
            "single Tensor or a tuple of Tensors is deprecated and will be removed in "
            "future versions. This hook will be missing some of the grad_input. Please "
            "use register_full_backward_hook to get the documented behavior."
        )
    made_by = {r.grad_fn for r in results if r.grad_fn is not None}
    if not made_by or (len(made_by) == 1 and node not in made_by):
        return _future(
            f"{_NON_FULL}outputs are nested in python data structure{_MISSING}grad_output."
        )
    if len(made_by) > 1:
        return _future(
            f"{_NON_FULL}outputs are generated by different autograd Nodes{_MISSING}"
            "grad_output. Please use register_full_backward_hook to get the "
            "documented behavior."
        )
    before = {i.grad_fn for i in inputs if i.grad_fn is not None}
    if before != {fn for fn, _ in node.next_functions}:
        _future(
            f"{_NON_FULL}the forward contains multiple autograd Nodes{_MISSING}grad_input. "
            "Please use register_full_backward_hook to get the documented behavior."
        )
    return None


def _future(message: str) -> None:
    warnings.warn(message, FutureWarning, stacklevel=5)


class BackwardHookFunction(Function):
    """Identity in forward; in backward it hands the gradient passing through to the hook
    `catch` set on its node (the node alone holds it: it is no input of the graph)."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        replaced = ctx.catch(grad)
        return grad if replaced is None else replaced


def _caught(tensor, catch):
    """tensor passed through a BackwardHookFunction whose node calls catch(grad)."""
    out = BackwardHookFunction.apply(tensor)
    out.grad_fn.catch = catch
    return out


class BackwardHook:
    """One forward call's full backward hooks: gradients at the outputs are kept until the
    gradient at the input arrives, then the hooks see both."""

    def __init__(self, module) -> None:
        self.module = module
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_index = None
        self.outputs = ()

    def setup_inputs(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        tracked = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        if not tracked or not is_grad_enabled():
            return args
        if len(tracked) > 1:
            raise NotInAutoviz(
                "register_full_backward_hook on a module called with several tensors that "
                "require grad is not in autoviz yet"
            )
        self.input_index = tracked[0]
        args = list(args)
        args[self.input_index] = _caught(args[self.input_index], self._input)
        return tuple(args)

    def setup_outputs(self, output):
        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        self.outputs = [isinstance(o, Tensor) and o.requires_grad for o in outputs]
        if not any(self.outputs) or not is_grad_enabled():
            return output
        wrapped = tuple(
            _caught(o, self._output_catcher(i)) if tracks else o
            for i, (o, tracks) in enumerate(zip(outputs, self.outputs, strict=True))
        )
        return wrapped[0] if single else wrapped

    def _output_catcher(self, index: int):
        def catch(grad):
            if self.grad_outputs is None:
                self.grad_outputs = [None] * len(self.outputs)
            self.grad_outputs[index] = grad
            replaced = self._pre_hooks(index) if self.module._backward_pre_hooks else None
            if self.input_index is None and all(
                g is not None for g, t in zip(self.grad_outputs, self.outputs, strict=True) if t
            ):
                self._call_without_input()
            return replaced

        return catch

    def _pre_hooks(self, index: int):
        """The full backward pre-hooks on the output's gradient, which they may replace."""
        if sum(self.outputs) > 1:
            raise NotInAutoviz(
                "register_full_backward_pre_hook on a module with several outputs that require "
                "grad is not in autoviz yet"
            )
        for hook in list(self.module._backward_pre_hooks.values()):
            result = hook(self.module, tuple(self.grad_outputs))
            if result is None:
                continue
            if len(result) != len(self.grad_outputs):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, got "
                    f"{len(result)}, but expected {len(self.grad_outputs)}"
                )
            self.grad_outputs = list(result)
        return self.grad_outputs[index]

    def _call_without_input(self) -> None:
        warnings.warn(
            "Full backward hook is firing when gradients are computed with respect to module "
            "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
            "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
            "more details.",
            UserWarning,
            stacklevel=2,
        )
        if not self.module._backward_hooks:  # pre-hooks alone (torch warns all the same)
            self.grad_outputs = None
            return
        grad_input = (None,) * self.n_inputs
        for hook in list(self.module._backward_hooks.values()):
            result = hook(self.module, grad_input, tuple(self.grad_outputs))
            if result is not None and not all(r is None for r in result):
                raise RuntimeError(
                    "Backward hook for Modules where no input requires gradient should always "
                    "return None or None for all gradients."
                )
        self.grad_outputs = None

    def _input(self, grad):
        if self.grad_outputs is None:
            return None
        grad_input = tuple(grad if i == self.input_index else None for i in range(self.n_inputs))
        for hook in list(self.module._backward_hooks.values()):
            result = hook(self.module, grad_input, tuple(self.grad_outputs))
            if result is None:
                continue
            if len(result) != len(grad_input):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, got "
                    f"{len(result)}, but expected {len(grad_input)}"
                )
            grad_input = tuple(result)
        self.grad_outputs = None
        return grad_input[self.input_index]
