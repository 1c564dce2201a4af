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
    """The same for float32 operands, rounded to float32: their product is exact in double;
    the sum's rounding error is kept (TwoSum) to settle the one case double rounding gets
    wrong, a sum that lands exactly halfway between two floats."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    product = a * b
    total = product + c
    back = total - product
    lost = (product - (total - back)) + (c - back)  # total + lost is exactly a·b + c
    rounded = total.astype(np.float32)
    off = total - rounded  # exact: how far rounding moved the double
    tie = np.abs(off) == np.spacing(np.abs(rounded)).astype(np.float64) / 2
    beyond = tie & (lost != 0) & (np.sign(lost) == np.sign(off))
    if np.any(beyond):  # past the midpoint: the other neighbour is the right answer
        away = np.copysign(np.inf, off).astype(np.float32)  # float32: a float's neighbour
        rounded = np.where(beyond, np.nextafter(rounded, away), rounded)
    return rounded
