"""PyTorch's Box-Muller normal fill, rounding as its CPU kernel rounds: fused multiply-adds and
the float32 log and sincos of the AVX2 kernel (Cephes polynomials, as avx_mathfun writes them)."""

import math

import numpy as np

from .fma import HALF29, LOW29, fma32, fma64, redo_exactly
from .libm import libm

f32 = np.float32
f64 = np.float64

# Cephes' float32 coefficients, as avx_mathfun.h (used by PyTorch's AVX2 kernel) spells them.
_SQRTHF = f32(0.707106781186547524)
_LOG_P = [
    f32(c)
    for c in (
        7.0376836292e-2,
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    )
]
_LOG_Q1, _LOG_Q2 = f32(-2.12194440e-4), f32(0.693359375)
_FOPI = f32(1.27323954473516)  # 4 / pi
_DP = (f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8))
_SINCOF = (f32(-1.9515295891e-4), f32(8.3321608736e-3), f32(-1.6666654611e-1))
_COSCOF = (f32(2.443315711809948e-005), f32(-1.388731625493765e-003), f32(4.166664568298827e-002))
_MIN_NORM = np.array([0x00800000], np.uint32).view(f32)[0]
_TWO_PI_F32 = f32(2.0 * math.pi)


def _fused(a, b, c) -> np.ndarray:
    """fma32 for float64 arrays holding float32 values, whose results stay in float32's
    normal range (the polynomials below): one rounding, to float32."""
    s = a * b
    s += c
    r = s.astype(f32)
    tie = (s.view(np.int64) & LOW29) == HALF29
    if tie.any():
        redo_exactly(r, tie, a, b, c)
    return r


def _horner(x64: np.ndarray, coefficients) -> np.ndarray:
    """((c0·x + c1)·x + c2)... with each step one FMA, as float32."""
    y = _fused(f64(coefficients[0]), x64, f64(coefficients[1]))
    for c in coefficients[2:]:
        y = _fused(y.astype(f64), x64, f64(c))
    return y


def log_avx(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's log256_ps for positive float32 x, with GCC's contractions into FMAs."""
    x = np.maximum(x, _MIN_NORM)
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 127).astype(f32) + f32(1)
    x = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(f32)  # mantissa in [.5, 1)
    small = x < _SQRTHF
    x = (x - f32(1)) + np.where(small, x, f32(0))
    e = e - small.astype(f32)
    z = x * x
    x64 = x.astype(f64)
    yx = (_horner(x64, _LOG_P) * x).astype(f64)
    y = _fused(yx, z.astype(f64), (e * _LOG_Q1).astype(f64))
    y = y - z * f32(0.5)  # exact halving: fused or not, one rounding
    return _fused(e.astype(f64), f64(_LOG_Q2), (x + y).astype(f64))


def sincos_avx(x: np.ndarray):
    """avx_mathfun's sincos256_ps for float32 x >= 0: (sin, cos), with GCC's FMAs."""
    j = ((x * _FOPI).astype(np.int32) + 1) & ~1
    y = j.astype(f64)
    for dp in _DP:
        # x - y·π/4 in three parts (Cody and Waite): y <= 8 and the parts' few bits make each
        # y·dp + x exact in float64, so rounding it to float32 is the FMA's one rounding.
        x = (y * dp + x).astype(f32)
    sin_negative = (j & 4) != 0
    cos_negative = (~(j - 2) & 4) != 0
    use_cos_poly = (j & 2) != 0  # for sin; cos takes the other polynomial
    z = x * x
    z64 = z.astype(f64)
    yc = _fused((_horner(z64, _COSCOF) * z).astype(f64), z64, -(z * f32(0.5)).astype(f64))
    yc += f32(1)
    ys = _fused((_horner(z64, _SINCOF) * z).astype(f64), x.astype(f64), x.astype(f64))
    sin = np.where(use_cos_poly, yc, ys)
    cos = np.where(use_cos_poly, ys, yc)
    np.negative(sin, out=sin, where=sin_negative)
    np.negative(cos, out=cos, where=cos_negative)
    return sin, cos


_CHUNK = 2**14  # uniforms per pass: the temporaries stay in cache and in malloc's free lists


def blocks_avx(u: np.ndarray, mean, std) -> np.ndarray:
    """normal_fill_16_AVX2 over blocks of 16 float32 uniforms: 8 cosines then 8 sines each."""
    out = np.empty_like(u)
    for start in range(0, u.size, _CHUNK):
        out[start : start + _CHUNK] = _blocks_avx(u[start : start + _CHUNK], mean, std)
    return out


def _blocks_avx(u: np.ndarray, mean, std) -> np.ndarray:
    u = u.reshape(-1, 16)
    radius = np.sqrt(f32(-2) * log_avx(f32(1) - u[:, :8]))
    sin, cos = sincos_avx(_TWO_PI_F32 * u[:, 8:])
    out = np.empty_like(u)
    if (mean, std) == (0, 1):
        np.multiply(radius, cos, out=out[:, :8])
        np.multiply(radius, sin, out=out[:, 8:])
    else:
        out[:, :8] = fma32(radius * cos, std, mean)
        out[:, 8:] = fma32(radius * sin, std, mean)
    return out.reshape(-1)


def blocks_double(u: np.ndarray, mean, std) -> np.ndarray:
    """normal_fill_16 over blocks of 16 float64 uniforms, with libm's log, cos and sin."""
    u = u.reshape(-1, 16)
    radius = np.sqrt(-2.0 * libm(math.log, 1.0 - u[:, :8]))
    theta = (2.0 * math.pi) * u[:, 8:]
    out = np.empty_like(u)
    out[:, :8] = radius * libm(math.cos, theta)
    out[:, 8:] = radius * libm(math.sin, theta)
    if (mean, std) != (0, 1):
        out = fma64(out, std, mean)
    return out.reshape(-1)


def pairs_double(u1: np.ndarray, u2: np.ndarray):
    """at::normal_distribution<double>'s Box-Muller pairs: (cosine values, sine values)."""
    radius = np.sqrt(-2.0 * libm(math.log1p, -u2))
    theta = (2.0 * math.pi) * u1
    return radius * libm(math.cos, theta), radius * libm(math.sin, theta)
