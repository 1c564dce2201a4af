"""Variational autoencoder on synthetic binary 'images': reparameterisation trick, ELBO, KL term."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, Independent, Normal, kl_divergence
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(123)
D, H, Z = 16, 32, 2

# data: 4 prototype 4x4 binary patterns with bit flips
protos = (torch.rand(4, D) > 0.5).float()
print("prototypes:\n", protos.view(4, 4, 4)[0])
labels = torch.randint(0, 4, (400,))
flip = (torch.rand(400, D) < 0.05).float()
X = (protos[labels] + flip) % 2
print("X", X.shape, X.dtype, "mean pixel", X.mean().item())
loader = DataLoader(TensorDataset(X, labels), batch_size=50, shuffle=True)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(D, H)
        self.fc21 = nn.Linear(H, Z)
        self.fc22 = nn.Linear(H, Z)
        self.fc3 = nn.Linear(Z, H)
        self.fc4 = nn.Linear(H, D)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, D))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, D), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE, KLD


model = VAE()
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

x0 = X[:3]
recon, mu, logvar = model(x0)
print("recon", recon.shape, recon.grad_fn, "mu", mu.shape, "logvar", logvar.shape)
bce, kld = loss_function(recon, x0, mu, logvar)
print("initial BCE %.4f KLD %.4f" % (bce.item(), kld.item()))

# analytic KL equals the distributions' kl_divergence
q = Independent(Normal(mu, torch.exp(0.5 * logvar)), 1)
p = Independent(Normal(torch.zeros_like(mu), torch.ones_like(mu)), 1)
print("q batch/event shapes", q.batch_shape, q.event_shape)
print("kl_divergence per item", kl_divergence(q, p))
print("analytic per item     ", -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1))

for epoch in range(1, 9):
    model.train()
    train_loss = 0
    tb, tk = 0.0, 0.0
    for batch_idx, (data, _) in enumerate(loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        BCE, KLD = loss_function(recon_batch, data, mu, logvar)
        loss = BCE + KLD
        loss.backward()
        train_loss += loss.item()
        tb += BCE.item()
        tk += KLD.item()
        optimizer.step()
    print(
        "====> Epoch: {} Average loss: {:.4f} (BCE {:.4f}, KLD {:.4f})".format(
            epoch,
            train_loss / len(loader.dataset),
            tb / len(loader.dataset),
            tk / len(loader.dataset),
        )
    )

model.eval()
with torch.no_grad():
    mu, logvar = model.encode(protos)
    print("prototype codes mu:\n", mu)
    print("prototype codes sigma:\n", torch.exp(0.5 * logvar))
    rec = model.decode(mu)
    print("reconstruction error per prototype", (rec.round() - protos).abs().sum(1))
    sample = torch.randn(5, Z)
    gen = model.decode(sample)
    print("generated (rounded):\n", gen.round()[:2].view(2, 4, 4))

# Monte-Carlo ELBO with distributions, rsample gradients
x = X[:8]
mu, logvar = model.encode(x)
qz = Normal(mu, (0.5 * logvar).exp())
z = qz.rsample((10,))
print("z samples", z.shape, z.requires_grad)
logits = model.fc4(F.relu(model.fc3(z)))
px = Independent(Bernoulli(logits=logits), 1)
log_px = px.log_prob(x)
print("log p(x|z)", log_px.shape)
kl = kl_divergence(qz, Normal(0.0, 1.0)).sum(-1)
elbo = log_px.mean(0) - kl
print("ELBO per example", elbo)
(-elbo.mean()).backward()
print("grad norm fc21", model.fc21.weight.grad.norm().item())
print(
    "importance-weighted bound:",
    (
        torch.logsumexp(
            log_px + Normal(0.0, 1.0).log_prob(z).sum(-1) - qz.log_prob(z).sum(-1), dim=0
        )
        - torch.log(torch.tensor(10.0))
    )
    .mean()
    .item(),
)
