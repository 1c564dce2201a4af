"""The numpy autograd engine: tensors, ops, backward; knows nothing of drawing."""

import warnings as _warnings

from .creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from .device import device, get_default_device, set_default_device
from .dtypes import (
    bool,
    dtype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from .function import AccumulateGrad, Function, Node
from .functional import (
    abs,
    add,
    argmax,
    argmin,
    cat,
    ceil,
    clamp,
    clip,
    clone,
    concat,
    concatenate,
    cos,
    div,
    dot,
    exp,
    exp2,
    expm1,
    flatten,
    flip,
    floor,
    log,
    log1p,
    log2,
    log10,
    log_softmax,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mul,
    mv,
    neg,
    outer,
    permute,
    pow,
    reciprocal,
    relu,
    reshape,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    softmax,
    sqrt,
    square,
    squeeze,
    stack,
    sub,
    sum,
    t,
    tan,
    tanh,
    transpose,
    trunc,
    unbind,
    unsqueeze,
    where,
)
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
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
)
from .methods import (
    eq,
    floor_divide,
    fmod,
    ge,
    greater,
    greater_equal,
    gt,
    le,
    less,
    less_equal,
    lt,
    ne,
    not_equal,
    remainder,
)
from .random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .reducing import all, allclose, any, cumsum, equal, isclose, logsumexp, norm, prod, std, var
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
from .selecting import argsort, chunk, gather, sort, split
from .tensor import Size, Tensor, tensor

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
subtract, multiply, divide, true_divide, negative, absolute = sub, mul, div, div, neg, abs


def numel(input) -> "int":
    return input.numel()


def is_tensor(obj) -> "bool":
    return isinstance(obj, Tensor)


def is_floating_point(input) -> "bool":
    return input._data.dtype.kind == "f"


# numpy warns when a result is nan or inf ("invalid value encountered in log"); PyTorch is
# silent. A filter on the engine's own modules costs nothing per op and leaves user numpy alone.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autoviz\.engine\.")
