"""Float64 kernels of the special functions numpy lacks, with PyTorch's values at poles and
edges: log-gamma, digamma, trigamma, Hurwitz's zeta, the incomplete gamma ratios, erfcx, the
normal quantile and the modified Bessel functions I0 and I1. Callers round to the dtype."""

import math

import numpy as np

from ..fidelity.libm import libm

_EPS = 1.11022302462515654042e-16  # Cephes's MACHEP, where torch's series stop
_PSI_10 = 2.25175258906672110764  # ψ(10)
# ψ's asymptotic series in 1/x², highest power first (torch's calc_digamma)
_PSI_SERIES = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)
# Euler–Maclaurin's divisors (2k)!/B_2k in Hurwitz's zeta (Cephes)
_ZETA_A = (
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
)


def f64(x) -> np.ndarray:
    return np.asarray(x, np.float64)


def lgamma(x):
    """log|Γ(x)|; +inf at the poles 0, -1, -2, ... (math.lgamma raises there)."""
    x = f64(x)
    pole = (x <= 0) & (x == np.floor(x))
    return np.where(pole, np.inf, libm(math.lgamma, np.where(pole, 1.0, x)))


def _digamma_from(y):
    """ψ(y) for y > 0: the recurrence up to y ≥ 10, then the asymptotic series."""
    total = np.zeros_like(y)
    for _ in range(10):
        small = y < 10
        total -= np.where(small, 1 / np.where(small, y, 1), 0)
        y = np.where(small, y + 1, y)
    z = 1 / (y * y)
    series = np.zeros_like(y)
    for a in _PSI_SERIES:
        series = series * z + a
    tail = np.where(y < 1e17, z * series, 0)
    with np.errstate(invalid="ignore"):
        return np.where(y == 10, total + _PSI_10, total + np.log(y) - 0.5 / y - tail)


def digamma(x):
    """ψ(x) = Γ'(x)/Γ(x): reflection below 0, ∓inf at ±0, NaN at the negative integers."""
    x = f64(x)
    negative = x < 0
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(negative, 1 - x, np.where(x == 0, 1, x))
        out = _digamma_from(y)
        reflected = out - math.pi / np.tan(math.pi * np.fmod(x, 1.0))
    out = np.where(negative, reflected, out)
    out = np.where(negative & (x == np.trunc(x)), np.nan, out)
    return np.where(x == 0, np.copysign(np.inf, -x), out)


def trigamma(x):
    """ψ'(x): reflection below 1/2, six steps of the recurrence, then the asymptotic series;
    float32 input in float32's roundings, as torch's float kernel makes them (near the poles
    its sin(πx) in float32 moves the result by 1e-5)."""
    x = np.asarray(x)
    f = np.float32 if x.dtype == np.float32 else np.float64
    x = x.astype(f)
    low = x < 0.5
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sin = libm(math.sin, f(math.pi) * x).astype(f)
        total = np.where(low, -(f(math.pi) * f(math.pi)) / (sin * sin), f(0))
        y = np.where(low, f(1) - x, x)
        for _ in range(6):
            total = total + f(1) / (y * y)
            y = y + f(1)
        inv2 = f64(f(1) / (y * y))
        series = f64(f(1) + f(1) / (f(2) * y)) + inv2 * (1 / 6 - inv2 * (1 / 30 - inv2 / 42))
        total = (f64(total) + series / f64(y)).astype(f)
    return np.where(low, -total, total)


def zeta(x, q):
    """Hurwitz's ζ(x, q) = Σ_k (k + q)^-x: direct terms up to q + k > 9, then Euler–Maclaurin's
    tail (Cephes's algorithm, as torch's), each element stopping where its terms vanish."""
    x, q = (np.array(a) for a in np.broadcast_arrays(f64(x), f64(q)))
    out = np.full(x.shape, np.nan)
    pole = (q <= 0) & (q == np.floor(q))
    out[(x == 1) | ((x > 1) & pole)] = np.inf
    live = (x > 1) & ~pole & ~((q <= 0) & (x != np.floor(x))) & ~np.isnan(q)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        out[live] = _zeta_sum(x[live], q[live])
    return out


def _zeta_sum(x, q):
    s, a, b = q**-x, q.copy(), np.zeros_like(q)
    done, direct, i = np.zeros(q.shape, bool), np.ones(q.shape, bool), 0
    while True:
        direct &= ~done & ((i < 9) | (a <= 9))
        if not direct.any():
            break
        i += 1
        a = np.where(direct, a + 1, a)
        b = np.where(direct, a**-x, b)
        s = np.where(direct, s + b, s)
        done |= direct & (-_EPS * s < b) & (b < _EPS * s)
    w = a
    s = np.where(done, s, s + b * w / (x - 1) - 0.5 * b)
    a, k = np.ones_like(x), np.zeros_like(x)
    for divisor in _ZETA_A:
        a = a * (x + k)
        b = b / w
        t = a * b / divisor
        s = np.where(done, s, s + t)
        done |= np.abs(t / s) < _EPS
        k += 1
        a = a * (x + k)
        b = b / w
        k += 1
    return s


def polygamma(n: int, x):
    """ψ⁽ⁿ⁾(x): digamma, trigamma, else (-1)ⁿ⁺¹ n! ζ(n + 1, x)."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    sign = 1.0 if n % 2 else -1.0
    return sign * math.exp(math.lgamma(n + 1.0)) * zeta(n + 1.0, x)


def _igamma_one(a: float, x: float, upper: bool) -> float:
    """P(a, x) (or Q = 1 - P when `upper`) for one pair, torch's edge values first: the power
    series below x = a + 1, else Legendre's continued fraction by the modified Lentz method."""
    if x < 0 or a < 0 or math.isnan(a) or math.isnan(x):
        return math.nan
    if a == 0:
        return math.nan if x <= 0 else float(not upper)
    if x == 0:
        return float(upper)
    if math.isinf(a):
        return math.nan if math.isinf(x) else float(upper)
    if math.isinf(x):
        return float(not upper)
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-17:
            n += 1
            term *= x / n
            total += term
        lower = total * front
        return 1.0 - lower if upper else lower
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * h if upper else 1.0 - front * h


_igamma = np.vectorize(_igamma_one, otypes=[np.float64])


def igamma(a, x, upper: bool = False):
    """The regularised incomplete gamma ratio P(a, x), or Q(a, x) when `upper`."""
    return _igamma(f64(a), f64(x), upper)


def _square_parts(x):
    """x² as hi + lo exactly (Dekker's split), so exp(x²) keeps its precision at large x."""
    hi = x * x
    c = 134217729.0 * x
    xh = c - (c - x)
    xl = x - xh
    return hi, ((xh * xh - hi) + 2 * xh * xl) + xl * xl


def erfcx(x):
    """exp(x²) erfc(x): directly below 26, then its asymptotic series in 1/(2x²)."""
    x = f64(x)
    hi, lo = _square_parts(np.where(x < 26, x, 0))
    with np.errstate(over="ignore", invalid="ignore"):
        direct = np.exp(hi) * (1 + lo) * libm(math.erfc, np.where(x < 26, x, 0))
        big = np.where(x >= 26, x, 26.0)
        u = 1 / (2 * big * big)
        term, series = np.ones_like(big), np.ones_like(big)
        for k in range(1, 10):
            term = -term * (2 * k - 1) * u
            series += term
        asymptotic = series / (big * math.sqrt(math.pi))
    out = np.where(x < 26, direct, asymptotic)
    out = np.where(np.isposinf(x), 0.0, np.where(np.isneginf(x), np.inf, out))
    return np.where(np.isnan(x), np.nan, out)


def ndtr(x):
    """Φ(x), the standard normal's cdf, as torch's calc_ndtr computes it."""
    t = f64(x) * math.sqrt(0.5)
    z = np.abs(t)
    y = np.where(z < math.sqrt(0.5), 0.5 + 0.5 * libm(math.erf, t), 0.5 * libm(math.erfc, z))
    return np.where((t > 0) & (z >= math.sqrt(0.5)), 1 - y, y)


def log_ndtr(x):
    """log Φ(x): through erfcx below -1, so the far left tail neither underflows nor cancels;
    float32 input with torch's float32 steps (its t² rounds in float32)."""
    x = np.asarray(x)
    f = np.float32 if x.dtype == np.float32 else np.float64
    t = x.astype(f) * f(math.sqrt(0.5))
    with np.errstate(divide="ignore", invalid="ignore"):
        left = np.log(erfcx(-t).astype(f) / f(2)).astype(f) - t * t
        right = np.log1p(-libm(math.erfc, t) / 2).astype(f)
    return np.where(x < -1, left, right)


# Acklam's rational first guess of Φ⁻¹, central part and lower tail
_CENTRAL_NUM = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269)
_CENTRAL_NUM += (-30.66479806614716, 2.506628277459239)
_CENTRAL_DEN = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972)
_CENTRAL_DEN += (-13.28068155288572, 1.0)
_TAIL_NUM = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734)
_TAIL_NUM += (4.374664141464968, 2.938163982698783)
_TAIL_DEN = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416, 1.0)


def _poly(coefficients, x):
    total = np.zeros_like(x)
    for c in coefficients:
        total = total * x + c
    return total


def ndtri(p):
    """Φ⁻¹(p): Acklam's guess for the lower half min(p, 1 - p), then Newton steps on Φ, whose
    tail erfc keeps precise; ∓inf at 0 and 1, NaN outside [0, 1]."""
    p = f64(p)
    r = np.clip(np.where(p > 0.5, 1 - p, p), 1e-320, 0.5)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.sqrt(-2 * np.log(r))
        tail = _poly(_TAIL_NUM, q) / _poly(_TAIL_DEN, q)
        c = r - 0.5
        central = c * _poly(_CENTRAL_NUM, c * c) / _poly(_CENTRAL_DEN, c * c)
        z = np.where(r < 0.02425, tail, central)
        for _ in range(3):
            density = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
            z = z - np.where(density > 0, (ndtr(z) - r) / density, 0)
    z = np.where(p > 0.5, -z, z)
    z = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, z))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, z)


def _bessel_i(nu: int, x):
    """I_ν(x) e^-|x| for ν = 0, 1: the power series up to |x| = 20, then the asymptotic one."""
    x = f64(x)
    ax = np.abs(x)
    small = np.where(ax <= 20, ax, 0.0)
    half2 = (small / 2) ** 2
    term = (small / 2) ** nu / math.factorial(nu)
    total = term.copy()
    for k in range(1, 70):
        term = term * half2 / (k * (k + nu))
        total += term
    series = total * np.exp(-small)
    big = np.where(ax > 20, ax, 21.0)
    term, total = np.ones_like(big), np.ones_like(big)
    for k in range(1, 40):
        term = -term * (4 * nu * nu - (2 * k - 1) ** 2) / (8 * k * big)
        total += term
    asymptotic = total / np.sqrt(2 * math.pi * big)
    out = np.where(ax <= 20, series, np.where(np.isinf(ax), 0.0, asymptotic))
    return np.where(np.isnan(x), np.nan, np.copysign(out, x) if nu else out)


def i0e(x):
    return _bessel_i(0, x)


def i1e(x):
    return _bessel_i(1, x)


def i0(x):
    """I0(x) (numpy's Cephes kernel)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.i0(f64(x))


def i1(x):
    x = f64(x)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(np.isinf(x), np.nan, i1e(x) * np.exp(np.abs(x)))  # torch's NaN
