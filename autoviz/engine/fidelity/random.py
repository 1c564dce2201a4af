"""torch's CPU random numbers, bit for bit: its Mersenne Twister generator, the seeding
functions of `torch.random`, and the kernels that turn the generator's 32-bit words into
floats, integers, permutations and samples.

Each kernel takes a Generator and returns a flat numpy array in the order PyTorch fills memory;
`sampling` puts them into tensors. The rules are PyTorch 2.13's CPU kernels
(aten/src/ATen/core/TransformationHelper.h, native/cpu/DistributionTemplates.h, ...).
"""

import contextlib
import math

import numpy as np

from . import boxmuller, topk
from .boxmuller import f32, f64
from .fma import fma32, fma64
from .libm import libm

DEFAULT_SEED = 67280421310721  # torch's seed for a new Generator and a new process
_N = 624  # words in the Mersenne Twister's state
_STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState), the layout of torch.get_rng_state()
_U32, _U64 = np.uint64(0xFFFFFFFF), np.uint64(32)
_BIG_PERMUTATION = (2**32 - 1) // 20  # randperm's switch to 64-bit draws


def _genrand_key(seed: int) -> np.ndarray:
    """mt19937's init_genrand: the state words for a 32-bit seed."""
    key = [seed & 0xFFFFFFFF]
    for i in range(1, _N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, np.uint32)


def _seed_value(seed) -> int:
    """A seed as torch's Generator.manual_seed reads it: an int64 or uint64, as a uint64."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -(2**63) <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


class Generator:
    """`torch.Generator`: PyTorch's CPU generator, mt19937 seeded as torch seeds it."""

    def __init__(self, device="cpu") -> None:
        if str(device).partition(":")[0] != "cpu":
            raise RuntimeError(
                f"autoviz has only a CPU generator (got device {str(device)!r}); use "
                "torch.Generator() or torch.Generator(device='cpu')"
            )
        self._twister = self._state = None
        self.manual_seed(DEFAULT_SEED)

    @property
    def _mt(self):
        """numpy's MT19937 in this generator's state, made at the first draw after a seeding
        (numpy.random is loaded then: at import it cost `import autoviz` a quarter of its time)."""
        if self._state is not None:
            if self._twister is None:
                self._twister = np.random.MT19937(0)  # a fixed seed: no OS entropy to gather
            self._twister.state, self._state = self._state, None
        return self._twister

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"  # PyTorch's C++ class

    @property
    def device(self):
        return "cpu"

    def manual_seed(self, seed) -> "Generator":
        """Seed with `seed`: as torch does, only its low 32 bits reach the twister."""
        seed = _seed_value(seed)
        self._state = _mt_state(_genrand_key(seed), _N)
        self._seed = seed
        self._normal = None  # the second value of the last Box-Muller pair, as torch keeps it
        self._float_normal = None
        self._fresh = True  # torch's state says next = 0 until the first draw
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Seed from the operating system's randomness and return the seed."""
        import secrets  # only here: it costs `import autoviz` several milliseconds

        value = secrets.randbits(64)
        self.manual_seed(value)
        return value

    def words(self, n: int) -> np.ndarray:
        """The next n 32-bit outputs (torch's random()), as uint64."""
        self._fresh = self._fresh and n == 0
        return self._mt.random_raw(n)

    def words64(self, n: int) -> np.ndarray:
        """The next n 64-bit outputs (torch's random64(): first word high, second low)."""
        w = self.words(2 * n)
        return (w[0::2] << _U64) | w[1::2]

    def get_state(self):
        """The state as torch's ByteTensor of 5056 bytes (CPUGeneratorImplState)."""
        from ..tensor import make

        state = self._mt.state["state"]
        pos = int(state["pos"])
        raw = np.zeros(_STATE_BYTES, np.uint8)
        _put(raw, 0, np.uint64, self._seed)
        _put(raw, 8, np.int32, _N + 1 - pos)  # left: draws until the next twist, plus one
        _put(raw, 12, np.int32, 1)  # seeded
        _put(raw, 16, np.uint64, 0 if self._fresh else pos)  # next
        raw[24:5016] = state["key"].astype(np.uint64).view(np.uint8)
        if self._normal is not None:
            _put(raw, 5024, np.float64, self._normal)
            _put(raw, 5040, np.int32, 1)
        if self._float_normal is not None:
            _put(raw, 5048, np.float32, self._float_normal)
            raw[5052] = 1
        return make(raw)

    def set_state(self, new_state) -> "Generator":
        """Restore a state from get_state (or from torch.get_rng_state())."""
        data = getattr(new_state, "_data", None)
        if data is None or np.asarray(data).dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = np.ascontiguousarray(data).reshape(-1)
        if raw.size != _STATE_BYTES:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input "
                f"RNG state size to be {raw.size}"
            )
        left, seeded = int(_get(raw, 8, np.int32)), int(_get(raw, 12, np.int32))
        nxt = int(_get(raw, 16, np.uint64))
        if not (seeded == 1 and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        key = raw[24:5016].view(np.uint64).astype(np.uint32)
        self._state = _mt_state(key, _N if left == 1 else _N + 1 - left)
        self._seed = int(_get(raw, 0, np.uint64))
        self._fresh = left == 1 and nxt == 0
        self._normal = float(_get(raw, 5024, np.float64)) if _get(raw, 5040, np.int32) else None
        self._float_normal = float(_get(raw, 5048, np.float32)) if raw[5052] else None
        return self

    def clone_state(self) -> "Generator":
        """An independent generator in this one's state (for fork_rng-style save/restore)."""
        other = Generator()
        other.set_state(self.get_state())
        return other


def _mt_state(key: np.ndarray, pos: int) -> dict:
    return {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}


def _put(raw: np.ndarray, offset: int, dtype, value) -> None:
    size = np.dtype(dtype).itemsize
    raw[offset : offset + size] = np.array([value], dtype).view(np.uint8)


def _get(raw: np.ndarray, offset: int, dtype):
    size = np.dtype(dtype).itemsize
    return raw[offset : offset + size].view(dtype)[0]


default_generator = Generator()


def manual_seed(seed):
    """Seed the default generator, as torch.manual_seed does: the same seed gives torch's values."""
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the operating system's randomness; return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: a ByteTensor laid out as torch's."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, **_):
    """Run a block and give the default generator its state back afterwards."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def generator_or_default(generator) -> Generator:
    """The generator a sampling function was given, else the default one."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(
            f"generator must be a torch.Generator, not {type(generator).__name__} "
            "(make one with torch.Generator().manual_seed(seed))"
        )
    return generator


def cast(values: np.ndarray, dtype) -> np.ndarray:
    """values in dtype as C++ converts them: float16 through float32 (c10::Half takes a float)."""
    dtype = np.dtype(dtype)
    if dtype == np.float16 and values.dtype != f32:
        values = values.astype(f32)
    return values.astype(dtype, copy=False)


# -- uniform floats (uniform_real in TransformationHelper.h) ------------------------------------
def unit_float32(gen: Generator, n: int) -> np.ndarray:
    """n float32 in [0, 1): a word's low 24 bits over 2**24."""
    return (gen.words(n) & np.uint64(0xFFFFFF)).astype(f32) * f32(2.0**-24)


def unit_float64(gen: Generator, n: int) -> np.ndarray:
    """n float64 in [0, 1): a 64-bit draw's low 53 bits over 2**53."""
    return (gen.words64(n) & np.uint64(2**53 - 1)).astype(f64) * 2.0**-53


def uniform(gen: Generator, n: int, dtype, low: float, high: float) -> np.ndarray:
    """uniform_(low, high): x * (high - low) + low with one rounding, in the dtype's
    precision (float16's in float32, then rounded); a value that rounds up to high is low."""
    dtype = np.dtype(dtype)
    if dtype == f64:
        x = unit_float64(gen, n)
        if (low, high) == (0, 1):
            return x
        x = fma64(x, f64(high) - f64(low), low)
    else:
        x = unit_float32(gen, n)
        if (low, high) == (0, 1) and dtype == f32:
            return x  # below 1 - 2**-24: no rounding up
        x = fma32(x, f32(high) - f32(low), f32(low)).astype(dtype, copy=False)
    return np.where(x >= dtype.type(high), dtype.type(low), x)  # float16 may round up to 1


# -- normal -------------------------------------------------------------------------------------
def normal(gen: Generator, n: int, dtype, mean: float, std: float, contiguous=True) -> np.ndarray:
    """normal_(mean, std): Box-Muller, with the vectorised fill from 16 contiguous elements."""
    dtype = np.dtype(dtype)
    if n < 16 or not contiguous:
        return cast(normal_serial(gen, n, mean, std), dtype)
    if dtype == f64:
        return _fill16(gen, n, lambda k: unit_float64(gen, k), boxmuller.blocks_double, mean, std)
    mean32, std32 = f32(mean), f32(std)  # float16 too: its fill works in float32
    if dtype == f32:
        return _fill16(gen, n, lambda k: unit_float32(gen, k), boxmuller.blocks_avx, mean32, std32)
    return _fill16_reduced(gen, n, mean32, std32).astype(dtype)


def _fill16(gen, n, draw, blocks, mean, std) -> np.ndarray:
    """normal_fill: n uniforms, transformed 16 at a time; a ragged end redraws its last 16."""
    out = draw(n)
    whole = n - n % 16
    out[:whole] = blocks(out[:whole], mean, std)
    if whole < n:
        out[n - 16 :] = blocks(draw(16), mean, std)
    return out


def _fill16_reduced(gen, n, mean, std) -> np.ndarray:
    """float16's fill: float32 blocks drawn one after another, the last one ending at n."""
    blocks = boxmuller.blocks_avx(unit_float32(gen, -(-n // 16) * 16), mean, std)
    out = blocks[:n].copy()
    if n % 16:
        out[n - 16 :] = blocks[-16:]
    return out


def normal_serial(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """at::normal_distribution<double>, element by element: each pair gives cos now and
    keeps sin in the generator for the next value (even across calls)."""
    values = []
    if n and gen._normal is not None:
        values.append(np.array([gen._normal]))
        gen._normal = None
    fresh = n - sum(len(v) for v in values)
    pairs = -(-fresh // 2)
    if pairs:
        u = unit_float64(gen, 2 * pairs)
        cos, sin = boxmuller.pairs_double(u[0::2], u[1::2])
        both = np.stack([cos, sin], axis=1).reshape(-1)
        values.append(both[:fresh])
        if fresh % 2:
            gen._normal = float(both[-1])
    z = np.concatenate(values) if values else np.zeros(0)
    return z if (mean, std) == (0, 1) else fma64(z, std, mean)


# -- integers -------------------------------------------------------------------------------------
def integers(gen: Generator, n: int, dtype, low: int, high: int) -> np.ndarray:
    """random_(low, high), randint: (word % range) + low, with 64-bit words once the range
    reaches 2**28 (where a 32-bit word's modulo bias would show)."""
    span = high - low
    words = gen.words64(n) if span >= 2**28 else gen.words(n)
    return cast((words % np.uint64(span)).astype(np.int64) + np.int64(low), dtype)


def integers_full(gen: Generator, n: int, dtype) -> np.ndarray:
    """random_() without bounds: words modulo the dtype's range (floats: 2**digits + 1)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (gen.words(n) & np.uint64(1)).astype(dtype)
    if dtype.kind == "f":
        modulus = 2 ** np.finfo(dtype).nmant * 2 + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    words = gen.words64(n) if dtype in (np.dtype(np.int64), f64) else gen.words(n)
    return cast(words % np.uint64(modulus), dtype)


def integers_64(gen: Generator, n: int) -> np.ndarray:
    """random_(-2**63, None): every int64 value, a 64-bit word each."""
    return gen.words64(n).view(np.int64)


def permutation(gen: Generator, n: int) -> np.ndarray:
    """randperm(n): Fisher-Yates swapping i with i + word % (n - i); for huge n, 64-bit words
    and the inside-out shuffle, as torch does."""
    if n >= _BIG_PERMUTATION:
        return _permutation_inside_out(gen, n)
    if n < 2:
        return np.arange(n)
    targets = (gen.words(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
    targets += np.arange(n - 1)
    perm = list(range(n))
    for i, j in enumerate(targets.tolist()):  # each swap depends on the last: a plain loop
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm)


def _permutation_inside_out(gen: Generator, n: int) -> np.ndarray:
    picks = (gen.words64(n) % np.arange(1, n + 1, dtype=np.uint64)).astype(np.int64).tolist()
    perm = list(range(n))
    for i, z in enumerate(picks):
        perm[i] = perm[z]
        perm[z] = i
    return np.array(perm)


# -- Bernoulli, exponential, multinomial -------------------------------------------------------
def bernoulli_scalar(gen: Generator, n: int, p: float) -> np.ndarray:
    """bernoulli_(p): a double uniform below p, as bool."""
    return unit_float64(gen, n) < p


def bernoulli_tensor(gen: Generator, probs: np.ndarray) -> np.ndarray:
    """bernoulli_(probs): per element, a uniform in the probabilities' precision (float64 for
    double, else float32) below the probability."""
    flat = probs.reshape(-1)
    if flat.dtype == f64:
        return unit_float64(gen, flat.size) < flat
    return unit_float32(gen, flat.size) < flat.astype(f32)


def exponential(gen: Generator, n: int, dtype, lambd: float) -> np.ndarray:
    """exponential_(lambd): -1/lambd * log1p(-u), u a double uniform."""
    return cast((-1.0 / lambd) * libm(math.log1p, -unit_float64(gen, n)), dtype)


def cauchy(gen: Generator, n: int, dtype, median: float, sigma: float) -> np.ndarray:
    """cauchy_(median, sigma): median + sigma * tan(pi * (u - 0.5)), u a double uniform."""
    u = unit_float64(gen, n)
    return cast(median + sigma * libm(math.tan, math.pi * (u - 0.5)), dtype)


def log_normal(gen: Generator, n: int, dtype, mean: float, std: float) -> np.ndarray:
    """log_normal_(mean, std): exp of at::normal_distribution<double>'s draws."""
    return cast(libm(math.exp, normal_serial(gen, n, mean, std)), dtype)


def geometric(gen: Generator, n: int, dtype, p: float) -> np.ndarray:
    """geometric_(p): ceil(log(u) / log1p(-p)), u a double uniform (trials to a success)."""
    u = unit_float64(gen, n)
    return cast(np.ceil(libm(math.log, u) / math.log1p(-p)), dtype)


def poisson(gen: Generator, rates: np.ndarray) -> np.ndarray:
    """torch.poisson: one draw per rate, in order (torch's sample_poisson, after numpy's
    legacy sampler: Hörmann's transformed rejection from rate 10, else products of uniforms)."""
    out = np.empty(rates.size, np.float64)
    for i, lam in enumerate(rates.reshape(-1).tolist()):
        out[i] = _poisson_one(gen, lam)
    return out.reshape(rates.shape)


def _uniform(gen: Generator) -> float:
    return float(unit_float64(gen, 1)[0])


def _poisson_one(gen: Generator, lam: float) -> int:
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _uniform(gen) - 0.5
            v = _uniform(gen)
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            left = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
            if left <= -lam + k * loglam - math.lgamma(k + 1.0):
                return k
    if lam == 0:
        return 0
    enlam, x, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= _uniform(gen)
        if prod <= enlam:
            return x
        x += 1


def multinomial(gen: Generator, probs: np.ndarray, count: int, replacement: bool) -> np.ndarray:
    """torch.multinomial over the rows of a 2-d array: one draw or no replacement by the
    exponential trick (top-k of p / q, q ~ Exp(1)); otherwise inverse CDF per draw."""
    if not replacement or count == 1:
        q = exponential(gen, probs.size, probs.dtype, 1.0).reshape(probs.shape)
        keys = probs / q
        if count == 1:
            return np.argmax(keys, axis=-1)[:, None]
        return _top(keys, count)
    return np.stack([_inverse_cdf(gen, row, count) for row in probs])


def _top(keys: np.ndarray, count: int) -> np.ndarray:
    """torch.topk(keys, count).indices per row: a sort, unless equal keys compete for a place
    (zero probabilities, or two equal ratios), where torch's own algorithm decides the order."""
    order = np.argsort(-keys, axis=-1, kind="stable")
    ranked = np.take_along_axis(keys, order, axis=-1)
    upto = min(count + 1, keys.shape[-1])
    tied = np.any(ranked[:, : upto - 1] == ranked[:, 1:upto], axis=-1)
    top = order[:, :count]
    for row in np.flatnonzero(tied):
        top[row] = topk.topk_row(keys[row].tolist(), count)
    return top


def _inverse_cdf(gen: Generator, row: np.ndarray, count: int) -> np.ndarray:
    """Cumulative sums in the row's precision, normalised, the last set to 1; the first bin
    whose sum reaches a double uniform."""
    cum = np.cumsum(row, dtype=row.dtype)
    cum = cum / cum[-1]
    cum[-1] = 1
    return np.searchsorted(cum.astype(f64), unit_float64(gen, count), side="left")
