"""UW CSE 446 style homework: polynomial regression, ridge, kernel ridge regression, cross-validation."""

import math

import torch

torch.manual_seed(446)
DT = torch.float64
print(
    torch.get_default_dtype(),
    torch.tensor([1.0], dtype=DT).dtype,
    torch.zeros(2, dtype=DT).dtype,
    torch.arange(3).dtype,
)


def f_true(x):
    return 4 * torch.sin(math.pi * x) * torch.cos(6 * math.pi * x**2)


n = 30
x = torch.rand(n, dtype=DT)
y = f_true(x) + torch.randn(n, dtype=DT)
print(x[:5], y[:5])


def poly_features(x, degree):
    return torch.stack([x**d for d in range(1, degree + 1)], dim=1)


class PolynomialRegression:
    def __init__(self, degree=1, reg_lambda=1e-8):
        self.degree = degree
        self.reg_lambda = reg_lambda
        self.weight = None
        self.mean = None
        self.std = None

    def fit(self, X, y):
        feats = poly_features(X, self.degree)
        self.mean = feats.mean(0)
        self.std = feats.std(0)
        feats = (feats - self.mean) / self.std
        A = torch.cat([torch.ones(len(X), 1, dtype=DT), feats], dim=1)
        reg = self.reg_lambda * torch.eye(self.degree + 1, dtype=DT)
        reg[0, 0] = 0
        self.weight = torch.linalg.solve(A.T @ A + reg, A.T @ y)

    def predict(self, X):
        feats = (poly_features(X, self.degree) - self.mean) / self.std
        A = torch.cat([torch.ones(len(X), 1, dtype=DT), feats], dim=1)
        return A @ self.weight


for deg in [1, 4, 8]:
    for lam in [0.0, 1e-3]:
        m = PolynomialRegression(deg, lam)
        m.fit(x, y)
        mse = ((m.predict(x) - y) ** 2).mean()
        print(
            f"degree {deg} lambda {lam:g} train mse {mse.item():.6f} |w| {m.weight.norm().item():.4f}"
        )
print(torch.vander(torch.tensor([1.0, 2.0, 3.0], dtype=DT), N=4))
print(torch.vander(torch.tensor([1.0, 2.0, 3.0], dtype=DT), N=3, increasing=True))


# ---- kernels ----
def k_poly(x, z, d):
    return (1 + torch.outer(x, z)) ** d


def k_rbf(x, z, gamma):
    return (
        torch.exp(-gamma * torch.subtract.outer(x, z) ** 2)
        if hasattr(torch.subtract, "outer")
        else torch.exp(-gamma * (x[:, None] - z[None, :]) ** 2)
    )


def train_kernel(x, y, kernel, hyper, lam):
    K = kernel(x, x, hyper)
    alpha = torch.linalg.solve(K + lam * torch.eye(len(x), dtype=DT), y)
    return alpha


def predict_kernel(alpha, x_train, x_val, kernel, hyper):
    return kernel(x_val, x_train, hyper) @ alpha


Kp = k_poly(x[:4], x[:4], 3)
print(Kp)
Kr = k_rbf(x[:4], x[:4], 10.0)
print(Kr)
print(torch.linalg.eigvalsh(Kr))
print(torch.cdist(x[:4, None], x[:4, None]) ** 2)
print(torch.allclose(torch.exp(-10.0 * torch.cdist(x[:4, None], x[:4, None]) ** 2), Kr))
L = torch.linalg.cholesky(Kr + 1e-6 * torch.eye(4, dtype=DT))
print(L)
print(
    torch.cholesky_solve(y[:4, None], L).squeeze(),
    torch.linalg.solve(Kr + 1e-6 * torch.eye(4, dtype=DT), y[:4]),
)
try:
    torch.linalg.cholesky(-torch.eye(3, dtype=DT))
except RuntimeError as e:
    print(type(e).__name__, e)


# ---- k-fold cross validation over hyperparameters ----
def cross_validate(x, y, kernel, hyper, lam, num_folds):
    perm = torch.randperm(len(x))
    folds = perm.chunk(num_folds)
    errs = []
    for i in range(num_folds):
        val = folds[i]
        tr = torch.cat([folds[j] for j in range(num_folds) if j != i])
        alpha = train_kernel(x[tr], y[tr], kernel, hyper, lam)
        pred = predict_kernel(alpha, x[tr], x[val], kernel, hyper)
        errs.append(((pred - y[val]) ** 2).mean())
    return torch.stack(errs).mean()


torch.manual_seed(1)
results = {}
for lam in 10.0 ** torch.arange(-4, 1, dtype=DT):
    for gamma in [1.0, 10.0, 50.0]:
        err = cross_validate(x, y, k_rbf, gamma, lam.item(), 5)
        results[(lam.item(), gamma)] = err.item()
best = min(results, key=results.get)
print("rbf best (lambda, gamma):", best, "cv err %.5f" % results[best])
for lam in [1e-3, 1e-1]:
    for d in [5, 10, 20]:
        print("poly", lam, d, "%.5f" % cross_validate(x, y, k_poly, d, lam, n).item())

alpha = train_kernel(x, y, k_rbf, best[1], best[0])
grid = torch.linspace(0, 1, 9, dtype=DT)
print(predict_kernel(alpha, x, grid, k_rbf, best[1]))
print(f_true(grid))

# bootstrap confidence interval of the fitted function at a few points
torch.manual_seed(2)
B = 50
preds = torch.empty(B, len(grid), dtype=DT)
for bi in range(B):
    idx = torch.randint(0, n, (n,))
    a = train_kernel(x[idx], y[idx], k_rbf, best[1], best[0])
    preds[bi] = predict_kernel(a, x[idx], grid, k_rbf, best[1])
lo = torch.quantile(preds, 0.05, dim=0)
hi = torch.quantile(preds, 0.95, dim=0)
print(lo)
print(hi)
print(
    torch.quantile(
        torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([0.25, 0.5, 0.9]), interpolation="nearest"
    )
)
print(preds.median(dim=0).values[:3], preds.nanmean(0)[:3])
print(
    torch.tensor([1.0]).dtype,
    alpha.dtype,
    (alpha.float() * 2).dtype,
    (torch.ones(2) + alpha[:2]).dtype,
)

# solving the ridge system several ways (the homework's "numerical linear algebra" aside)
torch.manual_seed(3)
Kx = k_rbf(x, x, 10.0) + 0.1 * torch.eye(n, dtype=DT)
Lc = torch.linalg.cholesky(Kx)
z1 = torch.linalg.solve_triangular(Lc, y[:, None], upper=False)
a1 = torch.linalg.solve_triangular(Lc.T, z1, upper=True).squeeze()
a2 = torch.cholesky_solve(y[:, None], Lc).squeeze()
a3 = torch.triangular_solve(
    torch.triangular_solve(y[:, None], Lc, upper=False).solution, Lc.T, upper=True
).solution.squeeze()
a4 = torch.cholesky_inverse(Lc) @ y
sol, info = torch.linalg.solve_ex(Kx, y)
print(
    torch.allclose(a1, a2),
    torch.allclose(a1, a3),
    torch.allclose(a1, a4),
    torch.allclose(a1, sol),
    info,
    info.dtype,
)
print(torch.linalg.multi_dot([Kx[:3, :3], Kx[:3, :3], y[:3, None]]).squeeze())
print(torch.linalg.eigvalsh(Kx).min() > 0, torch.linalg.cond(Kx) > 1)
ev, evec = torch.linalg.eigh(Kx)
a5 = evec @ ((evec.T @ y) / ev)
print(torch.allclose(a1, a5))
print(
    torch.trapezoid(f_true(grid), grid),
    torch.cumulative_trapezoid(grid**2, grid)[-1],
    torch.trapz(torch.ones(3, dtype=DT)),
)
print(torch.linalg.lstsq(poly_features(x, 3), y[:, None], driver="gelsd").solution.squeeze())
try:
    torch.linalg.solve(torch.ones(3, 3, dtype=DT), torch.ones(3, dtype=DT))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.solve(Kx, torch.ones(5, dtype=DT))
except RuntimeError as e:
    print("RuntimeError:", e)
Lx, inf2 = torch.linalg.cholesky_ex(-Kx[:3, :3])
print(inf2, torch.linalg.inv_ex(Kx[:3, :3]).info)
