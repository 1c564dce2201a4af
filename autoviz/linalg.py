"""`torch.linalg`: norms, determinants, inverses, solving, decompositions (autoviz's engine)."""

from .engine.ops.linalg import (
    cross,
    det,
    eigh,
    eigvalsh,
    inv,
    matmul,
    matrix_norm,
    matrix_power,
    multi_dot,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    vector_norm,
)
from .engine.ops.linalg import linalg_norm as norm

__all__ = [
    "cross",
    "det",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "vector_norm",
]


def __getattr__(name: str):
    from .torchnames import module_attribute

    raise module_attribute("torch.linalg", name)
