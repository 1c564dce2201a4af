"""Matrix products: one backward rule, named as PyTorch names each case."""

import builtins
import functools
import math
import warnings

import numpy as np

from ..dtypes import C_TYPE_NAMES, TYPE_NAMES, from_numpy_dtype
from ..fidelity.fma import fma32
from ..grad_mode import is_grad_enabled, no_grad
from ..higher import inp, rule, sum_to
from ..tensor import make
from . import arithmetic, pointwise, reductions, shape
from .base import (
    Op,
    SeveralOutputs,
    into,
    result,
    return_type,
    to_tensor,
    unbroadcast,
    wrap_dim,
    writes_out,
)
from .base import parts as parts_of


def _shape_text(shape) -> str:
    return "x".join(map(str, shape))


def _batch_broadcast(sa, sb) -> tuple:
    """The broadcast batch shape, or PyTorch's error when the batch sizes differ."""
    out = []
    for i in range(1, max(len(sa), len(sb)) + 1):
        m = sa[-i] if i <= len(sa) else 1
        n = sb[-i] if i <= len(sb) else 1
        if m != n and m != 1 and n != 1:
            dim = max(len(sa), len(sb)) - i
            raise RuntimeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) at "
                f"non-singleton dimension {dim}"
            )
        out.append(max(m, n) if m != 0 and n != 0 else 0)
    return tuple(reversed(out))


def _fold(a, b, a_grad, b_grad):
    """Where PyTorch folds batch dims into one mm or mv (its `should_fold`): "a", "b" or None.

    "b" means b (3-D or more) is transposed and folded, a being a vector or a matrix.
    """
    da, db = np.ndim(a), np.ndim(b)
    if da >= 3 and db <= 2:
        big, side, small_grad = np.asarray(a), "a", b_grad
    elif db >= 3 and da <= 2:
        big, side, small_grad = np.swapaxes(b, -1, -2), "b", a_grad
    else:
        return None
    if small_grad:
        return side
    if side == "b" and da == 2:
        return None
    shape, strides = big.shape, big.strides
    if all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2)):
        return side
    return None


def check_matmul(a, b, a_grad=False, b_grad=False) -> None:
    """PyTorch's error when `a @ b` cannot be done, from the kernel it would have used."""
    sa, sb = np.shape(a), np.shape(b)
    if not sa or not sb:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {len(sa)}D "
            f"and {len(sb)}D"
        )
    m = sa[-1]
    k = sb[0] if len(sb) == 1 else sb[-2]
    fold = _fold(a, b, a_grad, b_grad)
    if len(sa) <= 2 and len(sb) <= 2:
        if m == k:
            return _check_dtypes(a, b, fold)
        if len(sa) == 1 and len(sb) == 1:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{m}] and src [{k}] to have the same "
                f"number of elements, but got {m} and {k} elements respectively"
            )
        rows = (1, m) if len(sa) == 1 else sa
        if len(sb) == 1:
            raise RuntimeError(
                f"size mismatch, got input ({sa[0]}), mat ({_shape_text(sa)}), vec ({k})"
            )
        _mm_error(rows, sb)
    elif fold is not None:
        if m == k:
            return _check_dtypes(a, b, fold)
        if fold == "a":
            rows = (int(np.prod(sa[:-1])), m)
            other = sb
        else:
            rows = (int(np.prod(sb[:-2])) * sb[-1], k)
            other = sa[::-1]
        if len(other) == 1:
            raise RuntimeError(
                f"size mismatch, got input ({rows[0]}), mat ({_shape_text(rows)}), vec ({other[0]})"
            )
        _mm_error(rows, other)
    else:
        batch = _batch_broadcast(sa[:-2], sb[:-2])
        if m != k:
            n = int(np.prod(batch))
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {m}] "
                f"but got: [{n}, {k}]."
            )
        _check_dtypes(a, b, fold)


def _kernel(a, b, fold) -> str:
    """The kernel PyTorch runs `a @ b` with, as its messages name it."""
    da, db = np.ndim(a), np.ndim(b)
    if da == 1 and db == 1:
        return "dot"
    if fold is None and max(da, db) >= 3:
        return "bmm"
    return "addmv_impl_cpu" if 1 in (da, db) and fold is None else "addmm_impl_cpu_"


def _check_dtypes(a, b, fold) -> None:
    """PyTorch's error when the two sides differ in dtype, from the kernel it would have used."""
    ta, tb = np.result_type(a).name, np.result_type(b).name
    if ta == tb:
        if ta == "bool":
            raise NotImplementedError(f"\"{_kernel(a, b, fold)}\" not implemented for 'Bool'")
        return
    na, nb = (TYPE_NAMES.get(t, t) for t in (ta, tb))
    da, db = np.ndim(a), np.ndim(b)
    if da == 1 and db == 1:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {na} and {nb}"
        )
    if fold == "b":  # b is transposed and goes first
        da, db, ta, tb, na, nb = db, da, tb, ta, nb, na
    if db == 1 and (da == 2 or fold is not None):
        raise RuntimeError(
            f"addmv input tensors must have the same dtype, but got {nb}, {na}, and {nb}"
        )
    if fold is None and max(da, db) >= 3:  # bmm
        raise RuntimeError(f"expected scalar type {na} but found {nb}")
    raise RuntimeError(
        f"expected m1 and m2 to have the same dtype, but got: {C_TYPE_NAMES.get(ta, ta)} != "
        f"{C_TYPE_NAMES.get(tb, tb)}"
    )


def _mm_error(sa, sb):
    raise RuntimeError(
        f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(sa)} and {_shape_text(sb)})"
    )


@functools.cache
def mkl_fuses() -> bool:
    """Whether PyTorch's MKL runs its AVX-512 kernels here (Intel processors with AVX-512),
    which add each term with a fused multiply-add; its AVX2 kernels multiply, then add."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # numpy 1
        from numpy.core._multiarray_umath import __cpu_features__
    if not __cpu_features__.get("AVX512F"):
        return False
    try:
        with open("/proc/cpuinfo") as info:
            return "AuthenticAMD" not in info.read(4096)  # MKL runs AVX2 code on AMD's
    except OSError:
        return True


def product(a, b):
    """a @ b; for the small row-major float32 matrices of lessons, added up over the inner
    dimension one term after another, which is how PyTorch's CPU BLAS rounds them (measured:
    outputs 2 to 8 columns wide, or one row, on AVX2; with one rounding per term, on AVX-512);
    numpy's BLAS otherwise."""
    if (
        np.ndim(a) == 2
        and np.ndim(b) == 2
        and a.dtype == b.dtype == np.float32
        and 1 <= a.shape[1] <= 64
        and (2 <= b.shape[1] <= 8 or (a.shape[0] == 1 and not mkl_fuses()))
        and a.flags.c_contiguous
        and b.flags.c_contiguous
    ):
        out, fused = a[:, :1] * b[:1], mkl_fuses()
        for i in range(1, a.shape[1]):
            if fused:
                out = fma32(a[:, i : i + 1], b[i : i + 1], out)
            else:
                out += a[:, i : i + 1] * b[i : i + 1]
        return out
    return np.matmul(a, b)


class Matmul(Op):
    """z = a @ b;  dL/da = g @ bᵀ, dL/db = aᵀ @ g (1-D sides treated as row/column)."""

    _backward_name = "MmBackward0"
    _saved_names = ("self", "mat2")
    _saved_for = (("self", 1), ("mat2", 0))  # torch keeps each for the other's gradient only

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.asarray(result(product(a, b), a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # As PyTorch does, no product for a side that needs no gradient (the input batch of
        # a layer): it costs as much as the forward product.
        need_a, need_b = ctx.needs_input_grad
        if np.ndim(a) == 1 and np.ndim(b) == 1:  # a dot product: the gradient is a scalar
            return grad * b if need_a else None, grad * a if need_b else None
        a2 = np.reshape(a, (1, -1)) if np.ndim(a) == 1 else a
        b2 = np.reshape(b, (-1, 1)) if np.ndim(b) == 1 else b
        g = np.expand_dims(grad, -2) if np.ndim(a) == 1 else grad
        g = np.expand_dims(g, -1) if np.ndim(b) == 1 else g
        ga = gb = None
        if need_a:
            ga = np.matmul(g, np.swapaxes(b2, -1, -2))
            ga = unbroadcast(ga, np.shape(a2)).reshape(np.shape(a))
        if need_b:
            gb = np.matmul(np.swapaxes(a2, -1, -2), g)
            gb = unbroadcast(gb, np.shape(b2)).reshape(np.shape(b))
        return ga, gb


class Dot(Matmul):
    """z = a · b for two vectors."""

    _backward_name = "DotBackward0"


class Mv(Matmul):
    """z = A @ v, matrix times vector."""

    _backward_name = "MvBackward0"


class VecMat(Matmul):
    """z = v @ A, vector times matrix (PyTorch records the squeeze it does last)."""

    _backward_name = "SqueezeBackward4"


class BatchedMatmul(Matmul):
    """z = a @ b with batch dimensions (PyTorch records the final view)."""

    _backward_name = "UnsafeViewBackward0"


class FoldedMatmul(Matmul):
    """z = A @ b for a matrix A that requires grad and a batch b (PyTorch transposes, folds b
    into one mm, and records the copy back to row-major order)."""

    _backward_name = "CloneBackward0"


def matmul_op(a, b, a_grad=False, b_grad=False):
    """Which named op PyTorch would record for `a @ b`, from the ranks and requires_grad."""
    ranks = (np.ndim(a), np.ndim(b))
    if ranks[0] == 2 and ranks[1] >= 3 and _fold(a, b, a_grad, b_grad) == "b":
        return FoldedMatmul
    return {(1, 1): Dot, (2, 2): Matmul, (2, 1): Mv, (1, 2): VecMat}.get(ranks, BatchedMatmul)


class Bmm(Matmul):
    """z = a @ b for two batches of matrices (3-D each)."""

    _backward_name = "BmmBackward0"


class Baddbmm(Op):
    """z = β·c + α·(a @ b) over a batch;  dz/dc = β, dz/da = α g @ bᵀ, dz/db = α aᵀ @ g."""

    _backward_name = "BaddbmmBackward0"

    @staticmethod
    def forward(ctx, c, a, b, beta=1, alpha=1):
        ctx.save_for_backward(a, b)
        ctx.info = (np.shape(c), beta, alpha)
        product = np.matmul(a, b)
        if product.dtype.kind in "iu":  # β and α in the integer type, as PyTorch's kernel
            beta, alpha = int(beta), int(alpha)
        return np.asarray(
            result(beta * c + alpha * product if (beta, alpha) != (1, 1) else c + product, c, a, b)
        )

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape, beta, alpha = ctx.info
        return (
            unbroadcast(grad * beta if beta != 1 else grad, shape),
            np.matmul(grad, np.swapaxes(b, -1, -2)) * alpha,
            np.matmul(np.swapaxes(a, -1, -2), grad) * alpha,
        )


class Cross(Op):
    """z = a × b along dim (3 elements);  dz/da = b × g, dz/db = g × a."""

    _backward_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim=-1):
        ctx.save_for_backward(a, b)
        ctx.info = dim
        return np.asarray(result(np.cross(a, b, axis=dim), a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        dim = ctx.info
        ga = np.cross(b, grad, axis=dim)
        gb = np.cross(grad, a, axis=dim)
        return unbroadcast(ga, np.shape(a)), unbroadcast(gb, np.shape(b))


def _t(m):
    return np.swapaxes(m, -1, -2)


class Det(Op):
    """z = det(A);  dz/dA = z · A⁻ᵀ."""

    _backward_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, a):
        out = np.asarray(np.linalg.det(a), np.result_type(a))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        g = (grad * out)[..., None, None]
        try:
            return g * _t(np.linalg.inv(a))
        except np.linalg.LinAlgError:  # singular: the adjugate, through the SVD
            u, s, vh = np.linalg.svd(a)
            others = np.stack([np.prod(np.delete(s, i, -1), -1) for i in range(s.shape[-1])], -1)
            sign = np.linalg.det(u) * np.linalg.det(vh)
            adj_t = u @ (others[..., :, None] * vh) * sign[..., None, None]
            return grad[..., None, None] * adj_t


class Inv(Op):
    """z = A⁻¹;  dz/dA · g = -zᵀ g zᵀ."""

    _backward_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, a):
        try:
            out = np.linalg.inv(a).astype(np.result_type(a))
        except np.linalg.LinAlgError:
            raise _singular("linalg.inv", a) from None
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return -_t(out) @ grad @ _t(out)


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a matrix the factorisation cannot handle (singular)."""


_LinAlgError.__module__ = "torch._C"  # as its traceback names it


def _singular(name: str, a=None):
    if name == "linalg.solve":
        return _LinAlgError(
            "torch.linalg.solve: The solver failed because the input matrix is singular."
        )
    batch, element = _zero_pivot(np.asarray(a)) if a is not None else (None, 1)
    where = f" (Batch element {batch}):" if batch is not None else ""
    return _LinAlgError(
        f"{name}:{where} The diagonal element {element} is zero, the inversion could not be "
        "completed because the input matrix is singular."
    )


def _zero_pivot(a: np.ndarray) -> tuple:
    """(batch element or None, 1-based index) of the first zero pivot LAPACK's LU with partial
    pivoting meets (its getrf's `info`), in the first singular matrix of a batch."""
    mats = _matrices(a).astype(a.dtype if a.dtype.kind == "f" else np.float64)
    for b, m in enumerate(mats):
        m = m.copy()
        for j in range(m.shape[0]):
            p = j + int(np.argmax(np.abs(m[j:, j])))
            if m[p, j] == 0:
                return (b if a.ndim > 2 else None), j + 1
            m[[j, p]] = m[[p, j]]
            m[j + 1 :] -= np.outer(m[j + 1 :, j] / m[j, j], m[j])
    return (0 if a.ndim > 2 else None), 1  # singular to numpy only: its first pivot


class Solve(Op):
    """x = A⁻¹ b;  dL/db = A⁻ᵀ g, dL/dA = -(A⁻ᵀ g) xᵀ. With left=False, x = b A⁻¹, the same
    problem for Aᵀ and bᵀ (xᵀ = A⁻ᵀ bᵀ), its gradients transposed back."""

    _backward_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx, a, b, left=True):
        if not left:
            a, b = _t(a), _t(b)
        vector = np.ndim(b) == np.ndim(a) - 1
        try:
            x = np.linalg.solve(a, b[..., None] if vector else b)
        except np.linalg.LinAlgError:
            raise _singular("linalg.solve") from None
        x = x[..., 0] if vector else x
        ctx.save_for_backward(a, x)
        ctx.info = (vector, np.shape(b), left)
        return np.asarray(x if left else _t(x), np.result_type(a, b))

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        vector, b_shape, left = ctx.info
        grad = grad if left else _t(grad)
        g = grad[..., None] if vector else grad
        gb = np.linalg.solve(_t(a), g)
        ga = -gb @ _t(x[..., None] if vector else x)
        ga, gb = unbroadcast(ga, np.shape(a)), (gb[..., 0] if vector else gb).reshape(b_shape)
        return (ga, gb) if left else (_t(ga), _t(gb))


class _Decomposition(SeveralOutputs):
    """A decomposition's outputs (U, S, Vh; eigenvalues and eigenvectors; Q, R), one node of
    several outputs as PyTorch records it: dL/dA from the gradients of those that got one."""

    @staticmethod
    def forward(ctx, a, parts=()):
        ctx.info = parts
        return tuple(parts)

    @staticmethod
    def backward(ctx, grads):
        grads = parts_of(grads)
        gradient = type(ctx)._forward_cls.gradient
        dtype = next(np.result_type(g) for g in grads if g is not None)
        return np.asarray(gradient(*ctx.info, *grads), dtype)


def _svd_parts(a, full_matrices=False):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    dtype = np.result_type(a)
    return u.astype(dtype), s.astype(dtype), vh.astype(dtype)


def _svd_backward(u, s, vh, gu, gs, gvh):
    """dL/dA for A = U diag(S) Vh (reduced, real, distinct singular values)."""
    if not u.shape[-2] or not vh.shape[-1]:  # an empty matrix: an empty gradient
        return np.zeros((*u.shape[:-1], vh.shape[-1]), s.dtype)
    if (gu is not None and u.shape[-1] != s.shape[-1]) or (
        gvh is not None and vh.shape[-2] != s.shape[-1]
    ):
        raise RuntimeError(
            "linalg_svd_backward: Computing the gradients of U and V with full_matrices=True is "
            "not supported: use full_matrices=False"
        )
    if gs is None and gu is None and gvh is None:
        return np.zeros((*u.shape[:-1], vh.shape[-1]), s.dtype)
    u, vh = u[..., : s.shape[-1]], vh[..., : s.shape[-1], :]
    v, gv = _t(vh), (None if gvh is None else _t(gvh))
    k = s.shape[-1]
    eye = np.eye(k, dtype=s.dtype)
    s2 = s[..., None, :] ** 2 - s[..., :, None] ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(eye == 1, 0, 1 / np.where(eye == 1, 1, s2))
    term = np.zeros((*u.shape[:-2], u.shape[-2], v.shape[-2]), s.dtype)
    if gs is not None:
        term = term + u @ (gs[..., :, None] * eye) @ vh
    if gu is not None:
        j = f * (_t(u) @ gu)
        term = term + u @ ((j + _t(j)) * s[..., None, :]) @ vh
        term = term + (np.eye(u.shape[-2], dtype=s.dtype) - u @ _t(u)) @ gu / s[..., None, :] @ vh
    if gv is not None:
        k_ = f * (_t(v) @ gv)
        term = term + u @ (s[..., :, None] * (k_ + _t(k_))) @ vh
        term = term + u @ _t(gv / s[..., None, :]) @ (np.eye(v.shape[-2], dtype=s.dtype) - v @ vh)
    return term


def _eigh_parts(a, uplo="L"):
    w, v = np.linalg.eigh(a, UPLO=uplo)
    return w.astype(np.result_type(a)), v.astype(np.result_type(a))


def _eigh_backward(w, v, gw, gv):
    inner = np.zeros(v.shape, w.dtype)
    if gw is not None:
        inner = inner + gw[..., :, None] * np.eye(w.shape[-1], dtype=w.dtype)
    if gv is not None:
        diff = w[..., None, :] - w[..., :, None]
        eye = np.eye(w.shape[-1], dtype=bool)
        with np.errstate(divide="ignore"):
            f = np.where(eye, 0, 1 / np.where(eye, 1, diff))
        inner = inner + f * (_t(v) @ gv)
    full = v @ inner @ _t(v)
    return (full + _t(full)) / 2


def _qr_parts(a, mode="reduced"):
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    return q.astype(np.result_type(a)), r.astype(np.result_type(a))


def _qr_backward(q, r, gq, gr):
    gq = np.zeros_like(q) if gq is None else gq
    gr = np.zeros_like(r) if gr is None else gr
    m = r @ _t(gr) - _t(gq) @ q
    lower = np.tril(m, -1)
    copyltu = (
        lower
        + _t(lower)
        + np.eye(m.shape[-1], dtype=m.dtype) * np.diagonal(m, 0, -2, -1)[..., None, :]
    )
    return _t(np.linalg.solve(r, _t(gq + q @ copyltu)))


class Svd(_Decomposition):
    """U, S or Vh of A = U diag(S) Vh;  dL/dA by Wagner's formula (distinct singular values)."""

    _backward_name = "LinalgSvdBackward0"
    gradient = staticmethod(_svd_backward)


class Eigh(_Decomposition):
    """The eigenvalues or eigenvectors of a symmetric A;  dL/dA = V (diag(gL) + F ∘ Vᵀ gV) Vᵀ."""

    _backward_name = "LinalgEighBackward0"
    gradient = staticmethod(_eigh_backward)


class Qr(_Decomposition):
    """Q or R of A = QR;  dL/dA = (gQ + Q copyltu(M)) R⁻ᵀ with M = R gRᵀ - gQᵀ Q."""

    _backward_name = "LinalgQrBackward0"
    gradient = staticmethod(_qr_backward)


class Einsum(Op):
    """z = einsum(equation, *operands);  each operand's gradient is the einsum of the output
    gradient with the other operands, back to that operand's subscripts."""

    _backward_name = "ViewBackward0"  # what torch's einsum records last (a view of a bmm)

    @staticmethod
    def forward(ctx, *operands, equation=""):
        ctx.save_for_backward(*operands)
        ctx.info = equation
        return np.asarray(result(np.einsum(equation, *operands), *operands))

    @staticmethod
    def backward(ctx, grad):
        operands = ctx.saved_tensors
        inputs, output = _parse_equation(ctx.info, operands)
        grads = []
        for k, (sub, a) in enumerate(zip(inputs, operands, strict=True)):
            if not ctx.needs_input_grad[k]:
                grads.append(None)
                continue
            others = [
                (s, o) for j, (s, o) in enumerate(zip(inputs, operands, strict=True)) if j != k
            ]
            known = set(output).union(*[set(s) for s, _ in others])
            target = "".join(c for c in sub if c in known)
            if len(set(sub)) != len(sub):
                raise RuntimeError(
                    "autoviz: einsum's gradient with a repeated index in one operand is not in "
                    "autoviz"
                )
            spec = ",".join([output] + [s for s, _ in others]) + "->" + target
            part = np.einsum(spec, grad, *[o for _, o in others])
            shape = [np.shape(a)[i] if c in target else 1 for i, c in enumerate(sub)]
            order = [c for c in sub if c in target]
            part = np.transpose(part, [target.index(c) for c in order]).reshape(shape)
            grads.append(np.broadcast_to(part, np.shape(a)).astype(np.result_type(grad)))
        return tuple(grads)


def _parse_equation(equation: str, operands):
    """(input subscripts, output subscripts) of an equation without ellipses."""
    equation = equation.replace(" ", "")
    if "..." in equation:
        raise RuntimeError("autoviz: einsum's gradient with '...' is not in autoviz yet")
    lhs, _, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if not _:
        letters = "".join(inputs)
        rhs = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return inputs, rhs


# -- the functions ---------------------------------------------------------------------------


def matmul(input, other, *, out=None):
    flags = (input._data, other._data, input.requires_grad, other.requires_grad)
    check_matmul(*flags)
    result = matmul_op(*flags).apply(input, other)
    return result if out is None else into(out, result, "matmul")


def mm(input, mat2, *, out=None):
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    return matmul(input, mat2, out=out)


def mv(input, vec, *, out=None):
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    return matmul(input, vec, out=out)


def dot(input, other, *, out=None):
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    _check_dtypes(input._data, other._data, None)  # before the sizes, as torch checks
    return matmul(input, other, out=out)


def outer(input, vec2, *, out=None):
    for name, v in (("self", input), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
    result = arithmetic.mul(shape.unsqueeze(input, 1), vec2)
    return result if out is None else into(out, result, "outer")


def bmm(input, mat2, *, out=None):
    if input.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}]."
        )
    result = Bmm.apply(input, mat2)
    return result if out is None else into(out, result, "bmm")


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    result = Baddbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha)
    return result if out is None else into(out, result, "baddbmm")


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    result = plus_scaled(input, matmul(mat1, mat2), beta, alpha)
    return result if out is None else into(out, result, "addmm")


def cross(input, other, dim=None, *, out=None):
    if dim is None:
        dims = [i for i, n in enumerate(input.shape) if n == 3]
        dim = dims[0] if dims else -1
    if input.shape[dim] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[dim]} "
            f"and {other.shape[dim]}"
        )
    result = Cross.apply(input, other, dim=dim)
    return result if out is None else into(out, result, "cross")


def linalg_cross(input, other, *, dim=-1, out=None):
    """torch.linalg.cross: the cross product along dim (the last by default)."""
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    axis = wrap_dim(dim, input.ndim)
    if input.shape[axis] != 3 or other.shape[axis] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got "
            f"{input.shape[axis]} and {other.shape[axis]}"
        )
    return cross(input, other, axis, out=out)


def _square(a, name: str) -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        rows, cols = (a.shape[-2], a.shape[-1]) if a.ndim >= 2 else (a.numel(), 1)
        raise RuntimeError(
            f"linalg.{name}: A must be batches of square matrices, but they are {rows} by "
            f"{cols} matrices"
        )


@writes_out
def det(A):
    _square(A, "det")
    return Det.apply(A)


@writes_out
def inv(A):
    _square(A, "inv")
    return Inv.apply(A)


@writes_out
def solve(A, B, *, left=True):
    _square(A, "solve")
    vector = B.ndim == A.ndim - 1 or B.ndim == 1
    rows = B.shape[-1] if vector else B.shape[-2]
    if left and rows != A.shape[-1]:
        width = 1 if vector else B.shape[-1]
        n = A.shape[-1]
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({n}x{n} and {rows}x{width})"
        )
    if not left and B.ndim == A.ndim - 1:  # a vector is a column, which X A = B cannot take
        n = A.shape[-1]
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation XA = B "
            f"({n}x{n} and {B.shape[-1]}x1)"
        )
    return Solve.apply(A, B, left=left)


_DECOMPOSITIONS = {"svd": (_svd_parts, Svd), "eigh": (_eigh_parts, Eigh), "qr": (_qr_parts, Qr)}


def _multi(a, kind: str, **params) -> tuple:
    """A decomposition's outputs as tensors, recorded as one node when a needs a gradient."""
    compute, op = _DECOMPOSITIONS[kind]
    parts = compute(np.asarray(a._data), **params)
    if not (a.requires_grad and is_grad_enabled()):
        return tuple(make(np.ascontiguousarray(x)) for x in parts)
    return op.apply(a, parts=parts)


@writes_out
def svd(A, full_matrices=True, *, driver=None):
    if A.ndim < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    return ReturnSvd(*_multi(A, "svd", full_matrices=full_matrices))


@writes_out
def svdvals(A, *, driver=None):
    return svd(A, full_matrices=False).S


@writes_out
def eigh(A, UPLO="L"):
    _square(A, "eigh")
    return ReturnEigh(*_multi(A, "eigh", uplo=UPLO))


@writes_out
def eigvalsh(A, UPLO="L"):
    return eigh(A, UPLO).eigenvalues


@writes_out
def qr(A, mode="reduced"):
    q, r = _multi(A, "qr", mode=mode)
    if mode == "r":  # R alone: torch returns an empty Q
        q = make(np.zeros((0,), np.asarray(A._data).dtype))
    return ReturnQr(q, r)


ReturnSvd = return_type("linalg_svd", ("U", "S", "Vh"))
ReturnEigh = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
ReturnQr = return_type("linalg_qr", ("Q", "R"))


def einsum(equation, *operands):
    """Sums of products over the subscripts of `equation` ("ij,jk->ik" is a matrix product);
    also torch's sublist form, einsum(a, [0, 1], b, [1, 2], [0, 2])."""
    if not isinstance(equation, str):
        equation, operands = _sublists(equation, *operands)
    elif len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    operands = tuple(map(to_tensor, operands))
    _check_subscripts(equation, operands)
    return Einsum.apply(*operands, equation=equation)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _sublists(*args) -> tuple:
    """(equation, operands) of einsum's sublist form: operands each followed by the list of
    its dims' numbers (0 to 51, or ...), then the output's list if given."""
    operands, terms = list(args[0::2]), [_term(sub) for sub in args[1::2]]
    out = None
    if len(terms) < len(operands):  # an odd count: the last argument is the output's list
        out = _term(operands.pop()) if len(terms) == len(operands) - 1 else None
    equation = ",".join(terms)
    return (equation if out is None else f"{equation}->{out}"), tuple(operands)


def _term(sublist) -> str:
    letters = []
    for n in sublist:
        if n is Ellipsis:
            letters.append("...")
        elif isinstance(n, int) and 0 <= n < len(_LETTERS):
            letters.append(_LETTERS[n])
        else:
            raise RuntimeError(f"einsum(): expected subscript to be in range [0, 52) but got {n}")
    return "".join(letters)


def _check_subscripts(equation: str, operands) -> None:
    """torch's einsum errors: an operand of another rank than its subscripts, and one
    subscript with two sizes that do not broadcast."""
    inputs, arrow, output = equation.replace(" ", "").partition("->")
    for letter in output.replace(".", "") if arrow else "":
        if letter not in inputs:
            raise RuntimeError(
                f"einsum(): output subscript {letter} does not appear in the equation for any "
                "input operand"
            )
    terms = inputs.split(",")
    if "..." in equation or len(terms) != len(operands):
        return
    seen = {}
    for k, (term, t) in enumerate(zip(terms, operands, strict=True)):
        if len(term) != t.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not "
                f"match the number of dimensions ({t.ndim}) for operand {k} and no ellipsis "
                "was given"
            )
        for letter, size in zip(term, t.shape, strict=True):
            before = seen.setdefault(letter, size)
            if size != before and 1 not in (size, before):
                raise RuntimeError(
                    f"einsum(): subscript {letter} has size {size} for operand {k} which does "
                    f"not broadcast with previously seen size {before}"
                )
            seen[letter] = builtins.max(before, size)


def tensordot(a, b, dims=2, out=None):
    """Sums over the last `dims` dims of a and the first of b (or the listed dims of each)."""
    if isinstance(dims, int):
        da = list(range(a.ndim - dims, a.ndim))
        db = list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    da = [d % a.ndim for d in da]
    db = [d % b.ndim for d in db]
    keep_a = [d for d in range(a.ndim) if d not in da]
    keep_b = [d for d in range(b.ndim) if d not in db]
    m = math.prod(a.shape[d] for d in keep_a)
    n = math.prod(b.shape[d] for d in keep_b)
    k = math.prod(a.shape[d] for d in da)
    left = shape.reshape(shape.permute(a, (*keep_a, *da)), (m, k))
    right = shape.reshape(shape.permute(b, (*db, *keep_b)), (k, n))
    result = shape.reshape(
        matmul(left, right), (*[a.shape[d] for d in keep_a], *[b.shape[d] for d in keep_b])
    )
    return result if out is None else into(out, result, "tensordot")


@writes_out
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    x = x if dtype is None else x.to(dtype)
    return reductions.norm(x, p=ord, dim=dim, keepdim=keepdim)


@writes_out
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The Frobenius norm (the default), the nuclear norm, or ±1, ±2, ±inf matrix norms."""
    A = A if dtype is None else A.to(dtype)
    if ord == "fro":
        return reductions.norm(A, p=2, dim=dim, keepdim=keepdim)
    rows, cols = (d % A.ndim for d in dim)
    if ord in ("nuc", 2, -2):
        moved = shape.movedim(A, (rows, cols), (-2, -1))
        s = svdvals(moved)
        value = (
            reductions.sum(s, dim=-1)
            if ord == "nuc"
            else (reductions.amax(s, -1) if ord == 2 else reductions.amin(s, -1))
        )
    elif ord in (1, -1, math.inf, -math.inf):
        sum_dim, pick_dim = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = reductions.sum(A.abs(), dim=sum_dim, keepdim=True)
        pick = reductions.amax if ord > 0 else reductions.amin
        value = pick(sums, pick_dim, keepdim=True)
        return value if keepdim else shape.squeeze(value, (rows, cols))
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if keepdim:
        value = shape.unsqueeze(shape.unsqueeze(value, min(rows, cols)), max(rows, cols))
    return value


@writes_out
def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.norm: a vector norm, or a matrix norm for 2 dims (or a matrix and ord)."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        if dim is None:
            return vector_norm(A, 2, None, keepdim, dtype=dtype)
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if (dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2):
        return matrix_norm(A, ord, dim if dim is not None else (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


@writes_out
def multi_dot(tensors):
    result = tensors[0]
    for t in tensors[1:]:
        result = matmul(result, t)
    return result


@writes_out
def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The pseudo-inverse, through the SVD: V diag(1/S) Uᵀ, singular values at or below
    max(atol, rtol · the largest) dropped (rtol eps · max(m, n) when neither is given, 0 when
    only atol is, as torch's); for a symmetric A (hermitian=True), through eigh."""
    if hermitian:
        w, v = eigh(A)
        keep = (w.abs() > _cutoff(A, w.abs(), atol, rtol)).to(w.dtype)
        inverse = keep / (w + (1 - keep))
        return matmul(v * shape.unsqueeze(inverse, -2), shape.transpose(v, -2, -1))
    u, s, vh = svd(A, full_matrices=False)
    keep = (s > _cutoff(A, s, atol, rtol)).to(s.dtype)
    inverse = keep / (s + (1 - keep))
    return matmul(
        shape.transpose(vh, -2, -1) * shape.unsqueeze(inverse, -2), shape.transpose(u, -2, -1)
    )


def _cutoff(A, values, atol, rtol):
    """torch's pinv threshold: max(atol, rtol · max |value|) per matrix."""
    if rtol is None:
        rtol = 0.0 if atol is not None else np.finfo(A._data.dtype).eps * max(A.shape[-2:])
    with no_grad():
        cutoff = reductions.amax(values.detach(), -1, True) * rtol
        return cutoff if atol is None else pointwise.clamp_min(cutoff, atol)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, tol=None, out=None):
    """How many singular values (|eigenvalues| when hermitian) exceed max(atol, rtol · the
    largest): rtol is eps · max(m, n) when neither is given, 0 when only atol is."""
    if A.ndim < 2:
        raise RuntimeError(
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."
        )
    if tol is not None:
        atol, rtol = tol, 0.0
    data = np.asarray(A._data)
    if hermitian:
        values = np.abs(np.linalg.eigvalsh(data))
    else:
        values = np.linalg.svd(data, compute_uv=False) if data.size else np.zeros(data.shape[:-1])
    if rtol is None:
        rtol = (
            0.0 if atol is not None and atol > 0 else np.finfo(data.dtype).eps * max(A.shape[-2:])
        )
    largest = values.max(axis=-1, keepdims=True) if values.shape[-1] else np.zeros(values.shape)
    cutoff = np.maximum(0.0 if atol is None else atol, rtol * largest)
    rank = make(np.asarray(np.sum(values > cutoff, axis=-1), np.int64))
    return rank if out is None else into(out, rank, "matrix_rank")


ReturnLstsq = return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def _mT(m):
    return np.swapaxes(m, -1, -2)


class Lstsq(Op):
    """X = A⁺ B, the least-squares solution of A X ≈ B (A⁺ the pseudo-inverse);
    dL/dB = A⁺ᵀ g, dL/dA = pinv's derivative at A applied to g Bᵀ (torch's formula)."""

    _backward_name = "LinalgLstsqBackward0"

    @staticmethod
    def forward(ctx, a, b, rcond=None):
        pinv_a = np.linalg.pinv(a, rcond=rcond).astype(a.dtype)
        ctx.save_for_backward(a, b, pinv_a)
        return np.ascontiguousarray(pinv_a @ b)

    @staticmethod
    def backward(ctx, grad):
        a, b, pinv_a = ctx.saved_tensors
        grad_a = _pinv_backward(grad @ _mT(b), pinv_a, a)
        return grad_a, _mT(pinv_a) @ grad


def _pinv_backward(grad, pinv_a, a):
    """The derivative of A ↦ A⁺ applied to grad, in the order of torch's pinv_backward (the
    products of the smallest matrices first)."""
    pinv_h, grad_h = _mT(pinv_a), _mT(grad)
    if a.shape[-2] <= a.shape[-1]:
        k = grad_h @ pinv_a
        k_pinv_h = k @ pinv_h
        return (
            _mT(-(pinv_a @ k))
            + k_pinv_h
            - (a @ pinv_a) @ k_pinv_h
            + (pinv_h @ pinv_a) @ (grad_h - k @ a)
        )
    k = pinv_a @ grad_h
    pinv_h_k = pinv_h @ k
    return (
        -_mT(k @ pinv_a) + (grad_h - a @ k) @ pinv_a @ pinv_h + pinv_h_k - (pinv_h_k @ pinv_a) @ a
    )


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution X of A X ≈ B; residuals, rank and singular values as
    torch's driver gives them (gelsy, the default: the rank only)."""
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(
            "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, "
            f"gelss), but got {driver}"
        )
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector = B.ndim == 1
    rhs = shape.unsqueeze(B, -1) if vector else B
    if A.shape[-2] != rhs.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = A.shape[-2:]
    dt = np.asarray(A._data).dtype
    cutoff = np.finfo(dt).eps * max(m, n) if rcond is None or rcond < 0 else rcond
    solution = Lstsq.apply(A, rhs, rcond=cutoff)
    flat = shape.reshape(solution, (-1,))
    residuals = flat[:0]  # empty, and on the graph as torch's is
    if driver != "gelsy" and m > n and bool((matrix_rank(A) == n).all()):
        residuals = reductions.sum((matmul(A, solution) - rhs) ** 2, dim=-2)
    rank = matrix_rank(A, rtol=cutoff) if driver != "gels" else make(np.zeros(0, np.int64))
    values = svdvals(A) if driver in ("gelsd", "gelss") else make(np.zeros(0, dt))
    if vector:
        solution = shape.squeeze(solution, -1)
    return ReturnLstsq(solution, residuals, rank, values.detach())


def cond(A, p=None):
    """The condition number: σ_max / σ_min for p None or 2 (σ_min / σ_max for -2), else
    ‖A‖_p ‖A⁻¹‖_p."""
    if A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor A must have at least 2 dimensions.")
    if p in (None, 2, -2):
        s = svdvals(A)
        big, small = reductions.amax(s, -1), reductions.amin(s, -1)
        return big / small if p != -2 else small / big
    _square(A, "linalg.cond")
    return matrix_norm(A, p) * matrix_norm(inv(A), p)


def matrix_power(A, n):
    _square(A, "matrix_power")
    if n < 0:
        return matrix_power(inv(A), -n)
    if n == 0:
        return make(
            np.broadcast_to(np.eye(A.shape[-1], dtype=A._data.dtype), tuple(A.shape)).copy()
        )
    result = square = None  # by repeated squaring, as torch multiplies (so it rounds the same)
    while n:
        square = A if square is None else matmul(square, square)
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
    return result


def slogdet(A):
    d = det(A)
    return ReturnSlogdet(d.sign(), d.abs().log())


ReturnSlogdet = return_type("linalg_slogdet", ("sign", "logabsdet"))


def vdot(input, other, *, out=None):
    return dot(input, other, out=out)


def inner(input, other, *, out=None):
    """Σ over the last dims: a dot product for vectors, a @ bᵀ-like for more dims."""
    if input.ndim == 0 or other.ndim == 0:
        return arithmetic.mul(input, other)
    return tensordot(input, other, dims=([-1], [-1]), out=out)


def plus_scaled(input, product, beta, alpha):
    """β·input + α·product as PyTorch's kernels compute it: input ignored when β is 0 (its NaNs
    too); for integer tensors β and α in their type (0.2 is 0), for bools logical."""
    kind = product._data.dtype.kind
    if kind == "b":
        kept = np.logical_and(input._data, bool(beta)) if beta else False
        return make(np.asarray(np.logical_or(kept, np.logical_and(product._data, bool(alpha)))))
    if kind in "iu":
        beta, alpha = int(beta), int(alpha)
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return scaled
    return (input if beta == 1 else input * beta) + scaled


def ger(input, vec2, *, out=None):
    return outer(input, vec2, out=out)


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    result = plus_scaled(input, mv(mat, vec), beta, alpha)
    return result if out is None else into(out, result, "addmv")


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    result = plus_scaled(input, outer(vec1, vec2), beta, alpha)
    return result if out is None else into(out, result, "addr")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    products = bmm(batch1, batch2)
    total = reductions.sum(products, dim=0, dtype=products.dtype)  # int32 stays int32
    result = plus_scaled(input, total, beta, alpha)
    return result if out is None else into(out, result, "addbmm")


@writes_out
def chain_matmul(*matrices):
    return multi_dot(
        list(
            matrices[0]
            if len(matrices) == 1 and isinstance(matrices[0], (list, tuple))
            else matrices
        )
    )


def kron(input, other, *, out=None):
    """The Kronecker product: every element of input times the whole of other."""
    a, b = to_tensor(input), to_tensor(other)
    n = max(a.ndim, b.ndim)
    a = shape.reshape(a, (1,) * (n - a.ndim) + tuple(a.shape))
    b = shape.reshape(b, (1,) * (n - b.ndim) + tuple(b.shape))
    wide_a, wide_b = a, b
    for i in range(n):
        wide_a = shape.unsqueeze(wide_a, 2 * i + 1)
        wide_b = shape.unsqueeze(wide_b, 2 * i)
    result = shape.reshape(
        arithmetic.mul(wide_a, wide_b), tuple(x * y for x, y in zip(a.shape, b.shape, strict=True))
    )
    return result if out is None else into(out, result, "kron")


class Dist(Op):
    """z = ‖a − b‖_p over every element;  dz/da = ∂‖d‖/∂d summed to a's shape, dz/db its
    negative (d = a − b, broadcast)."""

    _backward_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, p=2.0):
        diff = np.subtract(a, b)
        out = reductions.norm_values(diff, p, None)
        ctx.save_for_backward(a, b, out)
        ctx.info = p
        return np.asarray(out.reshape(()), dtype=np.result_type(diff))

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        diff = np.subtract(a, b)
        part = grad * reductions.norm_local(diff, out.astype(diff.dtype), ctx.info, None)
        return unbroadcast(part, np.shape(a)), unbroadcast(-part, np.shape(b))


class EuclideanDist(Op):
    """z_ij = ‖x1_i − x2_j‖ as torch computes it for many rows: √max(|x1_i|² + |x2_j|² −
    2 x1_i·x2_j, 0), one matrix product (so near points cancel to 0, as in torch);
    with r = g / z (0 where z = 0): dz/dx1 = x1 Σ_j r − r x2, dz/dx2 = x2 Σ_i r − rᵀ x1."""

    _backward_name = "EuclideanDistBackward0"

    @staticmethod
    def forward(ctx, a, b):
        a, b = np.asarray(a), np.asarray(b)
        a_norm, b_norm = np.sum(a * a, -1, keepdims=True), np.sum(b * b, -1, keepdims=True)
        left = np.concatenate([a * a.dtype.type(-2), a_norm, np.ones_like(a_norm)], -1)
        right = np.concatenate([b, np.ones_like(b_norm), b_norm], -1)
        rows = np.swapaxes(right, -1, -2)
        if left.ndim == 2:
            product_ = product(np.ascontiguousarray(left), np.ascontiguousarray(rows))
        else:
            product_ = np.matmul(left, rows)
        out = np.sqrt(np.maximum(product_, product_.dtype.type(0)))
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(out == 0, 0, grad / out).astype(out.dtype)
        ga = a * ratio.sum(-1, keepdims=True) - np.matmul(ratio, b)
        gb = b * np.swapaxes(ratio.sum(-2, keepdims=True), -1, -2) - np.matmul(
            np.swapaxes(ratio, -1, -2), a
        )
        return ga, gb


class Cdist(Op):
    """z_ij = ‖x1_i − x2_j‖_p, rows against rows;  dz/dx1_i = Σ_j g_ij ∂‖d_ij‖/∂d_ij and
    dz/dx2_j = −Σ_i g_ij ∂‖d_ij‖/∂d_ij."""

    _backward_name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x1, x2, p=2.0):
        diff = np.subtract(np.expand_dims(x1, -2), np.expand_dims(x2, -3))
        out = reductions.norm_values(diff, p, (-1,))
        ctx.save_for_backward(x1, x2, out)
        ctx.info = p
        return np.asarray(out[..., 0], dtype=np.result_type(diff))

    @staticmethod
    def backward(ctx, grad):
        x1, x2, out = ctx.saved_tensors
        diff = np.subtract(np.expand_dims(x1, -2), np.expand_dims(x2, -3))
        local = reductions.norm_local(diff, out.astype(diff.dtype), ctx.info, (-1,))
        part = np.expand_dims(grad, -1) * local
        return unbroadcast(part.sum(-2), np.shape(x1)), unbroadcast(-part.sum(-3), np.shape(x2))


def dist(input, other, p=2):
    """The p-norm of input - other: an integer `other` taken in input's float dtype, a bool
    one refused as torch's subtraction refuses it."""
    other = to_tensor(other)
    arithmetic.refuse_bool_sub(input._data, other._data)
    if other._data.dtype.kind in "iu" and input._data.dtype.kind == "f":
        other = other.to(from_numpy_dtype(input._data.dtype))
    return Dist.apply(input, other, p=float(p))


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 and each row of x2: one CdistBackward0
    node, or for p = 2 and more than 25 rows torch's matrix-product path (EuclideanDist,
    then a view)."""
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    rows = max(x1.shape[-2], x2.shape[-2]) if x1.ndim >= 2 and x2.ndim >= 2 else 0
    by_mm = p == 2 and (
        compute_mode == "use_mm_for_euclid_dist"
        or (compute_mode == "use_mm_for_euclid_dist_if_necessary" and rows > 25)
    )
    if by_mm and x1.ndim == x2.ndim and x1.shape[:-2] == x2.shape[:-2]:
        out = EuclideanDist.apply(x1, x2)
        return shape.View.apply(out, shape=tuple(out.shape))  # torch's view of its result
    if by_mm:
        diff = arithmetic.sub(shape.unsqueeze(x1, -2), shape.unsqueeze(x2, -3))
        return reductions.norm(diff, p=p, dim=-1)
    return Cdist.apply(x1, x2, p=float(p))


@writes_out
def torch_svd(input, some=True, compute_uv=True):
    """torch.svd (the old one): (U, S, V) with V, not Vh; with compute_uv=False, U and V are
    zero-filled (m, m) and (n, n) matrices, as torch's."""
    if input.ndim < 2:
        raise RuntimeError(
            "linalg.svd: input should have at least 2 dimensions, but has "
            f"{input.ndim} dimensions instead"
        )
    if not compute_uv:
        m, n = input.shape[-2:]
        zeros = functools.partial(np.zeros, dtype=input._data.dtype)
        u, v = zeros((*input.shape[:-2], m, m)), zeros((*input.shape[:-2], n, n))
        return ReturnSvdV(make(u), svdvals(input), make(v))
    u, s, vh = svd(input, full_matrices=not some)
    return ReturnSvdV(u, s, shape.transpose(vh, -2, -1))


@writes_out
def torch_qr(input, some=True):
    return qr(input, "reduced" if some else "complete")


def logdet(input):
    return pointwise.log(det(input))


ReturnSvdV = return_type("svd", ("U", "S", "V"))


@writes_out
def vecdot(x, y, *, dim=-1):
    return reductions.sum(arithmetic.mul(x, y), dim=dim)


@writes_out
def inv_ex(A, *, check_errors=False):
    """inv with `info`: 0, or for a singular matrix the order of its first zero pivot (and
    an inverse of NaN, where LAPACK leaves numbers of no meaning)."""
    try:
        return ReturnInvEx(inv(A), make(np.zeros(A.shape[:-2], np.int32)))
    except _LinAlgError:
        if check_errors:
            raise
    info, inverse = [], []
    for m in _matrices(A._data):
        try:
            inverse.append(np.linalg.inv(m))
            info.append(0)
        except np.linalg.LinAlgError:
            inverse.append(np.full(m.shape, np.nan))
            info.append(_zero_pivot(m)[1])
    out = np.stack(inverse).reshape(A.shape).astype(A._data.dtype)
    return ReturnInvEx(make(out), make(np.array(info, np.int32).reshape(A.shape[:-2])))


@writes_out
def solve_ex(A, B, *, left=True, check_errors=False):
    return ReturnSolveEx(solve(A, B, left=left), make(np.zeros(A.shape[:-2], np.int32)))


def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return shape.diagonal(A, offset, dim1, dim2)


def vander(x, N=None):
    """Columns x^0, x^1, ..., x^(N-1) (torch.linalg.vander's increasing powers)."""
    n = x.shape[-1] if N is None else N
    x = x.to(np.int64) if x._data.dtype.kind in "biu" else x  # as PyTorch's cumprod
    return shape.stack([arithmetic.pow(x, k) if k else x * 0 + 1 for k in range(n)], dim=-1)


def torch_vander(x, N=None, increasing=False):
    out = vander(x, N)
    return out if increasing else shape.flip(out, (-1,))


ReturnInvEx = return_type("linalg_inv_ex", ("inverse", "info"))
ReturnSolveEx = return_type("linalg_solve_ex", ("result", "info"))


# -- Cholesky factors and triangular solves ----------------------------------------------------


def _tri(a, upper: bool, unit: bool = False):
    """The triangle a solve or factor reads (the other is ignored, as LAPACK ignores it)."""
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        idx = np.arange(a.shape[-1])
        t[..., idx, idx] = 1
    return t


def _solve_tri(a, b, upper: bool, left: bool = True, unit: bool = False):
    """X with A X = B (left) or X A = B, A triangular: substitution in the inputs' precision,
    one column of A after another (as the reference trsm), not a general solve."""
    if not left:  # X A = B is Aᵀ Xᵀ = Bᵀ
        return _t(_solve_tri(_t(a), _t(b), not upper, True, unit))
    dtype = np.result_type(a, b)
    a = np.asarray(a, dtype)
    x = np.array(
        np.broadcast_to(b, (*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), *b.shape[-2:])), dtype
    )
    n = a.shape[-1]
    for k in reversed(range(n)) if upper else range(n):
        if not unit:
            x[..., k, :] /= a[..., k, k, None]
        rest = slice(0, k) if upper else slice(k + 1, n)
        x[..., rest, :] -= a[..., rest, k, None] * x[..., k, None, :]
    return x


def _not_positive_definite(a, name: str):
    """PyTorch's error for the first matrix of a batch with a non-positive leading minor."""
    flat = np.reshape(a, (-1, *a.shape[-2:]))
    for index, m in enumerate(flat):
        for order in range(1, m.shape[-1] + 1):
            try:
                np.linalg.cholesky(m[:order, :order])
            except np.linalg.LinAlgError:
                where = f"(Batch element {index}): " if a.ndim > 2 else ""
                return _LinAlgError(
                    f"{name}: {where}The factorization could not be completed because the "
                    f"input is not positive-definite (the leading minor of order {order} is "
                    "not positive-definite)."
                )
    return _LinAlgError(f"{name}: the input is not positive-definite")


class Cholesky(Op):
    """L = cholesky(A), A = L Lᵀ;  dL/dA = L⁻ᵀ Φ(Lᵀ g) L⁻¹, Φ taking the lower triangle with
    half its diagonal (symmetrised, as PyTorch's cholesky_backward)."""

    _backward_name = "LinalgCholeskyExBackward0"

    @staticmethod
    def forward(ctx, a, upper=False):
        try:
            low = np.linalg.cholesky(a)
        except np.linalg.LinAlgError:
            raise _not_positive_definite(a, "linalg.cholesky") from None
        low = np.asarray(low, np.result_type(a))
        ctx.save_for_backward(low)
        ctx.info = upper
        return np.ascontiguousarray(_t(low)) if upper else low

    @staticmethod
    def backward(ctx, grad):
        (low,) = ctx.saved_tensors
        g = _t(grad) if ctx.info else grad
        phi = np.tril(_t(low) @ g)
        phi = 0.5 * (phi + _t(np.tril(phi, -1)))
        ga = _solve_tri(_t(low), phi, upper=True)
        return _solve_tri(low, ga, upper=False, left=False)


class SolveTriangular(Op):
    """X = A⁻¹ B (left) or B A⁻¹, A triangular;  dL/dB = A⁻ᵀ g (or g A⁻ᵀ), dL/dA = -(dL/dB) Xᵀ
    (or -Xᵀ dL/dB) in A's triangle (without the diagonal when it is taken as ones)."""

    _backward_name = "LinalgSolveTriangularBackward0"

    @staticmethod
    def forward(ctx, a, b, upper=False, left=True, unitriangular=False):
        x = np.asarray(_solve_tri(a, b, upper, left, unitriangular), np.result_type(a, b))
        ctx.save_for_backward(a, x)
        ctx.info = (upper, left, unitriangular, np.shape(a), np.shape(b))
        return x

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        upper, left, unit, a_shape, b_shape = ctx.info
        gb = _solve_tri(_t(_tri(a, upper, unit)), grad, not upper, left)
        ga = -gb @ _t(x) if left else -_t(x) @ gb
        ga = np.triu(ga, int(unit)) if upper else np.tril(ga, -int(unit))
        return unbroadcast(ga, a_shape), unbroadcast(gb, b_shape)


class TriangularSolve(SolveTriangular):
    """torch.triangular_solve's solution (the deprecated spelling of solve_triangular)."""

    _backward_name = "TriangularSolveBackward0"


class CholeskySolve(Op):
    """X = (L Lᵀ)⁻¹ B;  dL/dB = (L Lᵀ)⁻¹ g, dL/dL = -(C + Cᵀ) L with C = (dL/dB) Xᵀ
    (for an upper factor U: -U (C + Cᵀ))."""

    _backward_name = "CholeskySolveBackward0"

    @staticmethod
    def forward(ctx, b, factor, upper=False):
        x = np.asarray(_cholesky_solve(b, factor, upper), np.result_type(b, factor))
        ctx.save_for_backward(factor, x)
        ctx.info = (upper, np.shape(b), np.shape(factor))
        return x

    @staticmethod
    def backward(ctx, grad):
        factor, x = ctx.saved_tensors
        upper, b_shape, f_shape = ctx.info
        gb = _cholesky_solve(grad, factor, upper)
        common = gb @ _t(x)
        common = common + _t(common)
        gf = -(factor @ common) if upper else -(common @ factor)
        return unbroadcast(gb, b_shape), unbroadcast(gf, f_shape)


def _cholesky_solve(b, factor, upper):
    low = _t(_tri(factor, True)) if upper else _tri(factor, False)
    return _solve_tri(_t(low), _solve_tri(low, b, upper=False), upper=True)


class CholeskyInverse(Op):
    """Z = (L Lᵀ)⁻¹;  dL/dL = -(Z (g + gᵀ) Z) L (for an upper factor U: -U (Z (g + gᵀ) Z))."""

    _backward_name = "CholeskyInverseBackward0"

    @staticmethod
    def forward(ctx, factor, upper=False):
        eye = np.broadcast_to(np.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
        z = np.asarray(_cholesky_solve(eye, factor, upper), factor.dtype)
        ctx.save_for_backward(factor, z)
        ctx.info = upper
        return z

    @staticmethod
    def backward(ctx, grad):
        factor, z = ctx.saved_tensors
        common = z @ (grad + _t(grad)) @ z
        return -(factor @ common) if ctx.info else -(common @ factor)


@writes_out
def cholesky(A, *, upper=False):
    """torch.linalg.cholesky: the lower (or upper) factor of a symmetric positive-definite A."""
    _square(A, "cholesky")
    return Cholesky.apply(A, upper=upper)


@writes_out
def cholesky_ex(A, *, upper=False, check_errors=False):
    """cholesky with `info`: 0, or the order of the first leading minor that is not positive
    (then L holds the columns factored before it and the input's lower part after, as
    LAPACK's potrf leaves them), instead of an error."""
    _square(A, "cholesky")
    info = _failed_minors(np.asarray(A._data))
    if check_errors or not info.any():
        return ReturnCholeskyEx(cholesky(A, upper=upper), make(info))
    partial = np.stack([_partial_cholesky(m) for m in _matrices(A._data)])
    partial = partial.reshape(A.shape).astype(A._data.dtype)
    return ReturnCholeskyEx(make(np.swapaxes(partial, -1, -2) if upper else partial), make(info))


def _matrices(data) -> np.ndarray:
    data = np.asarray(data)
    return data.reshape(int(np.prod(data.shape[:-2])), *data.shape[-2:])


def _failed_minors(data) -> np.ndarray:
    shape = data.shape[:-2]
    return np.array([_partial_cholesky(m, info=True) for m in _matrices(data)], np.int32).reshape(
        shape
    )


def _partial_cholesky(m: np.ndarray, info: bool = False):
    """potrf's column-by-column factor of m's lower part, stopping at the first pivot that is
    not positive: that pivot's 1-based order when `info`, else the partial factor."""
    a = np.tril(np.asarray(m, np.float64))
    for j in range(a.shape[0]):
        pivot = a[j, j] - a[j, :j] @ a[j, :j]
        if not pivot > 0:  # potrf leaves the updated, failed pivot on the diagonal
            a[j, j] = pivot
            return j + 1 if info else a
        a[j, j] = np.sqrt(pivot)
        a[j + 1 :, j] = (a[j + 1 :, j] - a[j + 1 :, :j] @ a[j, :j]) / a[j, j]
    return 0 if info else a


@writes_out
def torch_cholesky(input, upper=False):
    """torch.cholesky (deprecated): linalg.cholesky with its warning."""
    warnings.warn(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in "
        "a future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
        "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
        "replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent "
        "results for all valid (symmetric positive definite) inputs.",
        UserWarning,
        stacklevel=2,
    )
    return cholesky(input, upper=upper)


def _check_triangular(A, B, left: bool, name: str) -> None:
    _square(A, name.removeprefix("linalg."))
    n = A.shape[-1]
    rows = B.shape[-2] if left else B.shape[-1]
    if B.ndim < 2 or rows != n:
        equation = "AX = B" if left else "XA = B"
        b_text = "x".join(map(str, B.shape[-2:]))
        raise RuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation {equation} ({n}x{n} and "
            f"{b_text})"
        )


@writes_out
def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """torch.linalg.solve_triangular: X with A X = B (or X A = B), A triangular."""
    _check_triangular(A, B, left, "linalg.solve_triangular")
    return SolveTriangular.apply(A, B, upper=upper, left=left, unitriangular=unitriangular)


@writes_out
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """torch.triangular_solve (deprecated): (solution, cloned_coefficient) of A X = input."""
    warnings.warn(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
        "and will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has "
        "its arguments reversed and does not return a copy of one of the inputs.\n"
        "X = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
        "X = torch.linalg.solve_triangular(A, B).",
        UserWarning,
        stacklevel=2,
    )
    _check_triangular(A, input, True, "linalg.solve_triangular")
    coefficient = shape.transpose(A, -2, -1) if transpose else A
    x = TriangularSolve.apply(
        coefficient, input, upper=upper != transpose, left=True, unitriangular=unitriangular
    )
    return ReturnTriangularSolve(x, A.clone())


@writes_out
def cholesky_solve(input, input2, upper=False):
    """torch.cholesky_solve: X with (L Lᵀ) X = input, L = input2 (or Uᵀ U with upper=True)."""
    n = input2.shape[-1]
    if input.ndim < 2 or input.shape[-2] != n:
        raise RuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n} but "
            f"each b matrix is {input.shape[-2]} by {input.shape[-1]}"
        )
    return CholeskySolve.apply(input, input2, upper=upper)


@writes_out
def cholesky_inverse(input, upper=False):
    """torch.cholesky_inverse: (L Lᵀ)⁻¹ from the factor L (or (Uᵀ U)⁻¹)."""
    _square(input, "cholesky_inverse")
    return CholeskyInverse.apply(input, upper=upper)


ReturnCholeskyEx = return_type("linalg_cholesky_ex", ("L", "info"))
ReturnTriangularSolve = return_type("triangular_solve", ("solution", "cloned_coefficient"))


# -- recorded gradients (create_graph=True) --------------------------------------------------


@rule(Matmul)
def _matmul(node, g):
    a, b = node._saved
    A, B = inp(node, 0, a), inp(node, 1, b)
    if A.ndim == 1 and B.ndim == 1:
        return g * B, g * A
    a2 = A.unsqueeze(0) if A.ndim == 1 else A
    b2 = B.unsqueeze(1) if B.ndim == 1 else B
    g2 = g.unsqueeze(-2) if A.ndim == 1 else g
    g2 = g2.unsqueeze(-1) if B.ndim == 1 else g2
    ga = shape.reshape(sum_to(matmul(g2, shape.transpose(b2, -1, -2)), a2.shape), A.shape)
    gb = shape.reshape(sum_to(matmul(shape.transpose(a2, -1, -2), g2), b2.shape), B.shape)
    return ga, gb
