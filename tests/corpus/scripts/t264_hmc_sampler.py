"""Hamiltonian Monte Carlo from scratch: leapfrog integrator with autograd gradients,
Metropolis correction, on a correlated Gaussian and on Bayesian logistic regression."""

import math

import torch
from torch.distributions import Bernoulli, MultivariateNormal, Normal, Uniform

torch.manual_seed(8)

cov = torch.tensor([[1.0, 0.9], [0.9, 1.0]])
target = MultivariateNormal(torch.tensor([1.0, -1.0]), covariance_matrix=cov)
print(target, target.loc, target.covariance_matrix)


def potential(q):
    return -target.log_prob(q)


def grad_U(q):
    q = q.detach().requires_grad_(True)
    u = potential(q)
    (g,) = torch.autograd.grad(u, q)
    return g


q0 = torch.zeros(2)
print("U(0)", potential(q0).item(), "grad U(0)", grad_U(q0))
print("analytic grad", -torch.linalg.solve(cov, torch.tensor([1.0, -1.0])))


def leapfrog(q, p, step_size, n_steps, grad_fn):
    q, p = q.clone(), p.clone()
    p = p - 0.5 * step_size * grad_fn(q)
    for i in range(n_steps):
        q = q + step_size * p
        if i != n_steps - 1:
            p = p - step_size * grad_fn(q)
    p = p - 0.5 * step_size * grad_fn(q)
    return q, -p


def hamiltonian(q, p, U):
    return U(q) + 0.5 * (p**2).sum()


q = torch.tensor([0.5, 0.5])
p = torch.tensor([1.0, -0.5])
H0 = hamiltonian(q, p, potential).item()
for n in (1, 5, 20):
    q1, p1 = leapfrog(q, p, 0.1, n, grad_U)
    print(
        f"{n:2d} leapfrog steps: q={q1.tolist()} dH={hamiltonian(q1, p1, potential).item() - H0:.6f}"
    )
qb, pb = leapfrog(*leapfrog(q, p, 0.1, 10, grad_U), 0.1, 10, grad_U)
print("reversibility error", (qb - q).abs().max().item(), (pb - p).abs().max().item())


def hmc(U, grad_fn, q_init, n_samples, step_size, n_steps, burn_in=50):
    samples = []
    q = q_init.clone()
    accepted = 0
    for it in range(n_samples + burn_in):
        p = torch.randn_like(q)
        q_new, p_new = leapfrog(q, p, step_size, n_steps, grad_fn)
        H_cur = hamiltonian(q, p, U)
        H_new = hamiltonian(q_new, p_new, U)
        accept_prob = torch.exp(H_cur - H_new).clamp(max=1.0)
        if torch.rand(()) < accept_prob:
            q = q_new
            if it >= burn_in:
                accepted += 1
        if it >= burn_in:
            samples.append(q.detach().clone())
    return torch.stack(samples), accepted / n_samples


samples, acc = hmc(potential, grad_U, torch.zeros(2), 200, 0.15, 8, burn_in=30)
print("samples", samples.shape, "acceptance", acc)
print("sample mean", samples.mean(0))
print("sample cov\n", torch.cov(samples.T))
print("corrcoef\n", torch.corrcoef(samples.T))
print("first samples\n", samples[:3])


def autocorr(x, lag):
    x = x - x.mean()
    return (x[:-lag] * x[lag:]).sum() / (x * x).sum()


print("autocorrelations", [round(autocorr(samples[:, 0], l).item(), 4) for l in (1, 2, 5, 10)])

# Bayesian logistic regression posterior
N, Dm = 60, 2
Xd = torch.randn(N, Dm)
w_true = torch.tensor([1.5, -2.0])
yd = Bernoulli(logits=Xd @ w_true).sample()
print("labels mean", yd.mean().item(), yd[:10])
prior = Normal(torch.zeros(Dm), torch.ones(Dm) * 2.0)


def U_logreg(w):
    logits = Xd @ w
    ll = Bernoulli(logits=logits).log_prob(yd).sum()
    return -(ll + prior.log_prob(w).sum())


def U_logreg_manual(w):
    logits = Xd @ w
    ll = -torch.nn.functional.binary_cross_entropy_with_logits(logits, yd, reduction="sum")
    return -(ll - 0.5 * (w / 2.0).pow(2).sum() - Dm * math.log(2.0 * math.sqrt(2 * math.pi)))


w0 = torch.tensor([0.3, -0.2])
print("U two ways", U_logreg(w0).item(), U_logreg_manual(w0).item())


def grad_logreg(w):
    w = w.detach().requires_grad_(True)
    U_logreg(w).backward()
    return w.grad


ws, acc = hmc(U_logreg, grad_logreg, torch.zeros(Dm), 120, 0.1, 10, burn_in=20)
print("logreg acceptance", acc)
print("posterior mean", ws.mean(0), "std", ws.std(0))
print("posterior quantiles w0", torch.quantile(ws[:, 0], torch.tensor([0.1, 0.5, 0.9])))
probs = torch.sigmoid(Xd[:5] @ ws.T).mean(1)
print("posterior predictive p(y=1) for 5 points", probs)
print("true labels", yd[:5])

# MAP for comparison
w_map = torch.zeros(Dm, requires_grad=True)
opt = torch.optim.SGD([w_map], lr=0.01)
for i in range(200):
    opt.zero_grad()
    U_logreg(w_map).backward()
    opt.step()
print("MAP", w_map.detach(), "U(MAP)", U_logreg(w_map).item())
print(
    "uniform check",
    Uniform(0.0, 1.0).sample((3,)),
    Uniform(torch.tensor([0.0]), torch.tensor([2.0])).log_prob(torch.tensor([1.0])),
)
