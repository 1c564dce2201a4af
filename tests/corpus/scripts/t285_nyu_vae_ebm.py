"""NYU DL style: a small VAE on synthetic binary "images", then a toy energy-based model."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, Independent, Normal, kl_divergence

torch.manual_seed(0)


# synthetic 6x6 binary images: horizontal or vertical bars
def bars(n):
    imgs = torch.zeros(n, 6, 6)
    kind = torch.randint(0, 2, (n,))
    pos = torch.randint(0, 6, (n,))
    for i in range(n):
        if kind[i] == 0:
            imgs[i, pos[i], :] = 1
        else:
            imgs[i, :, pos[i]] = 1
    noise = torch.rand(n, 6, 6) < 0.05
    return torch.logical_xor(imgs.bool(), noise).float(), kind


data, kinds = bars(256)
print(data.shape, data.dtype, data.mean().item(), kinds[:10])
print(data[0])

d = 8


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(36, d**2), nn.ReLU(), nn.Linear(d**2, d * 2))
        self.decoder = nn.Sequential(
            nn.Linear(d, d**2), nn.ReLU(), nn.Linear(d**2, 36), nn.Sigmoid()
        )

    def reparameterise(self, mu, logvar):
        if self.training:
            std = logvar.mul(0.5).exp_()
            eps = std.data.new(std.size()).normal_()
            return eps.mul(std).add_(mu)
        return mu

    def forward(self, x):
        mu_logvar = self.encoder(x.view(-1, 36)).view(-1, 2, d)
        mu = mu_logvar[:, 0, :]
        logvar = mu_logvar[:, 1, :]
        z = self.reparameterise(mu, logvar)
        return self.decoder(z), mu, logvar


model = VAE()
print(model)


def loss_function(x_hat, x, mu, logvar, beta=1):
    BCE = F.binary_cross_entropy(x_hat, x.view(-1, 36), reduction="sum")
    KLD = 0.5 * torch.sum(logvar.exp() - logvar - 1 + mu.pow(2))
    return BCE + beta * KLD, BCE, KLD


opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(6):
    model.train()
    train_loss = 0
    for i in range(0, 256, 64):
        x = data[i : i + 64]
        x_hat, mu, logvar = model(x)
        loss, bce, kld = loss_function(x_hat, x, mu, logvar)
        train_loss += loss.item()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(
        f"====> Epoch: {epoch} Average loss: {train_loss / 256:.4f}  (bce {bce.item():.3f} kld {kld.item():.3f})"
    )

model.eval()
with torch.no_grad():
    x_hat, mu, logvar = model(data[:4])
    print(mu.shape, logvar.shape)
    print(x_hat[0].view(6, 6).round(decimals=2))
    z = torch.randn(3, d)
    samples = model.decoder(z)
    print(samples.view(3, 6, 6)[0] > 0.5)
    # interpolation between two codes
    mu_a, mu_b = mu[0], mu[1]
    for alpha in torch.linspace(0, 1, 3):
        zz = (1 - alpha) * mu_a + alpha * mu_b
        print(alpha.item(), model.decoder(zz).sum().item())

# same KL through torch.distributions
q = Normal(mu, (0.5 * logvar).exp())
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = kl_divergence(q, p).sum()
manual = 0.5 * torch.sum(logvar.exp() - logvar - 1 + mu.pow(2))
print(kl, manual, torch.allclose(kl, manual, atol=1e-4))
print(q)
qi = Independent(q, 1)
print(qi.batch_shape, qi.event_shape, qi.log_prob(mu).shape)
lik = Bernoulli(probs=x_hat.clamp(1e-6, 1 - 1e-6))
print(lik.log_prob(data[:4].view(-1, 36)).sum(1))
torch.manual_seed(5)
print(q.rsample().shape, q.sample((2,)).shape, Normal(0.0, 1.0).sample((3,)))
print(
    Normal(torch.tensor([0.0]), torch.tensor([2.0])).entropy(),
    Normal(1.0, 2.0).log_prob(torch.tensor(0.5)),
)

# ---- energy-based model on 2D data: two Gaussian blobs ----
torch.manual_seed(2)
centers = torch.tensor([[-1.5, 0.0], [1.5, 0.0]])
pts = centers[torch.randint(0, 2, (200,))] + 0.3 * torch.randn(200, 2)
print(pts.mean(0), pts.std(0))

energy = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, 1))


def langevin(x, steps=20, step_size=0.05):
    x = x.clone().requires_grad_(True)
    for _ in range(steps):
        e = energy(x).sum()
        (g,) = torch.autograd.grad(e, x)
        x = (
            (x - step_size * g + (2 * step_size) ** 0.5 * 0.1 * torch.randn_like(x))
            .detach()
            .requires_grad_(True)
        )
    return x.detach()


eopt = torch.optim.Adam(energy.parameters(), lr=1e-3)
for it in range(40):
    pos = pts[torch.randint(0, 200, (64,))]
    neg = langevin(torch.rand(64, 2) * 6 - 3)
    e_pos = energy(pos).mean()
    e_neg = energy(neg).mean()
    reg = (energy(pos) ** 2).mean() + (energy(neg) ** 2).mean()
    loss = e_pos - e_neg + 0.1 * reg
    eopt.zero_grad()
    loss.backward()
    eopt.step()
    if it % 10 == 0:
        print(f"it {it} loss {loss.item():.4f} E+ {e_pos.item():.4f} E- {e_neg.item():.4f}")
with torch.no_grad():
    grid = torch.stack(
        torch.meshgrid(torch.linspace(-2, 2, 5), torch.tensor([0.0]), indexing="xy"), -1
    ).view(-1, 2)
    print(grid)
    print(energy(grid).squeeze())
    # free energy with a soft-min (LogSumExp) over latent z
    zs = torch.linspace(-1, 1, 11)
    E_z = (grid[:, :1] - 1.5 * zs.view(1, -1)) ** 2
    beta = 2.0
    F_beta = -1 / beta * torch.logsumexp(-beta * E_z, dim=1)
    print(F_beta, E_z.min(1).values)
    print(torch.softmax(-beta * E_z, dim=1)[0])

# distributions cheat-sheet used in the VAE lecture
from torch.distributions import (
    Beta,
    Categorical,
    Laplace,
    LogNormal,
    MultivariateNormal,
    OneHotCategorical,
    Uniform,
)

torch.manual_seed(21)
cat = Categorical(logits=torch.tensor([0.0, 1.0, 2.0]))
print(cat.probs, cat.entropy(), cat.sample((5,)), cat.log_prob(torch.tensor([0, 2])))
print(
    Categorical(probs=torch.tensor([[0.5, 0.5], [0.9, 0.1]])).sample(),
    cat.batch_shape,
    cat.event_shape,
    cat.mean if False else cat.param_shape,
)
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(
    mvn.scale_tril, mvn.log_prob(torch.tensor([0.5, -0.5])), mvn.entropy(), mvn.rsample((2,)).shape
)
print(mvn.variance, mvn.sample())
u = Uniform(torch.tensor([0.0]), torch.tensor([2.0]))
print(
    u.sample((3,)).squeeze(),
    u.log_prob(torch.tensor([1.0])),
    u.entropy(),
    u.cdf(torch.tensor([0.5])),
)
b = Beta(torch.tensor([2.0]), torch.tensor([3.0]))
print(b.mean, b.variance, b.log_prob(torch.tensor([0.3])))
lap = Laplace(0.0, 1.0)
print(lap.log_prob(torch.tensor([0.0, 1.0])), lap.sample((2,)), lap.cdf(torch.tensor(0.0)))
oh = OneHotCategorical(probs=torch.tensor([0.2, 0.8]))
print(oh.sample((3,)), oh.event_shape)
ln_ = LogNormal(0.0, 0.5)
print(ln_.mean, ln_.sample((2,)), ln_.log_prob(torch.tensor(1.0)))
print(
    kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)),
    kl_divergence(
        Categorical(probs=torch.tensor([0.5, 0.5])), Categorical(probs=torch.tensor([0.9, 0.1]))
    ),
)
print(
    kl_divergence(Bernoulli(0.3), Bernoulli(0.6)),
    Bernoulli(logits=torch.tensor([0.0, 2.0])).probs,
    Bernoulli(0.3).entropy(),
)
try:
    Normal(0.0, -1.0)
except ValueError as e:
    print("ValueError:", str(e)[:120])
try:
    Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor([2]))
except ValueError as e:
    print("ValueError:", str(e)[:120])
print(Normal(torch.zeros(3), 1.0))
print(Independent(Normal(torch.zeros(2, 3), 1.0), 1).log_prob(torch.zeros(2, 3)))
