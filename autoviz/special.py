"""`torch.special`: the gamma family, the normal distribution's functions, Bessel's I0 and I1,
entropy terms, and torch.special's names for the engine's other pointwise ops."""

from .engine.ops.arithmetic import xlogy
from .engine.ops.pointwise import erf, erfc, erfinv, exp2, expm1, log1p, logit, round, sinc
from .engine.ops.pointwise import sigmoid as expit
from .engine.ops.reductions import log_softmax, logsumexp, softmax
from .engine.ops.special import (
    digamma,
    entr,
    erfcx,
    i0,
    i0e,
    i1,
    i1e,
    log_ndtr,
    ndtr,
    ndtri,
    polygamma,
    xlog1py,
    zeta,
)
from .engine.ops.special import digamma as psi
from .engine.ops.special import igamma as gammainc
from .engine.ops.special import igammac as gammaincc
from .engine.ops.special import lgamma as gammaln
from .engine.ops.special import mvlgamma as multigammaln

__all__ = [
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "sinc",
    "softmax",
    "xlog1py",
    "xlogy",
    "zeta",
]


def __getattr__(name: str):
    from .torchnames import module_attribute

    raise module_attribute("torch.special", name)
