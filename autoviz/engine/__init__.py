"""The numpy autograd engine: tensors, ops, backward; knows nothing of drawing.

Where things are, for a reader who opens it to learn autograd:

The core, what PyTorch's autograd is:
    tensor.py      Tensor: a numpy array plus grad, grad_fn, requires_grad, is_leaf
    function.py    Node (what grad_fn holds), AccumulateGrad, Function (every op's base)
    backward.py    the backward walk: nodes in PyTorch's order, hooks, retain_grad
    grad_mode.py   no_grad, enable_grad, set_grad_enabled
    events.py      what the engine tells observers (the tracer) as it runs
    autograd.py    autograd.grad and autograd.backward
    higher.py      backward that records itself (create_graph=True)

The ops, one family per module in ops/ (its docstring gives the convention for an op and
for a new family): base, pointwise, reductions, shape, indexing, linalg.
`surface.py` makes PyTorch's names from one table: torch.name, Tensor.name, x.name_().

Making tensors: creation.py (zeros, arange, ...), sampling.py (rand, randn, ...), legacy.py
(torch.FloatTensor, ...), dtypes.py, device.py.

What makes the numbers and text torch's, apart from both, in fidelity/: printing, the random
generator and its kernels, float summation order, fused multiply-adds.

Imports go one way: fidelity <- core <- ops <- surface <- this package.
"""

import math as _math
import warnings as _warnings
from types import ModuleType as _ModuleType

# isort: off
from .tensor import Size, Tensor, tensor  # first: the ops, imported at its end, build on it

# isort: on
from . import surface as _surface
from .aten import (
    adaptive_max_pool1d,
    alpha_dropout_,
    batch_norm,
    binary_cross_entropy_with_logits,
    celu_,
    channel_shuffle,
    constant_pad_nd,
    cosine_embedding_loss,
    detach,
    detach_,
    dropout_,
    embedding,
    feature_alpha_dropout_,
    fill_,
    hinge_embedding_loss,
    instance_norm,
    kl_div,
    margin_ranking_loss,
    max_pool1d_with_indices,
    pixel_shuffle,
    pixel_unshuffle,
    poisson_nll_loss,
    rrelu_,
    selu_,
    threshold_,
    triplet_margin_loss,
)
from .creation import (
    arange,
    as_tensor,
    asarray,
    empty,
    empty_like,
    eye,
    from_numpy,
    frombuffer,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    scalar_tensor,
    zeros,
    zeros_like,
)
from .creation import torch_range as range
from .device import (
    contiguous_format,
    device,
    get_default_device,
    layout,
    legacy_contiguous_format,
    memory_format,
    preserve_format,
    set_default_device,
    strided,
)
from .dtypes import (
    bool,
    can_cast,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .dtypes import torch_result_type as result_type
from .fidelity import random
from .fidelity.random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .function import AccumulateGrad, Function, Node
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_detect_anomaly,
    set_grad_enabled,
)
from .legacy import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    set_default_tensor_type,
)
from .sampling import (
    bernoulli,
    multinomial,
    normal,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
)
from .storage import TypedStorage, UntypedStorage

globals().update(_surface.functions())  # torch.exp, torch.cat, ...: the ops' table

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16

# torch's math constants (`-torch.inf` in an attention mask, `torch.pi` in GELU's formula)
inf, nan, pi, e = _math.inf, _math.nan, _math.pi, _math.e
newaxis = None


def numel(input) -> "int":
    return input.numel()


def is_tensor(obj) -> "bool":
    return isinstance(obj, Tensor)


def is_floating_point(input) -> "bool":
    return input._data.dtype.kind == "f"


def is_inference(input) -> "bool":
    return input.is_inference()


def is_same_size(input, other) -> "bool":
    return input.is_same_size(other)


def is_complex(input) -> "bool":
    return input._data.dtype.kind == "c"


def is_nonzero(input) -> "bool":
    return input.is_nonzero()


def is_signed(input) -> "bool":
    return input.is_signed()


def get_device(input) -> "int":
    return input.get_device()


def is_storage(obj) -> "bool":
    return isinstance(obj, UntypedStorage)


def typename(obj) -> "str":
    """`torch.FloatTensor` for a float32 tensor (its legacy type's name), else the object's
    module-qualified class name, as torch.typename gives them (autoviz's namesakes of torch's
    classes by torch's module: torch.nn.modules.linear.Linear)."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None:
        module, name = type(obj).__module__ or "", type(obj).__qualname__
    if module == "autoviz" or module.startswith("autoviz."):
        module = "torch" + module[len("autoviz") :]
    return name if module in ("", "builtins") else f"{module}.{name}"


# PyTorch's top-level names this package gives (`from autoviz.engine import *`): not its
# own modules, but torch.random, which is one in PyTorch too.
__all__ = sorted(
    name
    for name, value in globals().items()
    if not name.startswith("_") and (not isinstance(value, _ModuleType) or name == "random")
)

# numpy warns when a result is nan or inf ("invalid value encountered in log"); PyTorch is
# silent. A filter on the engine's own modules costs nothing per op and leaves user numpy alone.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autoviz\.engine\.")
