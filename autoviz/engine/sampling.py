"""Random tensors with torch's CPU values: rand, randn, randint, randperm, normal, bernoulli,
multinomial, the *_like functions, the in-place Tensor methods and the seeding functions."""

import numpy as np

from . import events, versions
from .dtypes import C_TYPE_NAMES, TYPE_NAMES, default_float, to_numpy_dtype
from .fidelity import random as _random
from .fidelity.random import generator_or_default
from .grad_mode import _state
from .ops.base import Op, into
from .tensor import Tensor, make, new_leaf

_I64 = np.dtype(np.int64)


# -- shapes, dtypes, filling ---------------------------------------------------------------------
def _shape(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    shape = tuple(int(n) for n in size)
    if any(n < 0 for n in shape):
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}"
        )
    return shape


def _check_device(device) -> None:
    kind = None if device is None else str(device).partition(":")[0]
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")  # a CPU build's words
    if kind not in (None, "cpu"):
        raise RuntimeError(f"autoviz computes on the CPU only (got device={str(device)!r})")


def _type_name(dt) -> str:
    return TYPE_NAMES.get(dt.name, dt.name)


def _need_float(dt, kernel: str) -> None:
    if dt.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(dt)}'")


def _need_continuous(dt, distribution: str, names: dict) -> None:
    """torch's check of a continuous fill's dtype (its kernels name the dtype two ways)."""
    if dt.kind != "f":
        raise RuntimeError(
            f"{distribution} distribution is a continuous probability distribution. dtype must "
            f"be a floating point but you specified {names.get(dt.name, dt.name)}"
        )


def _memory_order(arr: np.ndarray) -> list:
    """The axes of `arr` from outermost to innermost in memory: the order torch's kernels
    fill a tensor in (C order for a contiguous one)."""
    if arr.flags.c_contiguous:
        return list(range(arr.ndim))
    return sorted(range(arr.ndim), key=lambda d: -abs(arr.strides[d]))


def _fill(t: Tensor, values: np.ndarray) -> Tensor:
    """Write flat `values` into t's storage in memory order, as an in-place op."""
    arr = t._storage()
    view = arr.transpose(_memory_order(arr))
    view[...] = values.reshape(view.shape)
    versions.changed_by(t, arr)
    if events.observers:
        events.on_inplace(t)
    return t


def _inplace_target(t: Tensor, name: str) -> None:
    """torch's rules for filling a tensor in place with random numbers."""
    t._check_inplace()
    if t.grad_fn is not None and _state["enabled"]:
        raise RuntimeError(
            f"autoviz cannot record {name} on a tensor that is part of a graph yet: "
            "fill it under torch.no_grad(), or make a new tensor"
        )


def _new(shape, dt, values, requires_grad, device, name=None) -> Tensor:
    _check_device(device)
    return new_leaf(values.reshape(shape).astype(dt, copy=False), requires_grad, name)


def _float_dtype(dtype) -> np.dtype:
    return to_numpy_dtype(dtype) if dtype is not None else default_float()


# -- creation -------------------------------------------------------------------------------------
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, name=None, **kw):
    """Uniform in [0, 1): torch.rand (`name` labels the tensor in diagrams)."""
    shape, dt = _shape(_size_keyword(size, kw, "rand")), _float_dtype(dtype)
    _need_float(dt, "check_uniform_bounds")
    values = _random.uniform(generator_or_default(generator), _numel(shape), dt, 0, 1)
    return _new(shape, dt, values, requires_grad, device, name)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, name=None, **kw):
    """Standard normal: torch.randn (`name` labels the tensor in diagrams)."""
    shape, dt = _shape(_size_keyword(size, kw, "randn")), _float_dtype(dtype)
    _need_float(dt, "normal_kernel_cpu")
    values = _random.normal(generator_or_default(generator), _numel(shape), dt, 0.0, 1.0)
    return _new(shape, dt, values, requires_grad, device, name)


def _size_keyword(size, kw, name) -> tuple:
    """The size given positionally or as size=..., as torch accepts both."""
    if "size" in kw:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        size = (kw.pop("size"),)
    if kw:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
    return size


def _numel(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False, **kw):
    """Integers in [low, high): torch.randint(high, size) or randint(low, high, size)."""
    low, high, size = _randint_args(args, size, kw)
    shape = _shape((size,))
    dt = to_numpy_dtype(dtype) if dtype is not None else _I64
    values = _integers(generator_or_default(generator), _numel(shape), dt, low, high)
    return _new(shape, dt, values, requires_grad, device)


def _randint_args(args, size, kw):
    """(low, high, size) from randint's two call forms."""
    low, high = kw.pop("low", None), kw.pop("high", None)
    if kw:
        raise TypeError(f"randint() got an unexpected keyword argument '{next(iter(kw))}'")
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list)):
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None and args:
        low = args.pop()
    if args or size is None or high is None or not isinstance(size, (tuple, list)):
        raise TypeError(
            "randint() received an invalid combination of arguments - expected one of:\n"
            " * (int high, tuple of ints size, *, torch.Generator generator, torch.dtype dtype)\n"
            " * (int low, int high, tuple of ints size, *, torch.Generator generator, "
            "torch.dtype dtype)"
        )
    return (0 if low is None else int(low)), int(high), size


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A random permutation of 0..n-1: torch.randperm."""
    n = n.__index__() if isinstance(n, Tensor) else n  # a one-element integer tensor
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(
            f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}"
        )
    _shape((n,))
    dt = to_numpy_dtype(dtype) if dtype is not None else _I64
    if dt.kind == "b":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if n > 0 and dt.kind in "iu" and n - 1 > np.iinfo(dt).max:
        raise RuntimeError(f"value cannot be converted to type {_cpp(dt)}_t without overflow")
    values = _random.permutation(generator_or_default(generator), int(n))
    return _new((n,), dt, values, requires_grad, device)


def _cpp(dt) -> str:
    return dt.name if dt.kind != "f" else C_TYPE_NAMES[dt.name]


def rand_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    dt = to_numpy_dtype(dtype) if dtype is not None else input._data.dtype
    return rand(
        input.shape, generator=generator, dtype=dt, device=device, requires_grad=requires_grad
    )


def randn_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    dt = to_numpy_dtype(dtype) if dtype is not None else input._data.dtype
    return randn(
        input.shape, generator=generator, dtype=dt, device=device, requires_grad=requires_grad
    )


def randint_like(input, *args, generator=None, dtype=None, device=None, requires_grad=False, **kw):
    """randint with input's shape and (by default) dtype: randint_like(input, [low,] high)."""
    dt = to_numpy_dtype(dtype) if dtype is not None else input._data.dtype
    return randint(
        *args,
        tuple(input.shape),
        generator=generator,
        dtype=dt,
        device=device,
        requires_grad=requires_grad,
        **kw,
    )


def normal(
    mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False
) -> Tensor:
    """torch.normal: floats with a size, or one draw per element of tensor mean and/or std."""
    gen = generator_or_default(generator)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError(
                "normal() with float mean and std needs a size, e.g. normal(0, 1, (3,))"
            )
        shape, dt = _shape((size,)), _float_dtype(dtype)
        _need_float(dt, "normal_kernel_cpu")
        _check_std(std)
        values = _random.normal(gen, _numel(shape), dt, float(mean), float(std))
        return _new(shape, dt, values, requires_grad, device)
    return _normal_tensors(mean, std, gen)


def _check_std(std) -> None:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_num(std)}")


def _normal_tensors(mean, std, gen) -> Tensor:
    """normal_(0, 1) into the broadcast shape, then * std + mean as two rounded steps."""
    if not isinstance(std, Tensor):
        _check_std(std)
    elif np.any(np.asarray(std._data) < 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    dt = (mean if isinstance(mean, Tensor) else std)._data.dtype
    # Python numbers stay Python numbers: numpy then computes in the tensor's dtype, as torch
    # does with a scalar.
    m, s = _raw(mean), _raw(std)
    shape = _broadcast(np.shape(m), np.shape(s))
    if isinstance(std, Tensor):
        z = _random.normal(gen, _numel(shape), dt, 0.0, 1.0).reshape(shape)
        z = np.asarray(z * s).astype(dt)
    else:  # torch passes a number std to the kernel: normal_(0, std), then + mean
        z = _random.normal(gen, _numel(shape), dt, 0.0, s).reshape(shape)
    return make(np.asarray(z + m).astype(dt))


def _broadcast(a, b) -> tuple:
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        for i, (m, n) in enumerate(zip(reversed(a), reversed(b), strict=False)):
            if m != n and m != 1 and n != 1:
                raise RuntimeError(
                    f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                    f"non-singleton dimension {max(len(a), len(b)) - 1 - i}"
                ) from None
        raise


def _raw(value):
    return value._data if isinstance(value, Tensor) else float(value)


def _num(value) -> str:
    """A number as torch's C++ prints it in messages: 1 for 1.0, else the shortest repr."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """0/1 draws: with probability input (per element), or p for every element."""
    out = make(np.zeros(np.shape(input._data), input._data.dtype))
    if p is None:
        _bernoulli_tensor_into(out, input, generator_or_default(generator))
        return out
    return _bernoulli_(out, p, generator)


def poisson(input, generator=None) -> Tensor:
    """A Poisson draw for each rate in input; its gradient is zero, as torch's."""
    rates = np.asarray(input._data)
    if rates.dtype.kind != "f":
        raise NotImplementedError(
            f"\"poisson_cpu\" not implemented for '{_type_name(rates.dtype)}'"
        )
    if np.any(rates < 0) or np.isnan(rates).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    draws = _random.poisson(generator_or_default(generator), rates)
    return Poisson.apply(input, draws=_random.cast(draws, rates.dtype))


class Poisson(Op):
    """z ~ Poisson(rate);  dz/drate = 0 (PyTorch's PoissonBackward0)."""

    _backward_name = "PoissonBackward0"

    @staticmethod
    def forward(ctx, rate, draws=None):
        return draws

    @staticmethod
    def backward(ctx, grad):
        return np.zeros_like(grad)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    """Indices drawn from each row of non-negative weights: torch.multinomial."""
    if out is not None and out._data.dtype != np.int64:
        raise RuntimeError(
            f"multinomial expects Long tensor out, got: {TYPE_NAMES[out._data.dtype.name]}"
        )
    drawn = _multinomial(input, num_samples, replacement, generator)
    return drawn if out is None else into(out, drawn, "multinomial")


def _multinomial(input, num_samples, replacement, generator) -> Tensor:
    probs = np.asarray(input._data)
    _check_multinomial(probs, num_samples, replacement)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        _check_weights_fast(rows)
    else:
        _check_weights_rows(rows)
    picked = _random.multinomial(generator_or_default(generator), rows, num_samples, replacement)
    return make(picked.reshape((*probs.shape[:-1], num_samples)).astype(np.int64))


def _check_multinomial(probs, num_samples, replacement) -> None:
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: "
            f"{_type_name(probs.dtype)}"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if probs.shape[-1] > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")


def _check_weights_fast(rows) -> None:
    if not (np.all(rows < np.inf) and np.all(rows >= 0)):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(rows.sum(axis=1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def _check_weights_rows(rows) -> None:
    for row in rows:  # torch checks row by row, each entry in turn
        bad = np.flatnonzero(~(row >= 0) | ~np.isfinite(row))
        if bad.size:
            entry = row[bad[0]]
            if not entry >= 0:
                raise RuntimeError(
                    "invalid multinomial distribution (encountering probability entry < 0)"
                )
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry = infinity "
                "or NaN)"
            )
        if not row.sum(dtype=row.dtype) > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


# -- in-place methods ---------------------------------------------------------------------------
def uniform_(self, from_=0.0, to=1.0, *, generator=None, **kw):
    """Fill with uniform numbers in [from, to)."""
    from_ = kw.pop("from", from_)
    dt = self._data.dtype
    _need_float(dt, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={_num(from_)} > "
            f"to={_num(to)}"
        )
    _inplace_target(self, "uniform_")
    gen = generator_or_default(generator)
    return _fill(self, _random.uniform(gen, self.numel(), dt, from_, to))


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with normal numbers of the given mean and standard deviation."""
    _need_float(self._data.dtype, "normal_kernel_cpu")
    _check_std(std)
    _inplace_target(self, "normal_")
    return _normal_into(self, float(mean), float(std), generator_or_default(generator))


def _normal_into(t: Tensor, mean: float, std: float, gen) -> Tensor:
    arr = t._storage()
    # The vectorised fill runs on C-contiguous memory only; other layouts go one by one.
    values = _random.normal(gen, arr.size, arr.dtype, mean, std, arr.flags.c_contiguous)
    return _fill(t, values)


def random_(self, *args, generator=None, **kw):
    """Fill with integers: random_() over the dtype, random_(to), random_(from, to)."""
    low, high = _random_args(args, kw)
    _inplace_target(self, "random_")
    gen = generator_or_default(generator)
    dt = self._data.dtype
    if low is None:
        return _fill(self, _random.integers_full(gen, self.numel(), dt))
    if high is None:
        return _fill(self, _integers_from(gen, self.numel(), dt, low))
    return _fill(self, _integers(gen, self.numel(), dt, low, high))


def _random_args(args, kw):
    """(from, to) from random_'s forms; from None: the dtype's own range; to None: up to its
    maximum."""
    if kw.keys() - {"from", "to"} or len(args) > 2:
        raise TypeError("random_() takes (from=0, to=None, *, generator=None)")
    if len(args) == 1 and not kw:
        return 0, args[0]  # random_(to)
    values = dict(zip(("from", "to"), args, strict=False)) | kw
    if not values:
        return None, None
    return values.get("from", 0), values.get("to")


def _integers(gen, n: int, dt, low, high) -> np.ndarray:
    """random_(low, high)'s values, with torch's checks."""
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    if dt.kind == "f":
        low, high = _float_from(low, dt), _float_to(high, dt)
        if low >= high:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                f"but got from={low} >= to={high}"
            )
    _check_bounds(low, high - 1, dt)
    return _random.integers(gen, n, dt, low, high)


def _integers_from(gen, n: int, dt, low) -> np.ndarray:
    """random_(low, None)'s values: from low up to the dtype's largest value."""
    low = int(low)
    if low == -(2**63):
        return _random.integers_64(gen, n).astype(dt)
    if dt.kind == "f":
        top = 2 ** (np.finfo(dt).nmant + 1)
        low = _float_from(low, dt)
        if low >= top:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' "
                f"casted to dtype, but got from={low} > to_inc={top}"
            )
    else:
        top = 1 if dt.kind == "b" else int(np.iinfo(dt).max)
    _check_bounds(low, top, dt)
    return _random.integers(gen, n, dt, low, top + 1)


def _float_int(value: int, dt) -> int:
    """static_cast<int64_t>(static_cast<scalar_t>(value)): out of range gives x86's INT64_MIN."""
    with np.errstate(over="ignore"):
        f = dt.type(value)
    return int(f) if np.isfinite(f) else -(2**63)


def _float_from(low: int, dt) -> int:
    """torch's update_from: move `from` up to a value the float dtype holds exactly."""
    plus = _float_int(low + 1, dt)
    if plus < low:
        n = abs(low + 1).bit_length() - 1
        low = plus + (1 << (n - np.finfo(dt).nmant))
    return low


def _float_to(high: int, dt) -> int:
    """torch's update_to: move `to` down to a value the float dtype holds exactly."""
    minus = _float_int(high - 1, dt)
    if minus >= high:
        n = abs(high - 1).bit_length() - 1
        high = minus - (1 << (n - np.finfo(dt).nmant))
    return high


def _check_bounds(low: int, top: int, dt) -> None:
    """check_from_to_in_range: errors outside the dtype, a warning past a float's precision."""
    if dt.kind == "f":
        lo, hi = float(np.finfo(dt).min), float(np.finfo(dt).max)
    elif dt.kind == "b":
        lo, hi = 0, 1
    else:
        lo, hi = int(np.iinfo(dt).min), int(np.iinfo(dt).max)
    name = C_TYPE_NAMES.get(dt.name, dt.name)
    for value, what in ((low, "from"), (top, "to - 1")):
        if not lo <= value <= hi:
            raise RuntimeError(f"{what} is out of bounds for {name}")
    if dt.kind == "f":
        digits = np.finfo(dt).nmant + 1
        for value, what in ((low, "from"), (top, "to - 1")):
            if not -(2**digits) <= value <= 2**digits:
                import warnings

                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {name} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, "
                    "please fix the code in advance",
                    UserWarning,
                    stacklevel=4,
                )


def bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 1 (probability p, a number or a tensor of probabilities) or 0."""
    return _bernoulli_(self, p, generator)


def _bernoulli_(t: Tensor, p, generator) -> Tensor:
    gen = generator_or_default(generator)
    _inplace_target(t, "bernoulli_")
    if isinstance(p, Tensor):
        return _bernoulli_tensor_into(t, p, gen)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")
    return _fill(t, _random.bernoulli_scalar(gen, t.numel(), float(p)))


def _bernoulli_tensor_into(t: Tensor, p: Tensor, gen) -> Tensor:
    probs = np.asarray(p._data)
    if probs.dtype.kind != "f":
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_type_name(probs.dtype)}'"
        )
    if not np.all((probs >= 0) & (probs <= 1)):
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    # torch walks output and probabilities together, in the output's memory order.
    order = _memory_order(t._storage())
    probs = np.broadcast_to(probs, np.shape(t._data)).transpose(order)
    return _fill(t, _random.bernoulli_tensor(gen, np.ascontiguousarray(probs)))


def exponential_(self, lambd=1.0, *, generator=None):
    """Fill with exponential numbers of rate lambd."""
    dt = self._data.dtype
    _need_continuous(dt, "Exponential", TYPE_NAMES)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_num(lambd)}")
    _inplace_target(self, "exponential_")
    gen = generator_or_default(generator)
    return _fill(self, _random.exponential(gen, self.numel(), dt, float(lambd)))


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill with Cauchy numbers centred on median, of scale sigma."""
    dt = self._data.dtype
    _need_continuous(dt, "Cauchy", C_TYPE_NAMES)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_num(sigma)}")
    _inplace_target(self, "cauchy_")
    gen = generator_or_default(generator)
    return _fill(self, _random.cauchy(gen, self.numel(), dt, float(median), float(sigma)))


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill with numbers whose log is normal(mean, std)."""
    dt = self._data.dtype
    _need_float(dt, "log_normal_cpu")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_num(std)}")
    _inplace_target(self, "log_normal_")
    gen = generator_or_default(generator)
    return _fill(self, _random.log_normal(gen, self.numel(), dt, float(mean), float(std)))


def geometric_(self, p, *, generator=None):
    """Fill with the number of Bernoulli(p) trials up to the first success (1, 2, ...)."""
    dt = self._data.dtype
    if dt.kind == "b":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_num(p)}")
    _inplace_target(self, "geometric_")
    gen = generator_or_default(generator)
    return _fill(self, _random.geometric(gen, self.numel(), dt, float(p)))


def bernoulli_method(self, p=None, *, generator=None):
    return bernoulli(self, p, generator=generator)


def multinomial_method(self, num_samples, replacement=False, *, generator=None):
    return multinomial(self, num_samples, replacement, generator=generator)
