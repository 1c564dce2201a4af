"""UW CSE 446 / 493G1 style: SVD and PCA with torch.linalg, low-rank reconstruction, k-means in torch."""

import torch

torch.manual_seed(493)

# low-rank data plus noise
n, d, r = 60, 8, 2
U0 = torch.randn(n, r)
V0 = torch.randn(r, d)
X = U0 @ V0 + 0.1 * torch.randn(n, d) + torch.arange(d, dtype=torch.float32)
print(X.shape, X.mean(0))

mu = X.mean(dim=0, keepdim=True)
Xc = X - mu
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
print("singular values", S)
print(torch.allclose(U @ torch.diag(S) @ Vh, Xc, atol=1e-4))
print(torch.allclose(U.T @ U, torch.eye(d), atol=1e-5))
Uf, Sf, Vhf = torch.linalg.svd(Xc)
print(Uf.shape, Vhf.shape, torch.allclose(Sf, S))
print(torch.linalg.svdvals(Xc))
explained = S**2 / (S**2).sum()
print("explained variance ratio", explained, explained.cumsum(0))
k = int((explained.cumsum(0) < 0.95).sum().item()) + 1
print("components for 95%:", k)

# projections and reconstruction error as a function of k
for kk in range(1, 5):
    P = Vh[:kk]
    Z = Xc @ P.T
    Xr = Z @ P + mu
    err = ((X - Xr) ** 2).sum(1).mean()
    print(
        kk,
        Z.shape,
        "reconstruction mse %.5f" % err.item(),
        "tail energy %.5f" % ((S[kk:] ** 2).sum() / n).item(),
    )

# covariance eigendecomposition agrees with the SVD (up to sign)
C = Xc.T @ Xc / (n - 1)
print(torch.allclose(C, torch.cov(X.T), atol=1e-5))
evals, evecs = torch.linalg.eigh(C)
print(evals.flip(0))
print(S**2 / (n - 1))
print(torch.allclose(evals.flip(0), S**2 / (n - 1), rtol=1e-3, atol=1e-4))
cos = (evecs[:, -1] @ Vh[0]).abs()
print("top vector |cos|", round(cos.item(), 4))
print(
    torch.linalg.eigvalsh(torch.tensor([[2.0, 1.0], [1.0, 3.0]])),
    torch.linalg.eigh(torch.tensor([[2.0, 0.0], [0.0, 3.0]])).eigenvalues,
)
print(torch.corrcoef(X.T[:3]))

# other linalg one-liners used in the homework
A = torch.randn(4, 4)
print(
    torch.linalg.norm(A),
    torch.linalg.norm(A, ord=2),
    torch.linalg.matrix_norm(A, ord="nuc"),
    torch.linalg.vector_norm(A, ord=1),
)
print(torch.linalg.det(A), torch.det(A), torch.linalg.slogdet(A))
print(torch.linalg.matrix_rank(Xc), torch.linalg.matrix_rank(U0 @ V0))
Q, R = torch.linalg.qr(A)
print(torch.allclose(Q @ R, A, atol=1e-5), torch.allclose(R, R.triu()))
print(torch.linalg.cond(A) > 1, torch.trace(A), torch.linalg.matrix_power(A, 0))
print(torch.linalg.inv(A) @ A)
try:
    torch.linalg.inv(torch.zeros(3, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.svd(torch.randn(3))
except Exception as e:
    print(type(e).__name__, e)


# ---- k-means ----
torch.manual_seed(7)
true_centers = torch.tensor([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
pts = torch.cat([c + torch.randn(40, 2) for c in true_centers])
print(pts.shape)


def kmeans(x, k, iters=20, verbose=True):
    centers = x[torch.randperm(len(x))[:k]].clone()
    for it in range(iters):
        dists = torch.cdist(x, centers)
        assign = dists.argmin(dim=1)
        new_centers = torch.zeros_like(centers).index_add_(0, assign, x)
        counts = torch.bincount(assign, minlength=k).clamp(min=1).unsqueeze(1).to(x.dtype)
        new_centers = new_centers / counts
        shift = (new_centers - centers).norm(dim=1).max()
        obj = (dists.gather(1, assign[:, None]) ** 2).sum()
        if verbose and it < 5:
            print(
                f"iter {it} objective {obj.item():.4f} shift {shift.item():.5f} sizes {torch.bincount(assign, minlength=k).tolist()}"
            )
        centers = new_centers
        if shift < 1e-6:
            break
    return centers, assign, obj


centers, assign, obj = kmeans(pts, 3)
order = centers[:, 0].argsort()
print(centers[order])
print(torch.bincount(assign))
for k in range(1, 6):
    torch.manual_seed(0)
    _, _, o = kmeans(pts, k, verbose=False)
    print("k", k, "objective %.3f" % o.item())

# the same assignment via broadcasting and scatter_add
d2 = ((pts[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
print(torch.equal(d2.argmin(1), assign))
sums = torch.zeros(3, 2).scatter_add_(0, assign[:, None].expand(-1, 2), pts)
print(sums / torch.bincount(assign).unsqueeze(1))
print(torch.unique(assign, sorted=True, return_inverse=True)[1][:10])
vals, cnts = torch.unique_consecutive(assign.sort().values, return_counts=True)
print(vals, cnts)
print(torch.pdist(centers[order]), torch.cdist(centers[:1], pts[:3], p=1))

# old-style API the course notes still use
Uo, So, Vo = torch.svd(Xc)
print(Uo.shape, So.shape, Vo.shape, torch.allclose(So, S))
print(torch.allclose((Uo * So) @ Vo.T, Xc, atol=1e-4))
print(torch.linalg.norm(Xc, dim=0)[:3], Xc.norm(dim=1, keepdim=True).shape, torch.norm(Xc, p="fro"))
print(
    torch.linalg.norm(A, ord=float("inf")),
    torch.linalg.norm(A, ord=-2) > 0,
    torch.linalg.vector_norm(A, ord=float("inf")),
)
whiten = (Xc @ Vh[:2].T) / S[:2] * (n - 1) ** 0.5
print(whiten.std(0), whiten.mean(0).abs().max() < 1e-5)
print(torch.linalg.pinv(Xc[:5, :3]).shape, torch.linalg.pinv(torch.diag(torch.tensor([2.0, 0.0]))))
Qc, Rc = torch.linalg.qr(Xc, mode="complete")
print(Qc.shape, Rc.shape, torch.linalg.qr(Xc, mode="r")[0].numel())
