"""kl_divergence(p, q) and register_kl: closed forms registered per pair of distribution
types, found through their class hierarchies as torch finds them."""

import math

import numpy as np

from .. import engine
from ..engine.ops import linalg
from ..engine.ops.special import digamma, lgamma
from ..engine.tensor import make
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .dirichlet import Dirichlet
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .half_normal import HalfNormal
from .independent import Independent
from .laplace import Laplace
from .log_normal import LogNormal
from .multivariate_normal import MultivariateNormal, batch_mahalanobis
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import softplus, sum_rightmost

_KL_REGISTRY = {}


def register_kl(type_p, type_q):
    """A decorator: `@register_kl(Normal, Normal) def kl(p, q): ...`."""

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        return fun

    return decorator


def _dispatch(type_p, type_q):
    matches = [
        (super_p, super_q)
        for super_p, super_q in _KL_REGISTRY
        if issubclass(type_p, super_p) and issubclass(type_q, super_q)
    ]
    if not matches:
        return None
    return _KL_REGISTRY[
        min(matches, key=lambda m: (type_p.__mro__.index(m[0]), type_q.__mro__.index(m[1])))
    ]


def kl_divergence(p, q):
    """KL(p ‖ q) = E_p[log p(x) - log q(x)], batched over the distributions' batch shapes."""
    fun = _dispatch(type(p), type(q))
    if fun is None:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
            f"{type(q).__name__}"
        )
    return fun(p, q)


def _set(t, where, value):
    """t with value written where the boolean array `where` is True (as torch's t[mask] = v)."""
    if not np.any(where):
        return t
    mask = make(np.broadcast_to(where, tuple(t.shape)).copy())
    return engine.where(mask, engine.full((), value, dtype=t.dtype), t)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = _set(t1, np.asarray(q.probs._data) == 0, math.inf)
    t1 = _set(t1, np.asarray(p.probs._data) == 0, 0.0)
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = _set(t2, np.asarray(q.probs._data) == 1, math.inf)
    t2 = _set(t2, np.asarray(p.probs._data) == 1, 0.0)
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = _set(t, np.asarray(q.probs._data) == 0, math.inf)
    t = _set(t, np.asarray(p.probs._data) == 0, 0.0)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    outside = (np.asarray(q.low._data) > np.asarray(p.low._data)) | (
        np.asarray(q.high._data) < np.asarray(p.high._data)
    )
    return _set(result, outside, math.inf)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = lgamma(q.concentration) - lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = lgamma(sum_p) - lgamma(sum_q)
    t2 = (lgamma(p.concentration) - lgamma(q.concentration)).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = digamma(p.concentration) - digamma(sum_p).unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    return _kl_dirichlet_dirichlet(p._dirichlet, q._dirichlet)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * (-loc_abs_diff / p.scale).exp()
    return t1 + t2 + t3 - 1


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - (-p.probs).log1p() / p.probs - q.logits


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if np.any(np.asarray(p.total_count._data) < np.asarray(q.total_count._data)):
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    return _set(kl, np.asarray(p.total_count._data) > np.asarray(q.total_count._data), math.inf)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two Multivariate Normals with different event shapes "
            "cannot be computed"
        )
    lp, lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = lq.diagonal(dim1=-2, dim2=-1).log().sum(-1) - lp.diagonal(
        dim1=-2, dim2=-1
    ).log().sum(-1)
    k = p.event_shape[0]
    batch = np.broadcast_shapes(tuple(lp.shape[:-2]), tuple(lq.shape[:-2]))
    solved = linalg.solve_triangular(lq.expand(*batch, k, k), lp.expand(*batch, k, k), upper=False)
    term2 = solved.pow(2).sum((-2, -1))
    term3 = batch_mahalanobis(lq, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - k)
