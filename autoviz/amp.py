"""`torch.amp`: autocast and GradScaler as PyTorch's CPU build runs them. Autocast to CUDA turns
itself off (no GPU here) and autocast on the CPU needs bfloat16 or float16 matmuls, outside
autoviz's numpy dtypes; GradScaler scales losses and unscales gradients for real on the CPU."""

import functools
import math
import types
import warnings

from .engine import dtypes
from .engine.creation import full
from .engine.grad_mode import no_grad
from .errors import NotInAutoviz

_enabled = {"cpu": False, "cuda": False}


class autocast:
    """`with torch.autocast(device_type, dtype=None, enabled=True):`, or as a decorator."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device, self.fast_dtype, self._enabled = device_type, dtype, bool(enabled)
        if self._enabled and device_type == "cuda":
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.",
                UserWarning,
                stacklevel=2,
            )
            self._enabled = False
        elif self._enabled and device_type == "cpu":
            if dtype not in (None, dtypes.float16):
                warnings.warn(
                    "In CPU autocast, but the target dtype is not supported. Disabling "
                    "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                    "torch.float16 currently.",
                    UserWarning,
                    stacklevel=2,
                )
                self._enabled = False
            else:
                raise NotInAutoviz(
                    "torch.autocast on the CPU is not in autoviz: it computes matmuls in "
                    "bfloat16 or float16, and dtypes numpy does not have are outside its scope "
                    "(pass enabled=False, or run the script with --engine torch)"
                )

    def __enter__(self):
        self._before = _enabled.get(self.device, False)
        _enabled[self.device] = self._enabled
        return self

    def __exit__(self, *exc) -> None:
        _enabled[self.device] = self._before

    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return wrapped


def is_autocast_enabled(device_type=None) -> bool:
    return _enabled.get(device_type or "cuda", False)


class GradScaler:
    """Loss scaling: `scale(loss)` multiplies by the scale, `step(opt)` unscales the gradients
    and skips the step when any is inf or NaN, `update()` halves the scale after such a step
    and doubles it after `growth_interval` good ones."""

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True) -> None:  # fmt: skip
        if enabled and device == "cuda":
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        self._device, self._enabled = device, enabled
        if enabled:
            self._init_scale, self._growth_factor = init_scale, growth_factor
            self._backoff_factor, self._growth_interval = backoff_factor, growth_interval
            self._scale = self._growth_tracker = None
            self._init_growth_tracker = 0
            self._per_optimizer = {}

    def is_enabled(self) -> bool:
        return self._enabled

    def scale(self, outputs):
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._scale = full((), float(self._init_scale), dtype=dtypes.float32)
            self._growth_tracker = full((), self._init_growth_tracker, dtype=dtypes.int32)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        return outputs * self._scale

    def _state(self, optimizer) -> dict:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": "ready", "inf": 0.0})

    def unscale_(self, optimizer) -> None:
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] == "unscaled":
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] == "stepped":
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = float(1.0 / self._scale.double().item())
        found = 0.0
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not bool(p.grad.isfinite().all()):
                        found = 1.0
                    p.grad.mul_(inv_scale)
        state.update(stage="unscaled", inf=found)

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        self._check_scale("step")
        state = self._state(optimizer)
        if state["stage"] == "stepped":
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == "ready":
            self.unscale_(optimizer)
        result = optimizer.step(*args, **kwargs) if not state["inf"] else None
        state["stage"] = "stepped"
        return result

    def update(self, new_scale=None) -> None:
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            value = float(new_scale.item() if hasattr(new_scale, "item") else new_scale)
        else:
            found = any(s["inf"] for s in self._per_optimizer.values())
            value, tracker = self._scale.item(), int(self._growth_tracker.item())
            if found:
                value, tracker = value * self._backoff_factor, 0
            else:
                tracker += 1
                if tracker == self._growth_interval:
                    grown = value * self._growth_factor
                    value, tracker = (grown if math.isfinite(grown) else value), 0
            self._growth_tracker.fill_(tracker)
        self._scale.fill_(value)
        self._per_optimizer = {}

    def _check_scale(self, what: str) -> None:
        if self._scale is None:
            raise AssertionError(
                f"Attempted {what} but _scale is None.  This may indicate your script did not "
                "use scaler.scale(loss or outputs) earlier in the iteration."
            )

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        tracker = self._init_growth_tracker
        if self._growth_tracker is not None:
            tracker = int(self._growth_tracker.item())
        return {
            "scale": self.get_scale(),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": tracker,
        }

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a "
                "disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])


def _deprecated(device: str, cls, what: str):
    """torch.cuda.amp.X / torch.cpu.amp.X: the torch.amp class for `device`, with the warning."""

    def make(*args, **kwargs):
        warnings.warn(
            f"`torch.{device}.amp.{what}(args...)` is deprecated. Please use "
            f"`torch.amp.{what}('{device}', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        return cls(device, *args, **kwargs)

    make.__name__ = make.__qualname__ = what
    return make


cuda_amp = types.ModuleType("torch.cuda.amp", "`torch.cuda.amp`: deprecated names of torch.amp's.")
cuda_amp.autocast = _deprecated("cuda", autocast, "autocast")
cuda_amp.GradScaler = _deprecated("cuda", GradScaler, "GradScaler")
cpu_amp = types.ModuleType("torch.cpu.amp", "`torch.cpu.amp`: deprecated names of torch.amp's.")
cpu_amp.autocast = _deprecated("cpu", autocast, "autocast")
cpu_amp.GradScaler = _deprecated("cpu", GradScaler, "GradScaler")
