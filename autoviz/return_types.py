"""`torch.return_types`: the named tuples ops such as max(dim) and sort return."""

from .engine.ops.arithmetic import ReturnFrexp as frexp
from .engine.ops.indexing import ReturnSort as sort
from .engine.ops.indexing import ReturnTopk as topk
from .engine.ops.linalg import ReturnCholeskyEx as linalg_cholesky_ex
from .engine.ops.linalg import ReturnEigh as linalg_eigh
from .engine.ops.linalg import ReturnInvEx as linalg_inv_ex
from .engine.ops.linalg import ReturnLstsq as linalg_lstsq
from .engine.ops.linalg import ReturnQr as linalg_qr
from .engine.ops.linalg import ReturnSlogdet as linalg_slogdet
from .engine.ops.linalg import ReturnSolveEx as linalg_solve_ex
from .engine.ops.linalg import ReturnSvd as linalg_svd
from .engine.ops.linalg import ReturnSvdV as svd
from .engine.ops.linalg import ReturnTriangularSolve as triangular_solve
from .engine.ops.reductions import ReturnAminmax as aminmax
from .engine.ops.reductions import ReturnCummax as cummax
from .engine.ops.reductions import ReturnCummin as cummin
from .engine.ops.reductions import ReturnHistogram as histogram
from .engine.ops.reductions import ReturnHistogramdd as histogramdd
from .engine.ops.reductions import ReturnKthvalue as kthvalue
from .engine.ops.reductions import ReturnMax as max
from .engine.ops.reductions import ReturnMedian as median
from .engine.ops.reductions import ReturnMin as min
from .engine.ops.reductions import ReturnMode as mode
from .engine.ops.reductions import ReturnNanmedian as nanmedian

__all__ = [
    "aminmax", "cummax", "cummin", "frexp", "histogram", "histogramdd", "kthvalue",
    "linalg_cholesky_ex", "linalg_eigh", "linalg_inv_ex", "linalg_lstsq", "linalg_qr",
    "linalg_slogdet", "linalg_solve_ex", "linalg_svd", "max", "median", "min", "mode",
    "nanmedian", "sort", "svd", "topk", "triangular_solve",
]  # fmt: skip
