"""How tracing reads torch's tensors and backward nodes: the bridge's side of EngineView."""

import contextlib

import torch

from ..tracing.saved import SAVED
from ..tracing.view import repeated_rows
from .modules import ModuleMap
from .saved import saved_arguments, saved_tensors
from .values import (
    ACCUMULATE_GRAD,
    Seen,
    Unseen,
    dtype_name,
    node_name,
    storage_of,
    tensor_preview,
)

# Backward node -> its _saved_ arguments the captions read (tracing/view.py's _PARAMS).
_PARAMS = {
    "SumBackward1": ("dim", "keepdim"),
    "MeanBackward1": ("dim", "keepdim"),
    "MaxBackward0": ("dim", "keepdim"),
    "MinBackward0": ("dim", "keepdim"),
    "ProdBackward1": ("dim", "keepdim"),
    "VarBackward0": ("dim", "keepdim", "correction"),
    "StdBackward0": ("dim", "keepdim", "correction"),
    "LinalgVectorNormBackward0": ("ord", "dim", "keepdim"),
    "LogsumexpBackward0": ("dim",),
    "SoftmaxBackward0": ("dim",),
    "LogSoftmaxBackward0": ("dim",),
    "CumsumBackward0": ("dim",),
    "TransposeBackward0": ("dim0", "dim1"),
    "PermuteBackward0": ("dims",),
    "SelectBackward0": ("dim", "index"),
    "SliceBackward0": ("dim", "start", "end", "step"),
    "UnsqueezeBackward0": ("dim",),
    "CatBackward0": ("dim",),
    "StackBackward0": ("dim",),
    "GatherBackward0": ("dim",),
    "ClampBackward1": ("min", "max"),
    "ClampMinBackward0": ("min",),
    "LeakyReluBackward0": ("negative_slope",),
    "EmbeddingBackward0": ("padding_idx",),
}
# Ops whose dim is one number (torch may keep it as a tuple of one).
_ONE_DIM = {"MaxBackward0", "MinBackward0", "ProdBackward1", "SoftmaxBackward0"}
_ONE_DIM |= {"LogSoftmaxBackward0", "CumsumBackward0", "UnsqueezeBackward0", "CatBackward0"}
_ONE_DIM |= {"StackBackward0", "GatherBackward0"}


def key(t) -> int:
    """Who tensor `t` is: id() of the tensor a Seen was read from, else id(t)."""
    return t.key if type(t) is Seen else id(t)


class TorchView:
    """Answers EngineView's calls for torch objects; `modules` maps nn.Modules to paths.

    A traced program passes what it saw while forward ran: each op's module chain (from
    forward hooks) and saved tensors (backward frees them), and its tensors as Seen facts;
    draw() reads all of it off the graph and its tensors, as they are now.
    """

    tensor_types = (torch.Tensor, Unseen, Seen)
    key = staticmethod(key)
    accumulate_types = (ACCUMULATE_GRAD,)

    def __init__(
        self,
        modules: ModuleMap | None = None,
        op_modules=None,
        saved=None,
        arguments=None,
        params=None,
    ) -> None:
        self.modules = modules or ModuleMap({})
        # id(grad_fn) -> what the recorder saw while forward ran (backward frees saved tensors)
        self.op_modules, self.saved_by_op, self.arguments_by_op = op_modules, saved, arguments
        self.params_by_op = params

    @staticmethod
    def given_name(t) -> None:
        return None  # torch tensors carry no name of their own

    def param_name(self, t) -> str | None:
        return self.modules.param_names.get(key(t))

    @staticmethod
    def shape(t) -> tuple:
        return t.shape if type(t) is Seen else tuple(t.shape)

    @staticmethod
    def dtype(t) -> str:
        return t.dtype if type(t) is Seen else dtype_name(t.dtype)

    @staticmethod
    def value(t):
        if type(t) is Seen:
            return t.value
        if isinstance(t, Unseen):
            try:
                result = getattr(t.grad_fn, "_saved_result", None)  # exp and others keep it
            except RuntimeError:  # freed by backward
                result = None
            return tensor_preview(result) if isinstance(result, torch.Tensor) else None
        return tensor_preview(t)

    @staticmethod
    def grad(t):
        # .grad of a non-leaf that does not retain it warns in torch: never ask for it.
        if not isinstance(t, Unseen) and (t.is_leaf or t.retains_grad):
            return tensor_preview(t.grad)
        return None

    @staticmethod
    def retains_grad(t) -> bool:
        return not isinstance(t, Unseen) and t.retains_grad

    def in_module(self, fn) -> bool:
        """Whether the op ran in an nn.Module: recorded, or told by its parameters."""
        if self.op_modules is not None:
            return bool(self.op_modules.get(id(fn)))
        owner = self.modules.owner
        return any(
            child is not None and id(getattr(child, "variable", None)) in owner
            for child, _ in fn.next_functions
        )

    @staticmethod
    def storage(t):
        """Where `t`'s data is: the same for a detached tensor and its source."""
        if isinstance(t, Unseen):
            return None
        return t.storage if type(t) is Seen else storage_of(t)

    @staticmethod
    def output_nr(t) -> int:
        """Which output of its grad_fn `t` is (SplitBackward0 has one per piece)."""
        held = getattr(t, "_held", t)
        return held.output_nr if isinstance(held, torch.Tensor) else getattr(t, "output_nr", 0)

    @staticmethod
    def stand_in(fn, output_nr: int = 0):
        return Unseen(fn, output_nr)

    @staticmethod
    def constant_input(fn, index: int):
        """Input `index` of `fn` that needs no gradient, when torch saved it (the `x` of
        `w * x` is `_saved_other`); None when torch keeps no trace of it (the 1 of `y + 1`)."""
        for name, where in SAVED.get(fn.name(), ()):
            if where == index:
                try:
                    return getattr(fn, f"_saved_{name}")
                except (AttributeError, RuntimeError):  # freed by backward
                    return None
        return None

    def arguments(self, fn) -> list:
        """What the op used besides its inputs (nll_loss's labels, an exponent)."""
        if self.arguments_by_op is not None:
            return self.arguments_by_op.get(id(fn), [])
        return saved_arguments(fn)

    def params(self, fn, inputs=()) -> dict:
        """The op's arguments besides its inputs (dim, keepdim, …): as recorded while forward
        ran, else read now (torch's node keeps them all: `inputs` is not needed)."""
        if self.params_by_op is not None and id(fn) in self.params_by_op:
            return self.params_by_op[id(fn)]
        return self.read_params(fn)

    @staticmethod
    def read_params(fn) -> dict:
        """The op's arguments besides its inputs, from its _saved_ attributes."""
        found, op = {}, node_name(fn)
        for name in _PARAMS.get(op, ()):
            try:
                value = getattr(fn, f"_saved_{name}")
            except (AttributeError, RuntimeError):
                continue
            found[name] = list(value) if isinstance(value, tuple | list) else value
        if op == "EmbeddingBackward0":
            with contextlib.suppress(RuntimeError):  # freed by backward
                found |= repeated_rows(fn._saved_indices.detach().cpu().numpy())
        if "dim" in found and op in _ONE_DIM:
            found["dim"] = found["dim"][0] if isinstance(found["dim"], list) else found["dim"]
        return {k: v for k, v in found.items() if isinstance(v, int | float | bool | list | None)}

    @staticmethod
    def has_params(fn) -> bool:
        """Whether read_params can find anything for `fn` (else nothing is kept per op)."""
        op = node_name(fn)
        return op in _PARAMS or op == "EmbeddingBackward0"

    def op_module(self, fn) -> list:
        if self.op_modules is not None:
            return self.op_modules.get(id(fn), [])
        return self.modules.of_op(fn)

    def running_modules(self, running: tuple) -> list:
        return self.modules.of_stack(running)

    def param_module(self, t) -> list:
        return self.modules.of_parameter(key(t)) if not isinstance(t, Unseen) else []

    def saved(self, fn, inputs: dict, result) -> list:
        if self.saved_by_op is not None:
            return self.saved_by_op.get(id(fn), [])
        return saved_tensors(fn)
