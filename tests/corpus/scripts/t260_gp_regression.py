"""Gaussian-process regression from scratch: RBF kernel, Cholesky, log marginal likelihood,
hyperparameter fitting with Adam, posterior predictive and samples."""

import math

import torch
from torch.distributions import MultivariateNormal

torch.manual_seed(17)
torch.set_printoptions(precision=5)


def f_true(x):
    return torch.sin(3 * x) + 0.3 * x


N = 20
X = torch.sort(torch.rand(N, 1) * 4 - 2, dim=0).values
y = f_true(X).squeeze(-1) + 0.1 * torch.randn(N)
Xs = torch.linspace(-2.5, 2.5, 11).unsqueeze(-1)
print("X[:5]", X[:5].squeeze())
print("y[:5]", y[:5])
print("Xs", Xs.squeeze())


def rbf(A, B, lengthscale, variance):
    d2 = torch.cdist(A / lengthscale, B / lengthscale).pow(2)
    return variance * torch.exp(-0.5 * d2)


def rbf_explicit(A, B, lengthscale, variance):
    diff = A.unsqueeze(1) - B.unsqueeze(0)
    return variance * torch.exp(-0.5 * (diff**2).sum(-1) / lengthscale**2)


K = rbf(X, X, 1.0, 1.0)
print("K shape", K.shape, "diag", K.diagonal()[:4])
print("cdist vs explicit max err", (K - rbf_explicit(X, X, 1.0, 1.0)).abs().max().item())
ev = torch.linalg.eigvalsh(K)
print("eigvals min/max", ev.min().item(), ev.max().item())
print("condition number", torch.linalg.cond(K + 1e-2 * torch.eye(N)).item())


def posterior(X, y, Xs, ls, var, noise):
    K = rbf(X, X, ls, var) + noise * torch.eye(len(X))
    Ks = rbf(X, Xs, ls, var)
    Kss = rbf(Xs, Xs, ls, var)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    mean = Ks.T @ alpha
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    cov = Kss - v.T @ v
    return mean.squeeze(-1), cov, L, alpha


mean, cov, L, alpha = posterior(X, y, Xs, 1.0, 1.0, 0.01)
print("L[:3,:3]\n", L[:3, :3])
print("L lower-triangular:", torch.allclose(L, torch.tril(L)))
print("L L^T = K:", torch.allclose(L @ L.mT, K + 0.01 * torch.eye(N), atol=1e-5))
print("posterior mean", mean)
print("posterior std ", cov.diagonal().clamp_min(0).sqrt())
print("true f        ", f_true(Xs).squeeze())

# compare with direct solves
Kn = K + 0.01 * torch.eye(N)
alpha2 = torch.linalg.solve(Kn, y)
print("cholesky_solve vs linalg.solve", (alpha.squeeze() - alpha2).abs().max().item() < 1e-3)
print(
    "inv-based mean equal",
    torch.allclose(rbf(X, Xs, 1.0, 1.0).T @ torch.linalg.inv(Kn) @ y, mean, atol=1e-3),
)
Linv = torch.linalg.inv(L)
print("L^-1 is lower:", torch.allclose(Linv, Linv.tril(), atol=1e-6))


def neg_log_marginal_likelihood(X, y, log_ls, log_var, log_noise):
    ls, var, noise = log_ls.exp(), log_var.exp(), log_noise.exp()
    K = rbf(X, X, ls, var) + noise * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    data_fit = 0.5 * (y.unsqueeze(-1) * alpha).sum()
    complexity = torch.log(torch.diagonal(L)).sum()
    return data_fit + complexity + 0.5 * len(X) * math.log(2 * math.pi)


log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(math.log(0.1), requires_grad=True)
nlml = neg_log_marginal_likelihood(X, y, log_ls, log_var, log_noise)
print("initial NLML", nlml)
mvn = MultivariateNormal(torch.zeros(N), covariance_matrix=rbf(X, X, 1.0, 1.0) + 0.1 * torch.eye(N))
print("MultivariateNormal check", -mvn.log_prob(y).item())
print(
    "logdet check",
    0.5 * torch.logdet(rbf(X, X, 1.0, 1.0) + 0.1 * torch.eye(N)).item(),
    torch.log(torch.diagonal(torch.linalg.cholesky(rbf(X, X, 1.0, 1.0) + 0.1 * torch.eye(N))))
    .sum()
    .item(),
)

opt = torch.optim.Adam([log_ls, log_var, log_noise], lr=0.05)
for it in range(151):
    opt.zero_grad()
    loss = neg_log_marginal_likelihood(X, y, log_ls, log_var, log_noise)
    loss.backward()
    opt.step()
    if it % 25 == 0:
        print(
            f"iter {it:3d} NLML {loss.item():.5f} ls {log_ls.exp().item():.4f} var {log_var.exp().item():.4f} noise {log_noise.exp().item():.5f}"
        )

with torch.no_grad():
    ls, var, noise = log_ls.exp(), log_var.exp(), log_noise.exp()
    mean, cov, L, _ = posterior(X, y, Xs, ls, var, noise)
    std = cov.diagonal().clamp_min(0).sqrt()
    print("fitted mean", mean)
    print("fitted std ", std)
    print("RMSE vs truth", (mean - f_true(Xs).squeeze()).pow(2).mean().sqrt().item())
    inside = ((f_true(Xs).squeeze() - mean).abs() < 2 * std).float().mean()
    print("fraction of truth inside 2 std:", inside.item())
    jitter = 1e-5 * torch.eye(len(Xs))
    post = MultivariateNormal(mean, scale_tril=torch.linalg.cholesky(cov + jitter))
    torch.manual_seed(0)
    fs = post.sample((3,))
    print("posterior function samples\n", fs)
    print("sample log_probs", post.log_prob(fs))
    print("entropy", post.entropy().item())


# gradient of NLML wrt hyperparameters matches finite differences
def nl(ls):
    return neg_log_marginal_likelihood(
        X.double(),
        y.double(),
        ls,
        torch.tensor(0.0, dtype=torch.float64),
        torch.tensor(math.log(0.05), dtype=torch.float64),
    )


t = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(nl(t), t)
h = 1e-5
fd = (
    nl(torch.tensor(0.2 + h, dtype=torch.float64)) - nl(torch.tensor(0.2 - h, dtype=torch.float64))
) / (2 * h)
print("dNLML/dlog_ls autograd %.6f finite-diff %.6f" % (g.item(), fd.item()))
print(torch.autograd.gradcheck(nl, (t,)))
