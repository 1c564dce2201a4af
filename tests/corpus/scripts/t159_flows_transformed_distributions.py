# Change of variables: a TransformedDistribution from affine and sigmoid transforms, their
# log-det-Jacobians, an Independent Normal, and a planar flow fitted to a target density.
import math

import torch
import torch.nn as nn
from torch.distributions import Independent, Normal, TransformedDistribution, Uniform
from torch.distributions.transforms import (
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    SigmoidTransform,
)

torch.manual_seed(0)
base = Normal(torch.tensor(0.0), torch.tensor(1.0))
affine = AffineTransform(loc=2.0, scale=3.0)
dist = TransformedDistribution(base, [affine])
x = torch.tensor([2.0, 5.0, -1.0])
print(dist.log_prob(x), Normal(2.0, 3.0).log_prob(x))
lognormal = TransformedDistribution(base, [ExpTransform()])
print(
    lognormal.log_prob(torch.tensor([1.0, 2.0])),
    torch.distributions.LogNormal(0.0, 1.0).log_prob(torch.tensor([1.0, 2.0])),
)
logistic = TransformedDistribution(
    Uniform(0.0, 1.0), [SigmoidTransform().inv, AffineTransform(loc=0.0, scale=1.0)]
)
print(logistic.log_prob(torch.tensor([0.0, 1.0])))
t = ComposeTransform([AffineTransform(0.0, 2.0), SigmoidTransform()])
z = torch.tensor([-1.0, 0.0, 1.0])
y = t(z)
print(y, t.inv(y), t.log_abs_det_jacobian(z, y))
samples = dist.sample((4,))
print(samples, dist.rsample((2,)).shape)
mvn = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(mvn.batch_shape, mvn.event_shape, mvn.log_prob(torch.zeros(3)), -1.5 * math.log(2 * math.pi))


class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.randn(dim) * 0.1)
        self.w = nn.Parameter(torch.randn(dim) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        wu = self.w @ self.u
        u_hat = self.u + (-1 + torch.nn.functional.softplus(wu) - wu) * self.w / (
            self.w.norm() ** 2
        )
        lin = z @ self.w + self.b
        f = z + u_hat * torch.tanh(lin).unsqueeze(-1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(-1) * self.w
        log_det = torch.log((1 + psi @ u_hat).abs() + 1e-8)
        return f, log_det


def target_log_density(z):
    z1, z2 = z[:, 0], z[:, 1]
    norm = torch.sqrt(z1**2 + z2**2)
    exp1 = torch.exp(-0.5 * ((z1 - 2) / 0.6) ** 2)
    exp2 = torch.exp(-0.5 * ((z1 + 2) / 0.6) ** 2)
    u = 0.5 * ((norm - 2) / 0.4) ** 2 - torch.log(exp1 + exp2 + 1e-8)
    return -u


flows = nn.ModuleList([PlanarFlow(2) for _ in range(4)])
base2 = Independent(Normal(torch.zeros(2), torch.ones(2)), 1)
optimizer = torch.optim.Adam(flows.parameters(), lr=1e-2)
for step in range(60):
    z0 = base2.sample((64,))
    z = z0
    sum_log_det = torch.zeros(64)
    for flow in flows:
        z, ld = flow(z)
        sum_log_det = sum_log_det + ld
    kl = (base2.log_prob(z0) - sum_log_det - target_log_density(z)).mean()
    optimizer.zero_grad()
    kl.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step} reverse KL {kl.item():.4f}")
print(flows[0].u, flows[0].b.grad)
