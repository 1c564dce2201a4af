"""The in-place kernels PyTorch's optimizers are written with, rounded as its CPU kernels
round them: add with alpha, addcmul and lerp are one fused multiply-add each there
(vectorised), so here too; addcdiv is (value · t1) / t2 added, two roundings."""

import numpy as np

from ..engine.fidelity.fma import fma32, fma64


def fma(a, b, c):
    """a · b + c rounded once, in c's precision."""
    dtype = np.result_type(c)
    if dtype == np.float32:
        return fma32(np.float32(a) if np.ndim(a) == 0 else a, b, c)
    if dtype == np.float64:
        return fma64(a, b, c)
    return a * b + c


def add_(self, other, alpha=1.0) -> None:
    """self ← self + alpha · other (Tensor.add_(other, alpha=...))."""
    self[...] = fma(alpha, other, self)


def added(self, other, alpha=1.0):
    """self + alpha · other, a new array (Tensor.add(other, alpha=...))."""
    return fma(alpha, other, self).astype(np.result_type(self), copy=False)


def addcmul_(self, t1, t2, value=1.0) -> None:
    """self ← self + value · t1 · t2."""
    self[...] = fma(np.asarray(value, np.result_type(self)) * t1, t2, self)


def addcdiv_(self, t1, t2, value=1.0) -> None:
    """self ← self + value · t1 / t2."""
    self += np.asarray(value, np.result_type(self)) * t1 / t2


def lerp_(self, end, weight: float) -> None:
    """self ← self + weight · (end - self) (from end's side for weight ≥ ½)."""
    diff = end - self
    if abs(weight) < 0.5:
        self[...] = fma(weight, diff, self)
    else:
        self[...] = fma(weight - 1, diff, end)
