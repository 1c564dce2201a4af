"""`torch.autograd`: gradients on demand (`grad`, `backward`), custom `Function`s, the legacy
`Variable`, `gradcheck`, and `functional` (jacobian, hessian, vjp)."""

from ..engine import grad_mode
from ..engine.autograd import backward, grad
from ..engine.function import Function
from ..engine.grad_mode import (
    detect_anomaly,
    enable_grad,
    inference_mode,
    no_grad,
    set_detect_anomaly,
    set_grad_enabled,
)
from . import function
from .function import once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable

__all__ = [
    "Function",
    "GradcheckError",
    "Variable",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "function",
    "functional",
    "grad",
    "grad_mode",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "inference_mode",
    "no_grad",
    "once_differentiable",
    "set_detect_anomaly",
    "set_grad_enabled",
]


def __getattr__(name: str):
    if name in ("functional", "graph"):
        import importlib  # not `from . import functional`: that asks this __getattr__ again

        return importlib.import_module(f"{__name__}.{name}")
    from ..torchnames import module_attribute

    raise module_attribute("torch.autograd", name)
