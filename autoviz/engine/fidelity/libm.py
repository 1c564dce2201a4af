"""The C library's scalar math, element by element, where torch calls it and numpy may not."""

import numpy as np


def libm(function, x: np.ndarray) -> np.ndarray:
    """`function` (math.log, math.erf, ...) of each element of float64 `x`: the C library's
    scalar routine, as torch's double kernels call it. numpy's own float64 log, sin and cos may
    be SIMD code that rounds the last bit differently on CPUs with AVX-512."""
    x = np.asarray(x, np.float64)
    flat = x.ravel().tolist()
    return np.fromiter(map(function, flat), np.float64, len(flat)).reshape(x.shape)
