"""a·b + c rounded once, as the fused multiply-add of PyTorch's vector kernels computes it
(numpy has no FMA): error-free transformations in float64, exact rationals for the rest."""

import math
import struct

import numpy as np

f32 = np.float32
f64 = np.float64


LOW29, HALF29 = np.int64(2**29 - 1), np.int64(2**28)  # the bits float64 has beyond float32
_F32_TINY = float(np.finfo(f32).tiny)
_F64_SAFE_LOW, _F64_SAFE_HIGH = 2.0**-960, 2.0**995  # Dekker's split neither under- nor overflows


def _odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """Round-to-odd of s + err, where s = round(s + err) and err is its exact error."""
    bits = s.view(np.int64)
    inexact_even = (err != 0) & ((bits & 1) == 0)
    away = np.signbit(s) == np.signbit(err)  # the exact value is further from zero than s
    return np.where(inexact_even, bits + np.where(away, 1, -1), bits).view(f64)


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma32(a, b, c) -> np.ndarray:
    """float32 a*b + c rounded once, as an FMA instruction does."""
    a, b, c = (np.asarray(v).astype(f64, copy=False) for v in (a, b, c))
    s = a * b  # exact: two 24-bit mantissas
    s += c
    r = s.astype(f32)
    # Rounding s to float32 is the one rounding unless s is exactly halfway between two
    # float32 (the sum to double may have rounded onto the midpoint) or falls below float32's
    # normal range: redo those few exactly.
    bits = s.view(np.int64)
    redo = (bits & LOW29) == HALF29
    redo |= (np.abs(s) < _F32_TINY) & (s != 0)
    if redo.any():
        redo_exactly(r, redo, a, b, c)
    return r


def redo_exactly(r: np.ndarray, redo: np.ndarray, a, b, c) -> None:
    """Recompute r's flagged elements exactly (the few where rounding twice could differ)."""
    i = np.flatnonzero(redo)
    a, b, c = (
        np.full(i.size, v) if np.ndim(v) == 0 else np.broadcast_to(v, r.shape).reshape(-1)[i]
        for v in (a, b, c)
    )
    r.reshape(-1)[i] = _fma32_exact(a, b, c) if i.size > 16 else _fma32_few(a, b, c)


def _fma32_few(a, b, c) -> np.ndarray:
    """_fma32_exact for a handful of elements, in Python floats (numpy calls cost more)."""
    out = []
    for x, y, z in zip(a.tolist(), b.tolist(), c.tolist(), strict=True):
        p = x * y  # exact
        s = p + z
        bb = s - p
        err = (p - (s - bb)) + (z - bb)
        if err and not struct.unpack("<q", struct.pack("<d", s))[0] & 1:
            s = math.nextafter(s, math.inf if err > 0 else -math.inf)  # round to odd
        out.append(s)
    return np.array(out).astype(f32)


def _fma32_exact(a, b, c) -> np.ndarray:
    s, err = _two_sum(a * b, c)
    return _odd(s, err).astype(f32)  # odd rounding to 53 bits, then to 24: one rounding


def fma64(a, b, c) -> np.ndarray:
    """float64 a*b + c rounded once (Boldo and Melquiond's emulation, through round-to-odd)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, f64) for v in (a, b, c)))
    uh, ul = _two_prod(a, b)
    th, tl = _two_sum(c, ul)
    vh, vl = _two_sum(uh, th)
    w, werr = _two_sum(tl, vl)
    out = vh + _odd(w, werr)
    # The error-free steps need normal numbers and no overflow: redo the rest exactly.
    extreme = ~((np.abs(uh) > _F64_SAFE_LOW) | (uh == 0)) | (np.abs(uh) > _F64_SAFE_HIGH)
    extreme |= ~((np.abs(c) > _F64_SAFE_LOW) | (c == 0)) | ~np.isfinite(out)
    if extreme.any():
        out = np.array(out)
        triples = zip(a[extreme], b[extreme], c[extreme], strict=True)
        out[extreme] = [_fma_exact(*v) for v in triples]
    return out


def _fma_exact(a: float, b: float, c: float) -> float:
    """a*b + c rounded once, through exact rationals (Python rounds int / int correctly)."""
    from fractions import Fraction  # rarely needed, and slow to import

    if not all(map(math.isfinite, (a, b, c))):
        return a * b + c
    return float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
