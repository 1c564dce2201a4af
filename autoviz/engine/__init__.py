"""The numpy autograd engine: tensors, ops, backward; knows nothing of drawing."""

import warnings as _warnings

from . import autograd
from .creation import (
    arange,
    as_tensor,
    eye,
    from_numpy,
    full,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from .dtypes import bool, dtype, float16, float32, float64, int32, int64, uint8
from .function import AccumulateGrad, Function, Node
from .functional import (
    abs,
    add,
    argmax,
    argmin,
    cat,
    clamp,
    clone,
    cos,
    div,
    exp,
    flatten,
    log,
    log_softmax,
    matmul,
    max,
    maximum,
    mean,
    min,
    mm,
    mul,
    neg,
    permute,
    pow,
    relu,
    reshape,
    sigmoid,
    sin,
    softmax,
    sqrt,
    squeeze,
    stack,
    sub,
    sum,
    t,
    tanh,
    transpose,
    unbind,
    unsqueeze,
    where,
)
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .sampling import (
    bernoulli,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
)
from .tensor import Size, Tensor, tensor

float = float32
double = float64
long = int64

# numpy warns when a result is nan or inf ("invalid value encountered in log"); PyTorch is
# silent. A filter on the engine's own modules costs nothing per op and leaves user numpy alone.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autoviz\.engine\.")
