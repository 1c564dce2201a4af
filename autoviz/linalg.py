"""`torch.linalg`: norms, determinants, inverses, solving, decompositions (autoviz's engine)."""

from .engine.ops.linalg import _LinAlgError as LinAlgError
from .engine.ops.linalg import (
    cholesky,
    cholesky_ex,
    cond,
    det,
    eigh,
    eigvalsh,
    inv,
    inv_ex,
    lstsq,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
    multi_dot,
    pinv,
    qr,
    slogdet,
    solve,
    solve_ex,
    solve_triangular,
    svd,
    svdvals,
    vander,
    vecdot,
    vector_norm,
)
from .engine.ops.linalg import linalg_cross as cross
from .engine.ops.linalg import linalg_diagonal as diagonal
from .engine.ops.linalg import linalg_norm as norm

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "inv_ex",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "vander",
    "vecdot",
    "vector_norm",
]


def __getattr__(name: str):
    from .torchnames import module_attribute

    raise module_attribute("torch.linalg", name)
