"""How tracing reads tensors and backward nodes: autoviz's own here, torch's in the bridge."""

import math

import numpy as np

from ..engine import AccumulateGrad, Tensor
from ..engine.function import Output, output_class
from ..engine.tensor import make
from .modules import ModuleNames
from .preview import preview
from .saved import saved_entries

_DTYPE_NAMES = {}


def dtype_name(data) -> str:
    """str(dtype) is slow in numpy; a timeline asks for the same few many times."""
    dtype = getattr(data, "dtype", None)
    if dtype is None:  # not `or`: a dtype without fields is falsy
        dtype = np.asarray(data).dtype
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


class EngineView:
    """autoviz's engine objects, read directly; the bridge's TorchView answers the same calls.

    `modules` names the nn.Modules the caller's variables hold (paths such as `net.0`).
    """

    tensor_types = (Tensor,)
    accumulate_types = (AccumulateGrad,)
    key = staticmethod(id)  # who a tensor is (the bridge's Seen facts say whose they are)

    def __init__(self, modules: ModuleNames | None = None) -> None:
        self.modules = modules or ModuleNames({})

    @staticmethod
    def given_name(t) -> str | None:
        """A name set with `tensor(..., name=)`, which wins over variable names."""
        return t._name

    def param_name(self, t) -> str | None:
        """`net.0.weight` for a parameter of a named module, which no variable holds."""
        return self.modules.param_names.get(id(t))

    @staticmethod
    def shape(t) -> tuple:
        shape = getattr(t._data, "shape", None)  # numpy data has one: np.shape's dispatch spared
        return tuple(np.shape(t._data) if shape is None else shape)

    @staticmethod
    def dtype(t) -> str:
        return dtype_name(t._data)

    @staticmethod
    def value(t):
        return preview(t._data)

    @staticmethod
    def grad(t):
        return preview(t._grad._data) if t._grad is not None else None

    @staticmethod
    def retains_grad(t) -> bool:
        return t._retains_grad

    @staticmethod
    def in_module(fn) -> bool:
        """Whether the op ran inside an nn.Module's forward."""
        return bool(getattr(fn, "_modules", ()))

    @staticmethod
    def storage(t):
        """What tensors sharing data have in common (a detached tensor and its source)."""
        return id(t._data)

    @staticmethod
    def output_nr(t) -> int:
        """Which output of its grad_fn `t` is (a node may have several)."""
        fn = t.grad_fn
        return fn.index if isinstance(fn, Output) else 0  # (no getattr: Node's is Python's)

    @staticmethod
    def stand_in(fn, output_nr: int = 0):
        """A tensor for what `fn` made (its output `output_nr`), when no variable holds the
        one the program made."""
        if getattr(fn, "_outs", None) is None:  # one output, the usual op
            return make(fn._out, True, fn)
        output = output_class(fn._forward_cls)(fn, output_nr)
        output._out = fn._outs[output_nr]
        return make(output._out, True, output)

    @staticmethod
    def constant_input(fn, index: int):
        """Input `index` of `fn`, one that needs no gradient (next_functions has None)."""
        inputs = getattr(fn, "_inputs", None)
        return inputs[index] if inputs is not None and index < len(inputs) else None

    @staticmethod
    def arguments(fn) -> list:
        """What the op used besides its inputs, drawn as constants: the labels of nll_loss,
        the exponent of `t ** 2` (numbers or tensors; see the ops' `ctx.info`)."""
        read = _ARGUMENTS.get(type(fn).__name__)
        return read(fn.info) if read is not None and fn.info is not None else []

    @staticmethod
    def params(fn, inputs=()) -> dict:
        """The op's arguments besides its inputs, as PyTorch names them (dim, keepdim, …);
        `inputs` are the op's input tensors (var's and std's correction needs the first's shape)."""
        name = type(fn).__name__
        if name in _SPREADS and fn.info is not None:
            shape = getattr(inputs[0], "shape", None) if inputs else None
            return {k: _plain(v) for k, v in _spread(fn.info, shape).items()}
        read = _PARAMS.get(name)
        if read is None or fn.info is None:
            return {}
        return {k: _plain(v) for k, v in read(fn.info).items()}

    def op_module(self, fn) -> list:
        """[[path, type], ...] of the modules an op ran in, outermost first."""
        return self.modules.of_op(fn)

    def running_modules(self, running: tuple) -> list:
        """The module chain of modules that were running (an op that raised inside them)."""
        return self.modules.of_running(running)

    def param_module(self, t) -> list:
        """The module chain of the module owning parameter `t` ([] for other tensors)."""
        return self.modules.of_parameter(t)

    @staticmethod
    def saved(fn, inputs: dict, result) -> list:
        """What `fn` saved for backward, as {"name", "shape", "value"} (see saved.py)."""
        return saved_entries(fn, inputs, result)


# Backward node -> what its `info` holds that the op used besides its inputs.
_ARGUMENTS = {
    "PowBackward0": lambda info: [info],  # a ** p: the exponent p
    "PowBackward2": lambda info: [info],  # c ** b: the base c
    "RsubBackward1": lambda info: [info],  # c - a
    "DivBackward1": lambda info: [info],  # a / c
    "NllLossBackward0": lambda info: [info[-1]] if info[-1] is not None else [],  # the labels
    "NllLoss2DBackward0": lambda info: [info[-1]] if info[-1] is not None else [],
    "EmbeddingBackward0": lambda info: [info[1]],  # the indices of the rows
    "GatherBackward0": lambda info: [info[1]],  # the index
}


def _dims(axes) -> list | None:
    """The reduced dims as a list; None (every dim, torch's _saved_dim) stays None."""
    if axes is None:
        return None
    return [int(a) for a in (axes if isinstance(axes, tuple | list) else [axes])]


def _reduced(info) -> dict:
    """(shape, axes, keepdim) of a reduction over dims."""
    return {"dim": _dims(info[1]), "keepdim": bool(info[2])} if info[1] is not None else {}


_SPREADS = frozenset(["VarBackward0", "StdBackward0"])


def _spread(info, shape) -> dict:
    """var's and std's dim, keepdim and correction: their node keeps the divisor (elements
    reduced - correction), so the correction is worked out from the input's shape (when known)."""
    axes, keepdim, dof = info
    dims = _dims(axes)
    out = {"dim": dims, "keepdim": bool(keepdim)}
    if shape is not None:
        count = math.prod(shape[d] for d in dims) if dims is not None else math.prod(shape)
        out["correction"] = count - dof
    return out


# Backward node -> its op's arguments from its `info`, named as torch's _saved_ attributes.
_PARAMS = {
    "SumBackward1": _reduced,
    "MeanBackward1": _reduced,
    "MaxBackward0": lambda info: {"dim": int(info[1]), "keepdim": bool(info[2])},
    "MinBackward0": lambda info: {"dim": int(info[1]), "keepdim": bool(info[2])},
    "ProdBackward1": lambda info: {"dim": int(info[0]), "keepdim": bool(info[1])},
    "LinalgVectorNormBackward0": lambda info: {
        "ord": info[0],
        "dim": _dims(info[1]),
        "keepdim": bool(info[2]),
    },
    "LogsumexpBackward0": lambda info: {"dim": _dims(info)},
    "SoftmaxBackward0": lambda info: {"dim": int(info)},
    "LogSoftmaxBackward0": lambda info: {"dim": int(info)},
    "CumsumBackward0": lambda info: {"dim": int(info)},
    "TransposeBackward0": lambda info: {"dim0": int(info[0]), "dim1": int(info[1])},
    "UnsqueezeBackward0": lambda info: {"dim": int(info)},
    "CatBackward0": lambda info: {"dim": int(info[0])},
    "StackBackward0": lambda info: {"dim": int(info[0])},
    "GatherBackward0": lambda info: {"dim": int(info[2])},
    "ClampBackward1": lambda info: {"min": info[0], "max": info[1]},
    "ClampMinBackward0": lambda info: {"min": info[0]},
    "LeakyReluBackward0": lambda info: {"negative_slope": info},
    "LeakyReluBackward1": lambda info: {"negative_slope": info},
    "EmbeddingBackward0": lambda info: {"padding_idx": info[2], **repeated_rows(info[1])},
}


def repeated_rows(indices, most: int = 8) -> dict:
    """The rows an embedding's indices pick more than once, and how often (its backward adds
    their gradient rows): {"rows": [...], "times": [...]}, the most picked first."""
    counts = np.bincount(np.ravel(indices).astype(np.int64)) if np.size(indices) else np.zeros(0)
    rows = [int(r) for r in np.argsort(-counts, kind="stable") if counts[r] > 1][:most]
    return {"rows": rows, "times": [int(counts[r]) for r in rows]}


def _plain(value):
    """A parameter as JSON holds it: numbers and lists of numbers (numpy's become Python's)."""
    if isinstance(value, np.ndarray | tuple | list):
        return [_plain(v) for v in np.ravel(value).tolist()] if np.size(value) else []
    if isinstance(value, np.generic):
        return value.item()
    return value
