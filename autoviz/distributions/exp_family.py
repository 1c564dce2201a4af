"""ExponentialFamily: the base of distributions p(x) = h(x) exp(θ·T(x) - A(θ))."""

from .distribution import Distribution


class ExponentialFamily(Distribution):
    """A distribution of the exponential family (its entropy from the log normaliser)."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError
