"""`torch.distributions.constraints`: the sets parameters and values must lie in, printed as
torch prints them (they appear in validation errors)."""

import numpy as np

from ..engine.tensor import Tensor


def _data(value) -> np.ndarray:
    return np.asarray(value._data if isinstance(value, Tensor) else value)


def _quiet(check):
    """A check that says nothing about inf - inf or NaN comparisons: they are just invalid."""

    def run(self, value):
        with np.errstate(invalid="ignore"):
            return check(self, value)

    return run


class Constraint:
    """A set: `check(value)` is a bool array, True where value is in it."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        """A bool tensor: True where value is in the set (over the event dims)."""
        from ..engine.tensor import make

        return make(np.asarray(self._check(value)))

    def _check(self, value) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__.lstrip("_") + "()"


class _Real(Constraint):
    def _check(self, value):
        x = _data(value)
        return x == x  # everything but NaN

    def __repr__(self) -> str:
        return "Real()"


class _Boolean(Constraint):
    is_discrete = True

    def _check(self, value):
        x = _data(value)
        return (x == 0) | (x == 1)

    def __repr__(self) -> str:
        return "Boolean()"


class _GreaterThan(Constraint):
    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound

    def _check(self, value):
        return self.lower_bound < _data(value)

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={_show(self.lower_bound)})"


class _LessThan(Constraint):
    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def _check(self, value):
        return _data(value) < _data(self.upper_bound)

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={_show(self.upper_bound)})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def _check(self, value):
        x = _data(value)
        return (_data(self.lower_bound) <= x) & (x <= _data(self.upper_bound))

    def __repr__(self) -> str:
        lo, hi = _show(self.lower_bound), _show(self.upper_bound)
        return f"Interval(lower_bound={lo}, upper_bound={hi})"


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def _check(self, value):
        x = _data(value)
        return (x % 1 == 0) & (self.lower_bound <= x) & (x <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    @_quiet
    def _check(self, value):
        x = _data(value)
        return np.all(x >= 0, axis=-1) & (np.abs(x.sum(-1) - 1) < 1e-6)

    def __repr__(self) -> str:
        return "Simplex()"


class _IndependentReal(Constraint):
    """Real values, checked over the last dimension as one event."""

    event_dim = 1

    def _check(self, value):
        x = _data(value)
        return np.all(x == x, axis=-1)

    def __repr__(self) -> str:
        return "IndependentConstraint(Real(), 1)"


class _Multinomial(Constraint):
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def _check(self, value):
        x = _data(value)
        return np.all(x >= 0, axis=-1) & (x.sum(-1) <= self.upper_bound)

    def __repr__(self) -> str:
        return "Multinomial()"


def _show(bound) -> str:
    """A bound as torch prints it: a number, or a tensor's own text."""
    return repr(bound) if not isinstance(bound, Tensor) else f"{bound}"


class _GreaterThanEq(Constraint):
    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound

    def _check(self, value):
        return _data(self.lower_bound) <= _data(value)

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={_show(self.lower_bound)})"


class _HalfOpenInterval(_Interval):
    def _check(self, value):
        x = _data(value)
        return (_data(self.lower_bound) <= x) & (x < _data(self.upper_bound))

    def __repr__(self) -> str:
        lo, hi = _show(self.lower_bound), _show(self.upper_bound)
        return f"HalfOpenInterval(lower_bound={lo}, upper_bound={hi})"


class _IntegerGreaterThan(Constraint):
    is_discrete = True

    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound

    def _check(self, value):
        x = _data(value)
        return (x % 1 == 0) & (x >= self.lower_bound)

    def __repr__(self) -> str:
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"


class _Independent(Constraint):
    """A constraint on the rightmost reinterpreted_batch_ndims dims as one event."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims) -> None:
        self.base_constraint, self.reinterpreted_batch_ndims = (
            base_constraint,
            reinterpreted_batch_ndims,
        )

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    def _check(self, value):
        result = self.base_constraint._check(value)
        n = self.reinterpreted_batch_ndims
        return (
            np.all(result.reshape(*result.shape[: result.ndim - n], -1), axis=-1) if n else result
        )

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _LowerCholesky(Constraint):
    event_dim = 2

    def _check(self, value):
        x = _data(value)
        lower = np.all((np.triu(x, 1) == 0).reshape(*x.shape[:-2], -1), axis=-1)
        return lower & np.all(np.diagonal(x, axis1=-2, axis2=-1) > 0, axis=-1)

    def __repr__(self) -> str:
        return "LowerCholesky()"


class _LowerTriangular(Constraint):
    event_dim = 2

    def _check(self, value):
        x = _data(value)
        return np.all((np.triu(x, 1) == 0).reshape(*x.shape[:-2], -1), axis=-1)


class _Square(Constraint):
    event_dim = 2

    def _check(self, value):
        x = _data(value)
        return np.full(x.shape[:-2], x.shape[-1] == x.shape[-2], bool)


class _Symmetric(_Square):
    def _check(self, value):
        x = _data(value)
        return super()._check(value) & np.all(
            np.isclose(x, np.swapaxes(x, -1, -2), atol=1e-6).reshape(*x.shape[:-2], -1), axis=-1
        )


class _PositiveDefinite(_Symmetric):
    def _check(self, value):
        x = _data(value)
        try:
            eig = np.linalg.eigvalsh(x)
        except np.linalg.LinAlgError:
            return np.zeros(x.shape[:-2], bool)
        return super()._check(value) & np.all(eig > 0, axis=-1)

    def __repr__(self) -> str:
        return "PositiveDefinite()"


class _CorrCholesky(Constraint):
    event_dim = 2

    def _check(self, value):
        x = _data(value)
        rows = np.linalg.norm(x, axis=-1)
        return _LowerCholesky()._check(value) & np.all(np.abs(rows - 1) <= 1e-6, axis=-1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def _check(self, value):
        x = _data(value)
        return np.all((x == 0) | (x == 1), axis=-1) & (x.sum(-1) == 1)


class _Dependent(Constraint):
    """A placeholder whose support depends on other parameters: nothing is checked."""

    def __init__(self, *, is_discrete=False, event_dim=0) -> None:
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def _check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")

    def __call__(self, *, is_discrete=None, event_dim=None):
        return _Dependent(
            is_discrete=self.is_discrete if is_discrete is None else is_discrete,
            event_dim=self.event_dim if event_dim is None else event_dim,
        )


def is_dependent(constraint) -> bool:
    return isinstance(constraint, _Dependent)


real = _Real()
boolean = _Boolean()
positive = _GreaterThan(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
real_vector = _IndependentReal()
greater_than = _GreaterThan
less_than = _LessThan
interval = _Interval
integer_interval = _IntegerInterval
multinomial = _Multinomial
nonnegative = _GreaterThanEq(0.0)
greater_than_eq = _GreaterThanEq
half_open_interval = _HalfOpenInterval
open_interval = _Interval
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_greater_than = _IntegerGreaterThan
independent = _Independent
lower_cholesky = _LowerCholesky()
lower_triangular = _LowerTriangular()
square = _Square()
symmetric = _Symmetric()
positive_definite = _PositiveDefinite()
positive_semidefinite = _PositiveDefinite()
corr_cholesky = _CorrCholesky()
one_hot = _OneHot()
dependent = _Dependent()
dependent_property = property


class _Cat(Constraint):
    """Constraints applied to consecutive pieces along dim."""

    def __init__(self, cseq, dim=0, lengths=None) -> None:
        self.cseq, self.dim = list(cseq), dim
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.cseq)

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)

    def _check(self, value):
        x = _data(value)
        pieces, start = [], 0
        for c, n in zip(self.cseq, self.lengths, strict=True):
            pieces.append(c._check(np.take(x, range(start, start + n), axis=self.dim)))
            start += n
        return np.concatenate(pieces, axis=self.dim)


class _Stack(Constraint):
    """Constraints applied to the slices along dim."""

    def __init__(self, cseq, dim=0) -> None:
        self.cseq, self.dim = list(cseq), dim

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)

    def _check(self, value):
        x = _data(value)
        return np.stack(
            [c._check(np.take(x, i, axis=self.dim)) for i, c in enumerate(self.cseq)], self.dim
        )


class MixtureSameFamilyConstraint(Constraint):
    """A mixture's support: its components' support, the component axis reduced."""

    def __init__(self, base_constraint) -> None:
        self.base_constraint = base_constraint

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim

    def _check(self, value):
        return np.all(self.base_constraint._check(value), axis=-1 - self.event_dim)


cat = _Cat
stack = _Stack
