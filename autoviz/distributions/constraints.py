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

    def check(self, value) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__.lstrip("_") + "()"


class _Real(Constraint):
    def check(self, value):
        x = _data(value)
        return x == x  # everything but NaN

    def __repr__(self) -> str:
        return "Real()"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        x = _data(value)
        return (x == 0) | (x == 1)

    def __repr__(self) -> str:
        return "Boolean()"


class _GreaterThan(Constraint):
    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < _data(value)

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={_show(self.lower_bound)})"


class _LessThan(Constraint):
    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def check(self, value):
        return _data(value) < _data(self.upper_bound)

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={_show(self.upper_bound)})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        x = _data(value)
        return (_data(self.lower_bound) <= x) & (x <= _data(self.upper_bound))

    def __repr__(self) -> str:
        lo, hi = _show(self.lower_bound), _show(self.upper_bound)
        return f"Interval(lower_bound={lo}, upper_bound={hi})"


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        x = _data(value)
        return (x % 1 == 0) & (self.lower_bound <= x) & (x <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    @_quiet
    def check(self, value):
        x = _data(value)
        return np.all(x >= 0, axis=-1) & (np.abs(x.sum(-1) - 1) < 1e-6)

    def __repr__(self) -> str:
        return "Simplex()"


class _IndependentReal(Constraint):
    """Real values, checked over the last dimension as one event."""

    event_dim = 1

    def check(self, value):
        x = _data(value)
        return np.all(x == x, axis=-1)

    def __repr__(self) -> str:
        return "IndependentConstraint(Real(), 1)"


class _Multinomial(Constraint):
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def check(self, value):
        x = _data(value)
        return np.all(x >= 0, axis=-1) & (x.sum(-1) <= self.upper_bound)

    def __repr__(self) -> str:
        return "Multinomial()"


def _show(bound) -> str:
    """A bound as torch prints it: a number, or a tensor's own text."""
    return repr(float(bound)) if not isinstance(bound, Tensor) else f"{bound}"


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
