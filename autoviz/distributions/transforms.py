"""Transforms of random variables (y = f(x)) with the log-determinant of their Jacobian, the
building blocks of TransformedDistribution; composed and inverted as torch's are."""

import math
import numbers

import numpy as np

from .. import engine
from ..engine.ops import linalg
from ..engine.tensor import Tensor, make
from . import constraints
from .utils import softplus, tril_matrix_to_vec, vec_to_tril_matrix

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


def _sum_rightmost(value, dim: int):
    if dim == 0:
        return value
    return value.reshape(*value.shape[: value.ndim - dim], -1).sum(-1)


class Transform:
    """y = f(x): __call__, inv (the inverse transform), log_abs_det_jacobian(x, y)."""

    bijective = False
    domain = constraints.real
    codomain = constraints.real
    sign = 1

    def __init__(self, cache_size=0) -> None:
        self._cache_size = cache_size
        self._inv = None

    @property
    def event_dim(self) -> int:
        return max(self.domain.event_dim, self.codomain.event_dim)

    @property
    def inv(self):
        inv = self._inv
        if inv is None:
            inv = _InverseTransform(self)
            self._inv = inv
        return inv

    def __call__(self, x):
        return self._call(x)

    def _inv_call(self, y):
        return self._inverse(y)

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    """x = f⁻¹(y), with the negated log-determinant."""

    def __init__(self, transform) -> None:
        super().__init__()
        self._inv = transform

    @property
    def domain(self):
        return self._inv.codomain

    @property
    def codomain(self):
        return self._inv.domain

    @property
    def bijective(self):
        return self._inv.bijective

    @property
    def sign(self):
        return self._inv.sign

    @property
    def inv(self):
        return self._inv

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def __repr__(self) -> str:
        return f"_InverseTransform({self._inv!r})"


class ComposeTransform(Transform):
    """Several transforms applied one after the other."""

    def __init__(self, parts, cache_size=0) -> None:
        super().__init__(cache_size)
        self.parts = list(parts)

    @property
    def domain(self):
        return self.parts[0].domain if self.parts else constraints.real

    @property
    def codomain(self):
        return self.parts[-1].codomain if self.parts else constraints.real

    @property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @property
    def sign(self):
        s = 1
        for p in self.parts:
            s = s * p.sign
        return s

    @property
    def inv(self):
        return ComposeTransform([p.inv for p in reversed(self.parts)])

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return engine.zeros_like(x)
        total = 0
        for part in self.parts:
            y_part = part(x)
            term = part.log_abs_det_jacobian(x, y_part)
            total = total + _sum_rightmost(term, self.event_dim - part.event_dim)
            x = y_part
        return total

    def __repr__(self) -> str:
        inner = ",\n    ".join(repr(p) for p in self.parts)
        return f"ComposeTransform(\n    {inner}\n)"


identity_transform = ComposeTransform([])


class ExpTransform(Transform):
    """y = exp(x)."""

    bijective, sign = True, 1
    codomain = constraints.positive

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """y = x ** exponent (for positive x)."""

    bijective = True
    domain = constraints.positive
    codomain = constraints.positive

    def __init__(self, exponent, cache_size=0) -> None:
        super().__init__(cache_size)
        (self.exponent,) = _tensors(exponent)

    @property
    def sign(self):
        return self.exponent.sign()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()


class SigmoidTransform(Transform):
    """y = σ(x)."""

    bijective, sign = True, 1
    codomain = constraints.unit_interval

    def _call(self, x):
        eps = float(np.finfo(x._data.dtype).eps)
        return x.sigmoid().clamp(min=eps, max=1 - eps)

    def _inverse(self, y):
        eps = float(np.finfo(y._data.dtype).eps)
        y = y.clamp(min=eps, max=1 - eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus

        return -softplus(-x) - softplus(x)


class SoftplusTransform(Transform):
    """y = log(1 + exp(x))."""

    bijective, sign = True, 1
    codomain = constraints.positive

    def _call(self, x):
        from ..nn.functional import softplus

        return softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus

        return -softplus(-x)


class TanhTransform(Transform):
    """y = tanh(x)."""

    bijective, sign = True, 1
    codomain = constraints.interval(-1.0, 1.0)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return 0.5 * ((1 + y).log() - (1 - y).log())

    def log_abs_det_jacobian(self, x, y):
        from ..nn.functional import softplus

        return 2.0 * (math.log(2.0) - x - softplus(-2.0 * x))


class AbsTransform(Transform):
    """y = |x| (not bijective: its inverse is the positive branch)."""

    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    """y = loc + scale · x."""

    bijective = True

    def __init__(self, loc, scale, event_dim=0, cache_size=0) -> None:
        super().__init__(cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @property
    def domain(self):
        return (
            constraints.real
            if self._event_dim == 0
            else constraints.independent(constraints.real, self._event_dim)
        )

    codomain = domain

    @property
    def sign(self):
        if isinstance(self.scale, numbers.Real):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        scale = self.scale
        if isinstance(scale, numbers.Real):
            result = engine.full_like(x, math.log(abs(scale)))
        else:
            result = scale.abs().log()
        if self._event_dim:
            result = _sum_rightmost(result, self._event_dim)
        return (
            result.expand(*x.shape[: x.ndim - self._event_dim])
            if isinstance(result, Tensor)
            else result
        )


class SoftmaxTransform(Transform):
    """x to the simplex by softmax over the last axis (not bijective)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, keepdim=True).values).exp()
        return probs / probs.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()


class StickBreakingTransform(Transform):
    """R^(K-1) to the K-simplex by breaking a stick (bijective)."""

    bijective = True
    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        offset = x.shape[-1] + 1 - make(np.cumsum(np.ones(x.shape[-1:], x._data.dtype)))
        z = (x - offset.log()).sigmoid()
        z_cumprod = (-z).log1p().cumsum(-1).exp()  # Π(1 - z) along the stick
        from ..nn.functional import pad

        return pad(z, [0, 1], value=1) * pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - make(np.cumsum(np.ones(y_crop.shape[-1:], y._data.dtype)))
        sf = 1 - y_crop.cumsum(-1)
        eps = float(np.finfo(y._data.dtype).tiny)
        sf = sf.clamp(min=eps)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        offset = x.shape[-1] + 1 - make(np.cumsum(np.ones(x.shape[-1:], x._data.dtype)))
        x = x - offset.log()
        from ..nn.functional import logsigmoid

        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        return (*shape[:-1], shape[-1] + 1)

    def inverse_shape(self, shape):
        return (*shape[:-1], shape[-1] - 1)


class LowerCholeskyTransform(Transform):
    """A square matrix to a lower-triangular one with a positive diagonal."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        n = x.shape[-1]
        strict = make(np.tril(np.ones((n, n), x._data.dtype), -1))
        eye = make(np.eye(n, dtype=x._data.dtype))
        diag = (x * eye).sum(-1).exp()
        return x * strict + diag.unsqueeze(-1) * eye

    def _inverse(self, y):
        n = y.shape[-1]
        strict = make(np.tril(np.ones((n, n), y._data.dtype), -1))
        eye = make(np.eye(n, dtype=y._data.dtype))
        return y * strict + (y * eye).sum(-1).log().unsqueeze(-1) * eye


class PositiveDefiniteTransform(Transform):
    """A square matrix to a positive-definite one: L Lᵀ of its LowerCholeskyTransform."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other):
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x):
        low = LowerCholeskyTransform()(x)
        return low @ low.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(linalg.cholesky(y))


class CorrCholeskyTransform(Transform):
    """A vector of D(D-1)/2 reals to the Cholesky factor of a D × D correlation matrix: each
    row of tanh'd entries broken like a stick (signed) into a unit vector."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        x = engine.tanh(x)
        eps = float(np.finfo(x._data.dtype).eps)
        r = vec_to_tril_matrix(x.clamp(min=-1 + eps, max=1 - eps), diag=-1)
        remaining = (1 - r**2).sqrt().cumprod(-1)
        r = r + engine.eye(r.shape[-1], dtype=r.dtype)
        return r * _shift_right(remaining)

    def _inverse(self, y):
        left = _shift_right(1 - engine.cumsum(y * y, dim=-1))
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(left, diag=-1).sqrt()
        return (t.log1p() - t.neg().log1p()) / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        left = tril_matrix_to_vec(1 - (y * y).cumsum(dim=-1), diag=-2)
        stick = 0.5 * left.log().sum(-1)
        tanh = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick + tanh

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (d, d)  # noqa: RUF005 (a Size stays a Size, as in torch)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)  # noqa: RUF005 (the input's type)


def _shift_right(x):
    """x[..., :-1] with a column of ones before it (F.pad(x[..., :-1], [1, 0], value=1))."""
    return engine.cat([engine.ones_like(x[..., :1]), x[..., :-1]], -1)


class CatTransform(Transform):
    """Transforms applied to consecutive pieces along dim, then concatenated."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0) -> None:
        super().__init__(cache_size)
        self.transforms, self.dim = list(tseq), dim
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.transforms)

    def _call(self, x):
        pieces, start = [], 0
        for t, n in zip(self.transforms, self.lengths, strict=True):
            pieces.append(t(_narrow(x, self.dim, start, n)))
            start += n
        return engine.cat(pieces, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        pieces, start = [], 0
        for t, n in zip(self.transforms, self.lengths, strict=True):
            xs, ys = _narrow(x, self.dim, start, n), _narrow(y, self.dim, start, n)
            pieces.append(t.log_abs_det_jacobian(xs, ys))
            start += n
        return engine.cat(pieces, dim=self.dim)


def _narrow(t, dim, start, length):
    dim = dim % t.ndim
    return t[(slice(None),) * dim + (slice(start, start + length),)]


class StackTransform(Transform):
    """Transforms applied to the slices along dim, then stacked."""

    def __init__(self, tseq, dim=0, cache_size=0) -> None:
        super().__init__(cache_size)
        self.transforms, self.dim = list(tseq), dim

    def _call(self, x):
        slices = engine.unbind(x, self.dim)
        return engine.stack([t(s) for t, s in zip(self.transforms, slices, strict=True)], self.dim)

    def log_abs_det_jacobian(self, x, y):
        xs, ys = engine.unbind(x, self.dim), engine.unbind(y, self.dim)
        return engine.stack(
            [t.log_abs_det_jacobian(a, b) for t, a, b in zip(self.transforms, xs, ys, strict=True)],
            self.dim,
        )


class IndependentTransform(Transform):
    """A transform whose rightmost reinterpreted_batch_ndims dims become event dims."""

    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0) -> None:
        super().__init__(cache_size)
        self.base_transform, self.reinterpreted_batch_ndims = (
            base_transform,
            reinterpreted_batch_ndims,
        )

    @property
    def event_dim(self) -> int:
        return self.base_transform.event_dim + self.reinterpreted_batch_ndims

    @property
    def bijective(self):
        return self.base_transform.bijective

    @property
    def sign(self):
        return self.base_transform.sign

    def _call(self, x):
        return self.base_transform(x)

    def _inverse(self, y):
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return _sum_rightmost(
            self.base_transform.log_abs_det_jacobian(x, y), self.reinterpreted_batch_ndims
        )


class ReshapeTransform(Transform):
    """A reshape of the rightmost dims from in_shape to out_shape."""

    bijective = True

    def __init__(self, in_shape, out_shape, cache_size=0) -> None:
        super().__init__(cache_size)
        self.in_shape, self.out_shape = tuple(in_shape), tuple(out_shape)
        if math.prod(self.in_shape) != math.prod(self.out_shape):
            raise ValueError("in_shape, out_shape have different numbers of elements")

    def _call(self, x):
        batch = x.shape[: x.ndim - len(self.in_shape)]
        return x.reshape(*batch, *self.out_shape)

    def _inverse(self, y):
        batch = y.shape[: y.ndim - len(self.out_shape)]
        return y.reshape(*batch, *self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        batch = x.shape[: x.ndim - len(self.in_shape)]
        return engine.zeros(batch, dtype=x.dtype)


class CumulativeDistributionTransform(Transform):
    """y = F(x), the cumulative distribution function of a distribution."""

    bijective, sign = True, 1
    codomain = constraints.unit_interval

    def __init__(self, distribution, cache_size=0) -> None:
        super().__init__(cache_size)
        self.distribution = distribution

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)


def _tensors(*values):
    return tuple(v if isinstance(v, Tensor) else engine.tensor(float(v)) for v in values)


def __getattr__(name: str):
    from ..torchnames import module_attribute

    raise module_attribute("torch.distributions.transforms", name)
