"""biject_to and transform_to: the transform from unconstrained reals onto a constraint's set."""

from . import constraints, transforms


class ConstraintRegistry:
    """A registry from constraints to factories of transforms."""

    def __init__(self) -> None:
        self._registry = {}

    def register(self, constraint, factory=None):
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        key = constraint if isinstance(constraint, type) else type(constraint)
        self._registry[key] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints"
            ) from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()

for registry in (biject_to, transform_to):
    registry.register(type(constraints.real), lambda c: transforms.identity_transform)
    registry.register(
        type(constraints.positive),
        lambda c: transforms.ComposeTransform(
            [transforms.ExpTransform(), transforms.AffineTransform(c.lower_bound, 1)]
        ),
    )
    registry.register(
        type(constraints.nonnegative),
        lambda c: transforms.ComposeTransform(
            [transforms.ExpTransform(), transforms.AffineTransform(c.lower_bound, 1)]
        ),
    )
    registry.register(
        type(constraints.less_than(0.0)),
        lambda c: transforms.ComposeTransform(
            [transforms.ExpTransform(), transforms.AffineTransform(c.upper_bound, -1)]
        ),
    )
    registry.register(
        type(constraints.unit_interval),
        lambda c: transforms.ComposeTransform(
            [
                transforms.SigmoidTransform(),
                transforms.AffineTransform(c.lower_bound, c.upper_bound - c.lower_bound),
            ]
        ),
    )
    registry.register(
        type(constraints.lower_cholesky), lambda c: transforms.LowerCholeskyTransform()
    )
biject_to.register(type(constraints.simplex), lambda c: transforms.StickBreakingTransform())
transform_to.register(type(constraints.simplex), lambda c: transforms.SoftmaxTransform())
transform_to.register(
    type(constraints.positive_definite), lambda c: transforms.PositiveDefiniteTransform()
)
biject_to.register(type(constraints.corr_cholesky), lambda c: transforms.CorrCholeskyTransform())
transform_to.register(type(constraints.corr_cholesky), lambda c: transforms.CorrCholeskyTransform())
