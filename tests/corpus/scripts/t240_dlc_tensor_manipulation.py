"""EPFL dlc practical 1 style: multiple views, eigendecomposition, strides, flops-free benchmarks"""

import torch

# 1. multiple views of a storage
m = torch.full((13, 13), 1, dtype=torch.int64)
m.narrow(0, 1, 1).fill_(2)
m.narrow(0, 6, 1).fill_(2)
m.narrow(0, 11, 1).fill_(2)
m.narrow(1, 1, 1).fill_(2)
m.narrow(1, 6, 1).fill_(2)
m.narrow(1, 11, 1).fill_(2)
m[3:5, 3:5] = 3
m[3:5, 8:10] = 3
m[8:10, 3:5] = 3
m[8:10, 8:10] = 3
print(m)
print(m.sum(), m.float().mean(), (m == 3).sum(), m.unique(return_counts=True))

# same with strided slicing
m2 = torch.ones(13, 13, dtype=torch.int64)
m2[1::5, :] = 2
m2[:, 1::5] = 2
for i in (3, 8):
    for j in (3, 8):
        m2[i : i + 2, j : j + 2] = 3
print("same:", torch.equal(m, m2))

# 2. eigendecomposition of M^-1 D M
torch.manual_seed(1)
n = 6
M = torch.randn(n, n, dtype=torch.float64)
Dg = torch.diag(torch.arange(1, n + 1, dtype=torch.float64))
A = M.inverse() @ Dg @ M
print(
    "trace(A) = sum of eigenvalues:",
    round(A.trace().item(), 8),
    "det(A):",
    round(torch.det(A).item(), 6),
)
print("det(M) %.6f" % torch.det(M).item(), "logdet sign", torch.linalg.slogdet(M).sign.item())
S = M @ M.t()
evals, evecs = torch.linalg.eigh(S)
print("eigh evals:", evals)
print("reconstruction ok:", torch.allclose(evecs @ torch.diag(evals) @ evecs.t(), S))
print("eigvalsh:", torch.linalg.eigvalsh(S))
U, Sv, Vh = torch.linalg.svd(M)
print("singular values:", Sv)
print("svd reconstruct:", torch.dist(U @ torch.diag(Sv) @ Vh, M).item() < 1e-10)
print("svdvals:", torch.linalg.svdvals(M))
print("cond:", torch.linalg.cond(M).item() > 1)
Q, R = torch.linalg.qr(M)
print(
    "qr orthogonal:",
    torch.allclose(Q.t() @ Q, torch.eye(n, dtype=torch.float64)),
    "R upper:",
    torch.equal(R, R.triu()),
)
L = torch.linalg.cholesky(S)
print("cholesky lower:", torch.equal(L, L.tril()), torch.allclose(L @ L.t(), S))
b = torch.arange(n, dtype=torch.float64)
x = torch.linalg.solve(M, b)
print("solve:", x)
print("lstsq:", torch.linalg.lstsq(M, b.unsqueeze(1)).solution.squeeze(1))
print("inv @ b:", torch.linalg.inv(M) @ b)
print(
    "pinv:",
    torch.linalg.pinv(M[:, :3]).shape,
    "matrix_rank:",
    torch.linalg.matrix_rank(M[:, :3] @ M[:3, :]),
)
print(
    "norms:",
    torch.linalg.norm(M),
    torch.linalg.norm(M, ord=2),
    torch.linalg.vector_norm(b, ord=1),
    torch.linalg.matrix_norm(M, ord="nuc"),
)
print("matrix_power:", torch.linalg.matrix_power(torch.tensor([[1.0, 1.0], [1.0, 0.0]]), 10))
print("cross:", torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
print(
    "outer / kron:",
    torch.outer(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])),
    torch.kron(torch.eye(2), torch.ones(2, 2)),
)
print("trace:", torch.trace(S).item() == S.diagonal().sum().item())
print("triangular solve:", torch.linalg.solve_triangular(L, b.unsqueeze(1), upper=False).squeeze(1))
print("cholesky_solve:", torch.cholesky_solve(b.unsqueeze(1), L).squeeze(1))
try:
    torch.linalg.inv(torch.zeros(3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))  # rank one
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.cholesky(-torch.eye(2))
except Exception as e:
    print(type(e).__name__, e)

# 3. flops: a matmul count, not timed
a = torch.empty(50, 60).normal_()
c = torch.empty(60, 40).normal_()
print("mm shape", (a @ c).shape, "flops", 2 * 50 * 60 * 40)


# 4. playing with strides
def mul_row(m):
    m = m.clone()
    for i in range(m.size(0)):
        m[i, :] *= i + 1
    return m


def mul_row_fast(m):
    return m * torch.arange(1, m.size(0) + 1, dtype=m.dtype).view(-1, 1)


t = torch.full((4, 8), 2.0)
print(mul_row(t))
print(torch.equal(mul_row(t), mul_row_fast(t)))

x = torch.arange(12.0)
print(
    "stride/offset:",
    x.stride(),
    x[3:].storage_offset(),
    x.view(3, 4).stride(),
    x.view(3, 4).t().stride(),
)
y = x.view(3, 4)
z = y[:, 1:3]
print(z, z.is_contiguous(), z.stride(), z.storage_offset(), z.untyped_storage().nbytes())
print(
    "expand:",
    torch.tensor([1.0, 2.0, 3.0]).expand(2, 3).stride(),
    "repeat:",
    torch.tensor([1.0, 2.0, 3.0]).repeat(2, 1).stride(),
)
u = x.unfold(0, 4, 2)
print("unfold windows:", u, u.shape, u.stride())
img = torch.arange(16.0).view(1, 1, 4, 4)
cols = torch.nn.functional.unfold(img, kernel_size=2, stride=2)
print("F.unfold:", cols, cols.shape)
print(
    "F.fold back:",
    torch.nn.functional.fold(cols, output_size=(4, 4), kernel_size=2, stride=2).squeeze(),
)
ov = torch.nn.functional.fold(
    torch.nn.functional.unfold(img, kernel_size=2, stride=1),
    output_size=(4, 4),
    kernel_size=2,
    stride=1,
)
print("overlap counts:\n", ov.squeeze() / img.squeeze().clamp(min=1))
x.view(3, 4)[1, 1] = -1
print(x)
w = torch.zeros(3, 3)
w.t()[0, 2] = 7
print(w)
p = torch.arange(6).view(2, 3)
q = p.t()
try:
    q.view(6)
except RuntimeError as e:
    print(e)
print(q.contiguous().stride(), q.reshape(6).stride(), p.flatten().data_ptr() == p.data_ptr())
print(torch.arange(24).view(2, 3, 4).unbind(1)[2])
print(
    torch.stack([torch.arange(3), torch.arange(3) * 10], dim=1),
    torch.hstack([torch.ones(2), torch.zeros(3)]),
    torch.vstack([torch.ones(3), torch.zeros(3)]),
)
print(
    torch.dstack([torch.ones(2, 2), torch.zeros(2, 2)]).shape,
    torch.column_stack([torch.arange(3), torch.arange(3)]),
    torch.row_stack([torch.arange(2), torch.arange(2)]),
)
print(torch.chunk(torch.arange(11), 4), torch.hsplit(torch.arange(12).view(2, 6), 3)[1])
print(torch.atleast_2d(torch.tensor(3.0)), torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1)))
print(
    torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(3, 2)),
    torch.einsum("ii", torch.eye(3)),
    torch.einsum("bi,bi->b", torch.ones(2, 3), torch.arange(6.0).view(2, 3)),
)
print(
    torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(2.0)),
    torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape,
    torch.einsum("...ij->...ji", torch.arange(6).view(1, 2, 3)),
)
print(
    torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 4)).shape,
    torch.matmul(torch.ones(3), torch.ones(3, 2)),
    torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape,
)
print(
    torch.addmm(torch.zeros(2, 2), torch.eye(2), torch.full((2, 2), 3.0), beta=0.5, alpha=2),
    torch.baddbmm(torch.zeros(1, 2, 2), torch.ones(1, 2, 1), torch.ones(1, 1, 2)),
)
print(
    torch.mv(torch.eye(2) * 3, torch.tensor([1.0, 2.0])),
    torch.dot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
    torch.inner(torch.ones(2, 3), torch.ones(3)),
    torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
)
try:
    torch.einsum("ij->k", torch.ones(2, 3))
except RuntimeError as e:
    print(e)
try:
    torch.mm(torch.ones(2, 3), torch.ones(2, 3))
except RuntimeError as e:
    print(e)
try:
    torch.cat([torch.ones(2, 3), torch.ones(3, 2)])
except RuntimeError as e:
    print(e)
try:
    torch.stack([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print(e)
