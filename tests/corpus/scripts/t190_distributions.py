# torch.distributions: Normal, Categorical, log_prob, rsample, entropy, KL
import math

import torch
from torch.distributions import Bernoulli, Categorical, Normal, kl_divergence

torch.manual_seed(0)
mu = torch.tensor(1.0, requires_grad=True)
sigma = torch.tensor(2.0, requires_grad=True)
d = Normal(mu, sigma)
print("dist:", d)
print("mean, stddev, variance:", d.mean.item(), d.stddev.item(), d.variance.item())
x = torch.tensor(0.5)
lp = d.log_prob(x)
manual = -((x - 1.0) ** 2) / (2 * 4.0) - math.log(2.0) - 0.5 * math.log(2 * math.pi)
print("log_prob(0.5):", lp.item(), "manual:", manual.item())
print("entropy:", d.entropy().item(), "cdf(1):", d.cdf(torch.tensor(1.0)).item())

s = d.sample((5,))
print("sample requires_grad:", s.requires_grad, "shape:", s.shape)
r = d.rsample((1000,))
print("rsample requires_grad:", r.requires_grad)
loss = (r**2).mean()
loss.backward()
print("E[x^2] estimate:", loss.item(), "(true mu^2+sigma^2 = 5)")
print("d/dmu ~ 2mu=2:", mu.grad.item(), "d/dsigma ~ 2sigma=4:", sigma.grad.item())

# batch of normals
bn = Normal(torch.zeros(3), torch.tensor([0.5, 1.0, 2.0]))
print("batch_shape:", bn.batch_shape, "event_shape:", bn.event_shape)
print("log_prob of zeros:", bn.log_prob(torch.zeros(3)))
print("KL(N(0,0.5..)||N(0,1)):", kl_divergence(bn, Normal(0.0, 1.0)))

# Categorical
logits = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
c = Categorical(logits=logits)
print("probs:", c.probs)
samples = c.sample((2000,))
print("empirical freq:", torch.bincount(samples, minlength=3).float() / 2000)
print("entropy:", c.entropy().item())
print("log_prob([0,1,2]):", c.log_prob(torch.tensor([0, 1, 2])))

# REINFORCE on a 3-armed bandit
rewards = torch.tensor([0.0, 0.2, 1.0])
theta = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([theta], lr=0.1)
for it in range(100):
    pol = Categorical(logits=theta)
    a = pol.sample((32,))
    r = rewards[a]
    loss = -(pol.log_prob(a) * (r - r.mean())).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 25 == 0 or it == 99:
        print(f"iter {it} policy probs {pol.probs.detach()}")

b = Bernoulli(probs=torch.tensor([0.1, 0.9]))
print("bernoulli log_prob(1):", b.log_prob(torch.ones(2)))
c2 = Categorical(probs=torch.tensor([0.25, 0.25, 0.5]))
print("KL categorical:", kl_divergence(Categorical(probs=torch.tensor([0.5, 0.3, 0.2])), c2).item())
