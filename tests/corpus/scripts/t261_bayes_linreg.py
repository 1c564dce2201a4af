"""Bayesian linear regression with polynomial features: conjugate posterior, predictive
distribution, evidence for model selection, and a variational (mean-field) version."""

import math

import torch
from torch.distributions import Gamma, MultivariateNormal, Normal, kl_divergence

torch.manual_seed(5)

N = 25
x = torch.linspace(-1, 1, N)
w_true = torch.tensor([0.5, -1.0, 2.0])


def phi(x, degree):
    return torch.stack([x**k for k in range(degree + 1)], dim=1)


y = phi(x, 2) @ w_true + 0.2 * torch.randn(N)
print("x", x[:5], "y", y[:5])
Phi = phi(x, 2)
print("design matrix", Phi.shape, "\n", Phi[:3])

# least squares
sol = torch.linalg.lstsq(Phi, y.unsqueeze(-1))
print("lstsq solution", sol.solution.squeeze(), "rank", sol.rank)
w_ls = torch.linalg.pinv(Phi) @ y
print("pinv solution", w_ls)
print("normal equations", torch.linalg.solve(Phi.T @ Phi, Phi.T @ y))
res = y - Phi @ w_ls
print("residual norm", torch.linalg.norm(res).item(), "mse", res.pow(2).mean().item())

alpha, beta = 2.0, 25.0  # prior precision, noise precision


def posterior(Phi, y, alpha, beta):
    D = Phi.shape[1]
    S_N_inv = alpha * torch.eye(D) + beta * Phi.T @ Phi
    S_N = torch.linalg.inv(S_N_inv)
    m_N = beta * S_N @ Phi.T @ y
    return m_N, S_N


m_N, S_N = posterior(Phi, y, alpha, beta)
print("posterior mean", m_N)
print("posterior cov\n", S_N)
print("posterior std", S_N.diagonal().sqrt())
print("symmetric?", torch.allclose(S_N, S_N.T, atol=1e-6))

# sequential updates reach the same posterior
m, S = torch.zeros(3), torch.eye(3) / alpha
for n in range(N):
    p = Phi[n : n + 1]
    S_inv_new = torch.linalg.inv(S) + beta * p.T @ p
    S_new = torch.linalg.inv(S_inv_new)
    m = S_new @ (torch.linalg.solve(S, m) + beta * p.squeeze(0) * y[n])
    S = S_new
    if n in (0, 4, 24):
        print(f"after {n + 1:2d} points mean {m.tolist()}")
print("sequential == batch:", torch.allclose(m, m_N, atol=1e-4), torch.allclose(S, S_N, atol=1e-5))

# predictive distribution
xs = torch.tensor([-1.5, -0.5, 0.0, 0.5, 1.5])
Ps = phi(xs, 2)
pred_mean = Ps @ m_N
pred_var = 1 / beta + (Ps @ S_N * Ps).sum(-1)
print("predictive mean", pred_mean)
print("predictive std", pred_var.sqrt())
pred = Normal(pred_mean, pred_var.sqrt())
print("95% interval low", pred.icdf(torch.tensor(0.025)))
print("95% interval high", pred.icdf(torch.tensor(0.975)))
print("cdf at truth", pred.cdf(phi(xs, 2) @ w_true))

# posterior samples of weight vectors
post = MultivariateNormal(m_N, covariance_matrix=S_N)
ws = post.sample((2000,))
print("sample mean", ws.mean(0), "sample std", ws.std(0))
print("MC predictive mean", (Ps @ ws.T).mean(1))
print("quantiles of w2", torch.quantile(ws[:, 2], torch.tensor([0.05, 0.5, 0.95])))
print(
    "prior->posterior KL",
    kl_divergence(post, MultivariateNormal(torch.zeros(3), torch.eye(3) / alpha)).item(),
)


# model evidence for degrees 0..5
def log_evidence(Phi, y, alpha, beta):
    N, M = Phi.shape
    A = alpha * torch.eye(M) + beta * Phi.T @ Phi
    m = beta * torch.linalg.solve(A, Phi.T @ y)
    E = beta / 2 * (y - Phi @ m).pow(2).sum() + alpha / 2 * m @ m
    sign, logdetA = torch.linalg.slogdet(A)
    return (
        M / 2 * math.log(alpha)
        + N / 2 * math.log(beta)
        - E
        - 0.5 * logdetA
        - N / 2 * math.log(2 * math.pi)
    )


for deg in range(6):
    print(f"degree {deg}: log evidence {log_evidence(phi(x, deg), y, alpha, beta).item():.4f}")
marg = MultivariateNormal(
    torch.zeros(N), covariance_matrix=Phi @ Phi.T / alpha + torch.eye(N) / beta
)
print("evidence via MVN:", marg.log_prob(y).item())

# evidence maximisation for alpha, beta (MacKay fixed-point iterations)
a, b = torch.tensor(1.0), torch.tensor(1.0)
eig0 = torch.linalg.eigvalsh(Phi.T @ Phi)
for it in range(10):
    lam = b * eig0
    m, _ = posterior(Phi, y, a, b)
    gamma = (lam / (a + lam)).sum()
    a = gamma / (m @ m)
    b = (N - gamma) / (y - Phi @ m).pow(2).sum()
    if it % 3 == 0:
        print(f"iter {it}: alpha {a.item():.4f} beta {b.item():.4f} gamma {gamma.item():.4f}")

# mean-field variational inference with the reparameterisation trick
q_mu = torch.zeros(3, requires_grad=True)
q_logstd = torch.full((3,), -1.0, requires_grad=True)
opt = torch.optim.Adam([q_mu, q_logstd], lr=0.05)
prior = Normal(torch.zeros(3), torch.full((3,), 1 / math.sqrt(alpha)))
for step in range(301):
    q = Normal(q_mu, q_logstd.exp())
    w = q.rsample((16,))
    loglik = Normal(w @ Phi.T, 1 / math.sqrt(beta)).log_prob(y).sum(-1).mean()
    kl = kl_divergence(q, prior).sum()
    loss = kl - loglik
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 60 == 0:
        print(
            f"step {step:3d} -ELBO {loss.item():.3f} mu {q_mu.detach()} std {q_logstd.exp().detach()}"
        )
print("VI mean vs exact", q_mu.detach(), m_N)
print("VI std underestimates:", q_logstd.exp().detach(), S_N.diagonal().sqrt())
print(Gamma(torch.tensor(2.0), torch.tensor(3.0)).mean, Gamma(2.0, 3.0).variance)
