"""PyTorch's CPU samplers for the gamma, Dirichlet, Poisson and binomial distributions, one
value at a time from the generator as its kernels draw them (double uniforms and normals),
so seeded samples are torch's."""

import math

import numpy as np

from ..engine.fidelity import random
from ..engine.fidelity.random import generator_or_default, normal_serial, unit_float64

_F32 = np.float32


def _uniform(gen) -> float:
    return float(unit_float64(gen, 1)[0])


def _normal(gen) -> float:
    return float(normal_serial(gen, 1, 0.0, 1.0)[0])


def sample_gamma(alpha, gen, in_float: bool) -> float:
    """Marsaglia and Tsang's method, boosted below alpha = 1, in PyTorch's arithmetic
    (alpha's own precision for alpha + 1 and alpha - 1/3 when it is a float)."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        power = float(_F32(1) / _F32(alpha)) if in_float else 1.0 / alpha
        scale *= (1 - _uniform(gen)) ** power
        alpha = float(_F32(alpha) + _F32(1)) if in_float else alpha + 1.0
    third = _F32(1) / _F32(3)  # PyTorch writes 1.0f / 3.0f: a float even for double alpha
    d = float(_F32(alpha) - third) if in_float else alpha - float(third)
    c = 1.0 / math.sqrt(9.0 * d)
    cut = float(_F32(0.0331))
    while True:
        while True:
            x = _normal(gen)
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - _uniform(gen)
        xx = x * x
        if u < 1.0 - cut * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma(alpha: np.ndarray, generator=None) -> np.ndarray:
    """torch._standard_gamma: one gamma(alpha) sample per element, at least the tiniest
    normal number."""
    gen = generator_or_default(generator)
    in_float = alpha.dtype == np.float32
    flat = [sample_gamma(float(a), gen, in_float) for a in alpha.reshape(-1)]
    out = np.asarray(flat, np.float64).astype(alpha.dtype).reshape(alpha.shape)
    return np.maximum(out, np.finfo(alpha.dtype).tiny)


def dirichlet(alpha: np.ndarray, generator=None) -> np.ndarray:
    """torch._sample_dirichlet: gamma samples in double, normalised along the last axis."""
    gen = generator_or_default(generator)
    gammas = np.asarray([sample_gamma(float(a), gen, False) for a in alpha.reshape(-1)], np.float64)
    gammas = np.maximum(gammas, np.finfo(np.float64).tiny).reshape(alpha.shape)
    ratio = (gammas / gammas.sum(-1, keepdims=True)).astype(alpha.dtype)
    top = np.nextafter(alpha.dtype.type(1), alpha.dtype.type(0))
    return np.clip(ratio, np.finfo(alpha.dtype).tiny, top)


def poisson(rates: np.ndarray, generator=None) -> np.ndarray:
    """torch.poisson: one count per rate (the engine's sampler), in the rates' dtype."""
    counts = random.poisson(generator_or_default(generator), np.asarray(rates, np.float64))
    return counts.astype(rates.dtype)


_STIRLING = (
    0.08106146679532726,
    0.04134069595540929,
    0.02767792568499834,
    0.02079067210376509,
    0.01664469118982119,
    0.01387612882307075,
    0.01189670994589177,
    0.01041126526197209,
    0.009255462182712733,
    0.008330563433362871,
)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, prob: float, gen) -> float:
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = _uniform(gen) - 0.5
        v = _uniform(gen)
        us = 0.5 - abs(u)
        k = float(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = (
            (m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * math.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(count - k)
        )
        if v <= bound:
            return k


def _inversion(count: float, prob: float, gen) -> float:
    geom_sum, num_geom = 0.0, 0.0
    logprob = math.log1p(-prob)
    while True:
        geom = math.ceil(math.log(_uniform(gen)) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom += 1


def _binomial(count: float, prob: float, gen) -> float:
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        return _btrs(count, prob, gen) if count * prob >= 10.0 else _inversion(count, prob, gen)
    q = float(_F32(1.0) - _F32(prob))
    if count * q >= 10.0:
        return count - _btrs(count, q, gen)
    return count - _inversion(count, q, gen)


def binomial(counts: np.ndarray, probs: np.ndarray, generator=None) -> np.ndarray:
    """torch.binomial: one draw per (count, prob) pair."""
    gen = generator_or_default(generator)
    pairs = zip(counts.reshape(-1), probs.reshape(-1), strict=True)
    flat = [_binomial(float(n), float(p), gen) for n, p in pairs]
    return np.asarray(flat, np.float64).astype(probs.dtype).reshape(probs.shape)
