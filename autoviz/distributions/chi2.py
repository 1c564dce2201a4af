"""The chi-squared distribution with df degrees of freedom: Gamma(df / 2, 1 / 2)."""

from typing import ClassVar

from . import constraints
from .gamma import Gamma


class Chi2(Gamma):
    """The sum of df squared standard normals."""

    arg_constraints: ClassVar[dict] = {"df": constraints.positive}

    def __init__(self, df, validate_args=None) -> None:
        from .distribution import broadcast_all

        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2
