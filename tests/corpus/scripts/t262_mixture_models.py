"""Mixture models with torch.distributions: MixtureSameFamily, Categorical, Independent, Normal,
MultivariateNormal; EM from scratch with logsumexp; gradient-based fitting; kl_divergence."""

import math

import torch
import torch.distributions as D
from torch.distributions import (
    Bernoulli,
    Categorical,
    Dirichlet,
    Independent,
    MixtureSameFamily,
    MultivariateNormal,
    Normal,
    kl_divergence,
)

torch.manual_seed(11)

# --- 1-D mixture
mix = Categorical(torch.tensor([0.3, 0.5, 0.2]))
comp = Normal(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor([0.5, 1.0, 0.3]))
gmm1 = MixtureSameFamily(mix, comp)
print(gmm1)
print("batch", gmm1.batch_shape, "event", gmm1.event_shape)
print("mean", gmm1.mean, "variance", gmm1.variance)
xs = torch.tensor([-2.0, 0.0, 1.0, 3.0])
print("log_prob", gmm1.log_prob(xs))
print("cdf", gmm1.cdf(xs))
manual = torch.logsumexp(comp.log_prob(xs.unsqueeze(-1)) + mix.logits, dim=-1)
print("manual log_prob", manual)
s = gmm1.sample((5000,))
print("sample", s.shape, "mean %.4f var %.4f" % (s.mean().item(), s.var().item()))

print(mix.probs, mix.logits, mix.entropy())
print("categorical sample", mix.sample((10,)))
print("enumerate_support", mix.enumerate_support())

# --- 2-D mixture with Independent Normals and with full-covariance MVN
K, Dm = 3, 2
mix2 = Categorical(logits=torch.zeros(K))
comp2 = Independent(
    Normal(torch.tensor([[-3.0, 0.0], [0.0, 3.0], [3.0, 0.0]]), torch.full((K, Dm), 0.7)), 1
)
gmm2 = MixtureSameFamily(mix2, comp2)
print("comp2 batch/event", comp2.batch_shape, comp2.event_shape, comp2.reinterpreted_batch_ndims)
print("gmm2 batch/event", gmm2.batch_shape, gmm2.event_shape)
X = gmm2.sample((300,))
print("data", X.shape, X[:3])

covs = torch.stack(
    [
        torch.tensor([[1.0, 0.6], [0.6, 1.0]]),
        torch.eye(2) * 0.5,
        torch.tensor([[0.4, -0.1], [-0.1, 0.8]]),
    ]
)
mvn = MultivariateNormal(torch.zeros(K, Dm), covariance_matrix=covs)
print("mvn batch/event", mvn.batch_shape, mvn.event_shape)
print("scale_tril[0]", mvn.scale_tril[0])
print("precision[2]", mvn.precision_matrix[2])
print("entropy", mvn.entropy())
print("log_prob of origin", mvn.log_prob(torch.zeros(2)))
gmm_full = MixtureSameFamily(Categorical(torch.tensor([0.2, 0.3, 0.5])), mvn)
print("gmm_full log_prob", gmm_full.log_prob(torch.tensor([[0.0, 0.0], [1.0, -1.0]])))


# --- EM for a GMM with diagonal covariances
def em(X, K, iters=30):
    N, Dm = X.shape
    idx = torch.randperm(N)[:K]
    mu = X[idx].clone()
    var = torch.ones(K, Dm)
    pi = torch.full((K,), 1.0 / K)
    prev = -math.inf
    for it in range(iters):
        # E-step
        log_p = Normal(mu, var.sqrt()).log_prob(X.unsqueeze(1)).sum(-1) + pi.log()
        log_norm = torch.logsumexp(log_p, dim=1, keepdim=True)
        resp = (log_p - log_norm).exp()
        ll = log_norm.sum().item()
        # M-step
        Nk = resp.sum(0)
        mu = (resp.T @ X) / Nk.unsqueeze(1)
        var = (resp.T @ X.pow(2)) / Nk.unsqueeze(1) - mu.pow(2) + 1e-6
        pi = Nk / N
        if it % 5 == 0:
            print(f"EM iter {it:2d} log-lik {ll:.4f}")
        if abs(ll - prev) < 1e-4:
            print("converged at iter", it)
            break
        prev = ll
    return pi, mu, var, resp


pi, mu, var, resp = em(X, 3)
order = mu[:, 0].argsort()
print("pi", pi[order])
print("mu", mu[order])
print("var", var[order])
print("resp rows sum to one", torch.allclose(resp.sum(1), torch.ones(len(X))))
print("hard assignments counts", resp.argmax(1).bincount(minlength=3))

# --- gradient-based fitting of a MixtureSameFamily
logits = torch.zeros(3, requires_grad=True)
locs = torch.randn(3, 2, requires_grad=True)
log_scales = torch.zeros(3, 2, requires_grad=True)
opt = torch.optim.Adam([logits, locs, log_scales], lr=0.1)
for step in range(201):
    model = MixtureSameFamily(
        Categorical(logits=logits), Independent(Normal(locs, log_scales.exp()), 1)
    )
    nll = -model.log_prob(X).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step:3d} nll {nll.item():.4f}")
print("fitted weights", torch.softmax(logits, 0).detach())
print("fitted locs", locs.detach()[locs.detach()[:, 0].argsort()])

# --- KL divergences
p = Normal(0.0, 1.0)
q = Normal(1.0, 2.0)
print("KL(N(0,1)||N(1,2))", kl_divergence(p, q), "closed form", math.log(2) + (1 + 1) / 8 - 0.5)
print("KL reverse", kl_divergence(q, p))
mc = (p.log_prob(p.sample((20000,))) - q.log_prob(p.sample((20000,)))).mean()
print(
    "KL categorical",
    kl_divergence(Categorical(torch.tensor([0.5, 0.5])), Categorical(torch.tensor([0.9, 0.1]))),
)
print("KL MVN", kl_divergence(mvn, MultivariateNormal(torch.zeros(2), torch.eye(2))))
print("KL Independent", kl_divergence(comp2, Independent(Normal(torch.zeros(2), torch.ones(2)), 1)))
try:
    kl_divergence(gmm1, p)
except NotImplementedError as e:
    print("NotImplementedError:", e)

# --- Dirichlet prior over mixture weights, Bernoulli mixture
dir_ = Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
w = dir_.sample((4,))
print("dirichlet samples", w, w.sum(-1))
print("dirichlet mean", dir_.mean, "log_prob", dir_.log_prob(torch.tensor([0.2, 0.3, 0.5])))
bmix = MixtureSameFamily(
    Categorical(torch.tensor([0.4, 0.6])),
    Independent(Bernoulli(probs=torch.tensor([[0.9, 0.1, 0.8], [0.2, 0.7, 0.3]])), 1),
)
print("bernoulli mixture log_prob", bmix.log_prob(torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])))
print("support", D.constraints.simplex, Normal.arg_constraints)
