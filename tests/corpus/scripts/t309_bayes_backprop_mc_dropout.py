"""Uncertainty tutorial: Bayes-by-backprop (reparameterised Gaussian weights) vs MC dropout on 1-D regression"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

torch.manual_seed(17)

# data with a gap in the middle
x_left = torch.rand(40, 1) * 1.5 - 2.0
x_right = torch.rand(40, 1) * 1.5 + 0.5
X = torch.cat([x_left, x_right])
Y = torch.sin(2 * X) + 0.1 * torch.randn_like(X)
x_test = torch.linspace(-3, 3, 13).unsqueeze(1)
print("train:", X.shape, Y.shape, "test grid:", x_test.squeeze())


class BayesLinear(nn.Module):
    def __init__(self, in_f, out_f, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(out_f, in_f).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((out_f, in_f), -4.0))
        self.b_mu = nn.Parameter(torch.zeros(out_f))
        self.b_rho = nn.Parameter(torch.full((out_f,), -4.0))
        self.prior = Normal(torch.tensor(0.0), torch.tensor(prior_sigma))
        self.kl = torch.tensor(0.0)

    def forward(self, x, sample=True):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = F.softplus(self.b_rho)
        if sample:
            w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
            b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        else:
            w, b = self.w_mu, self.b_mu
        qw, qb = Normal(self.w_mu, w_sigma), Normal(self.b_mu, b_sigma)
        self.kl = kl_divergence(qw, self.prior).sum() + kl_divergence(qb, self.prior).sum()
        return F.linear(x, w, b)


class BNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.l1 = BayesLinear(1, hidden)
        self.l2 = BayesLinear(hidden, hidden)
        self.l3 = BayesLinear(hidden, 1)
        self.log_noise = nn.Parameter(torch.tensor(-2.0))

    def forward(self, x, sample=True):
        h = torch.tanh(self.l1(x, sample))
        h = torch.tanh(self.l2(h, sample))
        return self.l3(h, sample)

    def kl(self):
        return self.l1.kl + self.l2.kl + self.l3.kl


bnn = BNN()
print(bnn)
print("param names:", [n for n, _ in bnn.named_parameters()])
print(
    "softplus(-4):",
    F.softplus(torch.tensor(-4.0)).item(),
    "softplus beta=2:",
    F.softplus(torch.tensor(1.0), beta=2).item(),
)

# KL of two normals: closed form check
q = Normal(torch.tensor([0.5, -1.0]), torch.tensor([0.3, 2.0]))
p = Normal(0.0, 1.0)
kl_cf = torch.log(p.scale / q.scale) + (q.scale**2 + (q.loc - p.loc) ** 2) / (2 * p.scale**2) - 0.5
print(
    "KL closed form:",
    kl_cf,
    "kl_divergence:",
    kl_divergence(q, Normal(torch.tensor(0.0), torch.tensor(1.0))),
)
print("Normal log_prob:", q.log_prob(torch.tensor([0.0, 0.0])), "entropy:", q.entropy())
print("Normal mean/stddev/variance:", q.mean, q.stddev, q.variance)
print(
    "Normal cdf / icdf:",
    Normal(0.0, 1.0).cdf(torch.tensor([0.0, 1.96])),
    Normal(0.0, 1.0).icdf(torch.tensor([0.975])),
)
torch.manual_seed(0)
print("rsample has grad_fn:", Normal(torch.tensor(0.0, requires_grad=True), 1.0).rsample((2,)))
print(
    "sample shape:",
    q.sample((3,)).shape,
    "batch_shape:",
    q.batch_shape,
    "event_shape:",
    q.event_shape,
)
print(q)

opt = torch.optim.Adam(bnn.parameters(), lr=1e-2)
N = X.shape[0]
for epoch in range(300):
    opt.zero_grad()
    pred = bnn(X)
    noise_sigma = bnn.log_noise.exp()
    nll = -Normal(pred, noise_sigma).log_prob(Y).sum()
    kl = bnn.kl()
    elbo_loss = (nll + kl) / N
    elbo_loss.backward()
    opt.step()
    if epoch % 60 == 0 or epoch == 299:
        print(
            f"epoch {epoch:3d} loss {elbo_loss.item():.5f} nll {nll.item() / N:.5f} kl {kl.item():.3f} noise {noise_sigma.item():.4f}"
        )

bnn.eval()
with torch.no_grad():
    samples = torch.stack([bnn(x_test) for _ in range(100)])
    mean, std = samples.mean(0).squeeze(), samples.std(0).squeeze()
    mean_det = bnn(x_test, sample=False).squeeze()
print("BNN predictive mean:", mean)
print("BNN predictive std:", std)
print("deterministic (mu weights):", mean_det)
gap = x_test.squeeze().abs() < 0.5
print(
    "std in gap vs data region:",
    std[gap].mean().item(),
    std[(x_test.squeeze() > 0.6) & (x_test.squeeze() < 1.9)].mean().item(),
)
print(
    "w sigma stats layer1:",
    F.softplus(bnn.l1.w_rho).mean().item(),
    F.softplus(bnn.l1.w_rho).max().item(),
)


# ---- MC dropout ----
class DropoutNet(nn.Module):
    def __init__(self, p=0.2):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(1, 64), nn.Linear(64, 64), nn.Linear(64, 1)
        self.p = p

    def forward(self, x):
        x = F.dropout(F.relu(self.fc1(x)), self.p, training=self.training)
        x = F.dropout(F.relu(self.fc2(x)), self.p, training=self.training)
        return self.fc3(x)


torch.manual_seed(3)
dnet = DropoutNet()
opt = torch.optim.Adam(dnet.parameters(), lr=5e-3, weight_decay=1e-4)
for epoch in range(300):
    dnet.train()
    opt.zero_grad()
    loss = F.mse_loss(dnet(X), Y)
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(f"dropout net epoch {epoch} mse {loss.item():.5f}")


def enable_mc_dropout(model):
    model.eval()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()
    model.training = True  # functional dropout uses the flag


enable_mc_dropout(dnet)
with torch.no_grad():
    mc = torch.stack([dnet(x_test) for _ in range(50)]).squeeze(-1)
print("MC samples:", mc.shape)
print("MC mean:", mc.mean(0))
print("MC std:", mc.std(0))
lo, hi = torch.quantile(mc, torch.tensor([0.05, 0.95]), dim=0)
print("90% interval width:", hi - lo)
dnet.eval()
with torch.no_grad():
    det = dnet(x_test).squeeze(-1)
print("eval-mode prediction:", det)

# dropout module behaviour
drop = nn.Dropout(p=0.5)
torch.manual_seed(0)
z = torch.ones(2, 8)
print("Dropout train:", drop(z))
drop.eval()
print("Dropout eval:", drop(z))
print(
    "Dropout1d/2d shapes:",
    nn.Dropout1d(0.5)(torch.ones(2, 3, 4)).shape,
    nn.Dropout2d(0.5)(torch.ones(1, 2, 3, 3)).shape,
)
torch.manual_seed(0)
print("AlphaDropout:", nn.AlphaDropout(0.2)(torch.zeros(6)))
print("F.dropout inplace flag:", F.dropout(torch.ones(4), p=0.0))
try:
    nn.Dropout(p=1.5)
except ValueError as e:
    print("bad p:", e)

# calibration check: fraction of train targets inside +/- 2 std
with torch.no_grad():
    tr = torch.stack([bnn(X) for _ in range(100)])
    inside = (
        ((Y - tr.mean(0)).abs() < 2 * (tr.std(0) ** 2 + bnn.log_noise.exp() ** 2).sqrt())
        .float()
        .mean()
    )
print("BNN coverage of +/-2 sigma:", inside.item())

# ---- a tour of torch.distributions used in uncertainty tutorials ----
from torch.distributions import (
    Bernoulli,
    Beta,
    Binomial,
    Categorical,
    Dirichlet,
    Gamma,
    Independent,
    Laplace,
    LogNormal,
    MixtureSameFamily,
    MultivariateNormal,
    OneHotCategorical,
    Poisson,
    StudentT,
    TransformedDistribution,
    Uniform,
    constraints,
)
from torch.distributions.transforms import AffineTransform, ExpTransform, SigmoidTransform

torch.manual_seed(5)
cat = Categorical(logits=torch.tensor([0.5, 1.5, -1.0]))
print("Categorical probs:", cat.probs, "entropy:", cat.entropy(), "sample:", cat.sample((6,)))
print("Categorical log_prob:", cat.log_prob(torch.tensor([0, 1, 2])))
print("Categorical from probs:", Categorical(probs=torch.tensor([0.2, 0.3, 0.5])).logits)
bern = Bernoulli(probs=torch.tensor([0.1, 0.9]))
print(
    "Bernoulli sample:",
    bern.sample((3,)),
    "log_prob:",
    bern.log_prob(torch.tensor([1.0, 1.0])),
    "mean:",
    bern.mean,
)
print("Bernoulli logits:", Bernoulli(logits=torch.tensor([0.0, 2.0])).probs)
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[1.0, 0.5], [0.5, 2.0]]))
print("MVN sample:", mvn.sample((2,)), "log_prob:", mvn.log_prob(torch.tensor([0.5, -0.5])))
print("MVN scale_tril:", mvn.scale_tril, "entropy:", mvn.entropy())
print("MVN event/batch:", mvn.event_shape, mvn.batch_shape)
ind = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(
    "Independent log_prob:",
    ind.log_prob(torch.tensor([0.1, 0.2, 0.3])),
    "event_shape:",
    ind.event_shape,
)
print("KL MVN vs MVN:", kl_divergence(mvn, MultivariateNormal(torch.zeros(2), torch.eye(2))))
print("KL Categorical:", kl_divergence(cat, Categorical(probs=torch.ones(3) / 3)))
print("KL Bernoulli:", kl_divergence(bern, Bernoulli(probs=torch.tensor([0.5, 0.5]))))
u = Uniform(torch.tensor(-1.0), torch.tensor(3.0))
print("Uniform:", u.sample((3,)), u.log_prob(torch.tensor(0.0)), u.mean, u.variance)
try:
    print("Uniform outside support:", u.log_prob(torch.tensor(5.0)))
except ValueError as e:
    print("Uniform support error:", str(e)[:100])
ln = LogNormal(0.0, 0.5)
print("LogNormal mean/var:", ln.mean, ln.variance, "log_prob(1):", ln.log_prob(torch.tensor(1.0)))
print("Beta:", Beta(2.0, 5.0).mean, Beta(2.0, 5.0).log_prob(torch.tensor(0.3)))
print("Gamma:", Gamma(3.0, 2.0).mean, Gamma(3.0, 2.0).log_prob(torch.tensor(1.0)))
print(
    "Laplace:",
    Laplace(0.0, 1.0).log_prob(torch.tensor([0.0, 1.0])),
    "StudentT:",
    StudentT(3.0).log_prob(torch.tensor(0.5)),
)
print(
    "Dirichlet mean:",
    Dirichlet(torch.tensor([1.0, 2.0, 3.0])).mean,
    "sample sums:",
    Dirichlet(torch.tensor([1.0, 2.0, 3.0])).sample((2,)).sum(-1),
)
print(
    "Poisson:",
    Poisson(3.0).log_prob(torch.tensor([0.0, 2.0, 5.0])),
    "Binomial:",
    Binomial(10, torch.tensor(0.3)).log_prob(torch.tensor(3.0)),
)
print("OneHotCategorical sample:", OneHotCategorical(probs=torch.tensor([0.2, 0.8])).sample((3,)))
mix = MixtureSameFamily(
    Categorical(probs=torch.tensor([0.3, 0.7])),
    Normal(torch.tensor([-2.0, 2.0]), torch.tensor([0.5, 1.0])),
)
print(
    "mixture log_prob:",
    mix.log_prob(torch.tensor([-2.0, 0.0, 2.0])),
    "mean:",
    mix.mean,
    "var:",
    mix.variance,
)
td = TransformedDistribution(
    Normal(0.0, 1.0), [AffineTransform(loc=1.0, scale=2.0), ExpTransform()]
)
print(
    "TransformedDistribution log_prob:",
    td.log_prob(torch.tensor(2.0)),
    "vs LogNormal(1,2):",
    LogNormal(1.0, 2.0).log_prob(torch.tensor(2.0)),
)
sig = TransformedDistribution(Uniform(0.0, 1.0), [SigmoidTransform().inv])
print("logistic via inverse sigmoid:", sig.log_prob(torch.tensor(0.0)))
print("constraints:", Normal.arg_constraints, cat.support)
print("positive check:", constraints.positive.check(torch.tensor([-1.0, 0.0, 2.0])))
try:
    Normal(0.0, -1.0)
except ValueError as e:
    print("Normal invalid scale:", str(e)[:120])
try:
    Categorical(probs=torch.tensor([[0.5, 0.5]])).log_prob(torch.tensor([3]))
except ValueError as e:
    print("Categorical bad value:", str(e)[:100])

# ---- which prior? KL of the learned posterior of layer-1 weights to alternative priors ----
from torch.distributions import Laplace

q_w = Normal(bnn.l1.w_mu.detach(), F.softplus(bnn.l1.w_rho.detach()))
print("KL to N(0,1):", kl_divergence(q_w, Normal(0.0, 1.0)).sum())
print("KL to N(0,0.1):", kl_divergence(q_w, Normal(0.0, 0.1)).sum())
print("KL to Uniform-ish wide prior via Normal(0,10):", kl_divergence(q_w, Normal(0.0, 10.0)).sum())
