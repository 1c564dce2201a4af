"""The Optimizer base: parameter groups, per-parameter state, zero_grad and step."""

import functools
from collections import defaultdict

import numpy as np

from ..engine import events
from ..engine.backward import zero_grads
from ..engine.dtypes import default_float
from ..engine.grad_mode import enable_grad, no_grad
from ..engine.tensor import Tensor, make
from ..nn.hooks import add_hook


def _with_step_hooks(step):
    """`step` between the optimizer's step pre-hooks and post-hooks, as torch runs them."""

    @functools.wraps(step)
    def hooked(self, *args, **kwargs):
        for hook in list(self.__dict__.get("_optimizer_step_pre_hooks", {}).values()):
            result = hook(self, args, kwargs)
            if result is None:
                continue
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(
                    f"{hook} must return None or a tuple of (new_args, new_kwargs), but got "
                    f"{result}."
                )
            args, kwargs = result
        out = step(self, *args, **kwargs)
        for hook in list(self.__dict__.get("_optimizer_step_post_hooks", {}).values()):
            hook(self, args, kwargs)
        return out

    hooked._hooked = True
    return hooked


class Optimizer:
    """Updates parameters in place from their `.grad`; subclasses define `_update`."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_hooked", False):
            cls.step = _with_step_hooks(step)

    def register_step_pre_hook(self, hook):
        """Call `hook(optimizer, args, kwargs)` before each step; it may return new (args,
        kwargs)."""
        return add_hook(self.__dict__.setdefault("_optimizer_step_pre_hooks", {}), hook)

    def register_step_post_hook(self, hook):
        """Call `hook(optimizer, args, kwargs)` after each step."""
        return add_hook(self.__dict__.setdefault("_optimizer_step_post_hooks", {}), hook)

    def __init__(self, params, defaults: dict) -> None:
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_tensor_type(params)}"
            )
        self.defaults = defaults
        self.state = defaultdict(dict)  # keyed by the parameter itself, as in PyTorch
        self.param_groups = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group: dict) -> None:
        group = dict(group)
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        group["params"] = params
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's gradient: to None by default, as PyTorch ≥ 2.0 does."""
        zero_grads([p for group in self.param_groups for p in group["params"]], set_to_none)

    @_with_step_hooks
    def step(self, closure=None):
        """Apply one update to every parameter that has a gradient; returns closure()'s loss."""
        self._stepped = True  # a learning-rate scheduler checks that step() came first
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p._grad is not None:
                        grad = np.asarray(p._grad._data)
                        self._update(p._storage(), grad, group, self.state.setdefault(p, {}))
                        if events.observers:
                            events.on_update(p, self, group)
        return loss

    def _update(self, param: np.ndarray, grad: np.ndarray, group: dict, state: dict) -> None:
        raise NotImplementedError

    # -- saving and loading ------------------------------------------------------------------
    def state_dict(self) -> dict:
        """{"state": {index: per-parameter state}, "param_groups": [options, "params": [indices]]},
        parameters numbered in the order the groups list them, as PyTorch numbers them."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index and s}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Take on the options and per-parameter state of `state_dict` (from state_dict())."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, groups, strict=True):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        self.state = defaultdict(dict)
        for mine, saved in zip(self.param_groups, groups, strict=True):
            for p, i in zip(mine["params"], saved["params"], strict=True):
                if i in state_dict["state"]:
                    self.state[p] = {k: _copied(v, p) for k, v in state_dict["state"][i].items()}
            mine.update({k: v for k, v in saved.items() if k != "params"})

    def __repr__(self) -> str:
        blocks = []
        for i, group in enumerate(self.param_groups):
            options = [f"    {k}: {group[k]}" for k in sorted(group) if k != "params"]
            blocks.append("\n".join([f"Parameter Group {i}", *options]))
        return f"{type(self).__name__} (\n" + "\n\n".join(blocks) + "\n)"


def _tensor_type(t) -> str:
    names = {"float32": "Float", "float64": "Double", "int64": "Long"}
    return f"torch.{names.get(t._data.dtype.name, '')}Tensor"


def check_non_negative(name: str, value) -> None:
    """PyTorch's message for a negative hyperparameter, e.g. `Invalid learning rate: -1`."""
    if value < 0:
        raise ValueError(f"Invalid {name}: {value}")


def scalar_dtype() -> np.dtype:
    """The dtype of an optimizer's scalar state (its step): float64 under a float64 default,
    else float32, as torch's _get_scalar_dtype."""
    return np.dtype(np.float64 if default_float() == np.float64 else np.float32)


def state_tensor(data: np.ndarray) -> Tensor:
    """Optimizer state is kept as tensors, so printing `opt.state[p]` looks like PyTorch."""
    return make(data)


def accepted_options(foreach, differentiable, fused) -> dict:
    """Options of PyTorch's fused and multi-tensor kernels: stored so groups and reprs match."""
    return {"foreach": foreach, "differentiable": differentiable, "fused": fused}


def _copied(value, param):
    """Saved state as the optimizer's own tensor (a copy, in the parameter's float dtype)."""
    if isinstance(value, Tensor):
        data = np.array(value._data, copy=True)
        if data.dtype.kind == "f" and data.ndim:
            data = data.astype(param._data.dtype)
        return make(data)
    return value
