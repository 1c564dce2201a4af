"""`torch.linalg`: norms, determinants, inverses, solving, decompositions (autoviz's engine)."""

from .engine.ops.linalg import (
    LinAlgError,
    cholesky,
    cholesky_ex,
    cross,
    det,
    eigh,
    eigvalsh,
    inv,
    inv_ex,
    matmul,
    matrix_norm,
    matrix_power,
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
from .engine.ops.linalg import linalg_diagonal as diagonal
from .engine.ops.linalg import linalg_norm as norm

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "inv_ex",
    "matmul",
    "matrix_norm",
    "matrix_power",
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
