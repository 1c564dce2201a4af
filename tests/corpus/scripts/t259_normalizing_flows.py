"""Normalising flows: planar flow and RealNVP affine coupling, with log-det-Jacobians checked
against autograd's Jacobian, trained by maximum likelihood on a 2-D two-moons-like set."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import jacobian
from torch.distributions import Independent, MultivariateNormal, Normal

torch.manual_seed(2024)


def two_moons(n, noise=0.08):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    which = torch.rand(n) < 0.5
    x = torch.where(which.unsqueeze(1), upper, lower)
    return x + noise * torch.randn(n, 2)


data = two_moons(512)
data = (data - data.mean(0)) / data.std(0)
print("data", data.shape, data.mean(0), data.std(0))

base = MultivariateNormal(torch.zeros(2), torch.eye(2))
print(base, base.batch_shape, base.event_shape)
print(
    "base log_prob(0) =", base.log_prob(torch.zeros(2)).item(), "expected", -math.log(2 * math.pi)
)


# ---------- planar flow  f(z) = z + u h(w^T z + b)
class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.randn(dim) * 0.1)
        self.w = nn.Parameter(torch.randn(dim) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))

    def u_hat(self):
        # enforce invertibility: w^T u >= -1
        wu = self.w @ self.u
        m = -1 + F.softplus(wu)
        return self.u + (m - wu) * self.w / (self.w.norm() ** 2)

    def forward(self, z):
        u = self.u_hat()
        lin = z @ self.w + self.b
        f = z + u * torch.tanh(lin).unsqueeze(-1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(-1) * self.w
        log_det = torch.log(torch.abs(1 + psi @ u) + 1e-8)
        return f, log_det


pf = PlanarFlow(2)
z = torch.randn(4, 2)
f, ld = pf(z)
print("planar out", f.shape, "logdet", ld)
for k in range(2):
    J = jacobian(lambda v: pf(v.unsqueeze(0))[0].squeeze(0), z[k])
    print("jacobian", k, J, "slogdet", torch.linalg.slogdet(J), "vs", ld[k].item())
print("w.u_hat =", (pf.w @ pf.u_hat()).item())


# ---------- RealNVP coupling layers
class Coupling(nn.Module):
    def __init__(self, mask, hidden=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(
            nn.Linear(2, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 4),
        )
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):  # x -> z (data to latent)
        xm = x * self.mask
        s, t = self.net(xm).chunk(2, dim=-1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        z = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return z, s.sum(-1)

    def inverse(self, z):
        zm = z * self.mask
        s, t = self.net(zm).chunk(2, dim=-1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        x = zm + (1 - self.mask) * ((z - t) * torch.exp(-s))
        return x


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [
            torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
            for i in range(n_layers)
        ]
        self.layers = nn.ModuleList([Coupling(m) for m in masks])

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def inverse(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z

    def log_prob(self, x):
        z, log_det = self(x)
        return base.log_prob(z) + log_det


flow = RealNVP()
print(flow.layers[0])
print("masks", [l.mask.tolist() for l in flow.layers])
print("initial log-likelihood", flow.log_prob(data).mean().item())
optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
for step in range(301):
    idx = torch.randint(0, data.shape[0], (128,))
    loss = -flow.log_prob(data[idx]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step:4d}  nll {loss.item():.4f}")

with torch.no_grad():
    print("final mean log-lik", flow.log_prob(data).mean().item())
    z, ld = flow(data[:5])
    x_back = flow.inverse(z)
    print("inverse error", (x_back - data[:5]).abs().max().item())
    samples = flow.inverse(base.sample((1000,)))
    print("sample mean", samples.mean(0), "cov\n", torch.cov(samples.T))

x1 = data[7].clone()
J = jacobian(lambda v: flow(v.unsqueeze(0))[0].squeeze(0), x1)
sign, logabsdet = torch.linalg.slogdet(J)
print(
    "RealNVP log|det J| autograd %.5f vs flow %.5f"
    % (logabsdet.item(), flow(x1.unsqueeze(0))[1].item())
)
print("det via torch.det", torch.det(J).item(), torch.logdet(J).item())


# a stack of planar flows trained to match a target density by reverse KL
def target_logp(z):
    r = z.norm(dim=-1)
    return -0.5 * ((r - 2.0) / 0.4) ** 2 - torch.log(torch.tensor(2 * math.pi * 0.4 * 2.0))


flows = nn.ModuleList([PlanarFlow(2) for _ in range(8)])
opt = torch.optim.RMSprop(flows.parameters(), lr=1e-2)
q0 = Independent(Normal(torch.zeros(2), torch.ones(2)), 1)
for it in range(201):
    z0 = q0.rsample((256,))
    logq = q0.log_prob(z0)
    z = z0
    for fl in flows:
        z, ld = fl(z)
        logq = logq - ld
    kl = (logq - target_logp(z)).mean()
    opt.zero_grad()
    kl.backward()
    opt.step()
    if it % 40 == 0:
        print(
            f"iter {it:3d} reverse KL {kl.item():.4f} mean radius {z.norm(dim=-1).mean().item():.4f}"
        )
