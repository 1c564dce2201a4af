"""a·b + c rounded once, as the fused multiply-add of PyTorch's AVX2 kernels computes it."""

import math

import numpy as np

_SPLIT = 134217729.0  # 2**27 + 1: splits a double into two halves of 26 bits


def _halves(x):
    t = _SPLIT * x
    high = t - (t - x)
    return high, x - high


def fma(a, b, c):
    """Elementwise a·b + c in float64, rounded once: the product kept exactly as the sum of
    two doubles (Dekker), and the three terms summed exactly by math.fsum."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    product = a * b
    (ah, al), (bh, bl) = _halves(a), _halves(b)
    error = ((ah * bh - product) + ah * bl + al * bh) + al * bl
    terms = zip(product.ravel().tolist(), error.ravel().tolist(), c.ravel().tolist(), strict=True)
    sums = map(math.fsum, terms)
    return np.fromiter(sums, np.float64, product.size).reshape(product.shape)


def fma32(a, b, c):
    """The same for float32 operands: their product is exact in float64, one rounding left."""
    return np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)
