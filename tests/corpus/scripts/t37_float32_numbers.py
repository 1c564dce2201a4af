"""Numbers at full precision: what float32 exp, sin, linspace, arange, sums and products give."""

import math

import torch

torch.set_printoptions(precision=8)
print(torch.exp(torch.tensor(12.0)).item(), torch.exp(torch.tensor([0.5, 1.5, 2.5])))
x = torch.linspace(-math.pi, math.pi, 2000)
print(x[1].item(), x[999].item(), x[1000].item(), x[-2].item())
print(torch.arange(0, 1, 0.1), torch.arange(-1.0, 1.0, 0.3))
s = torch.sin(x)
print(s[:4], s.sum().item(), s.abs().sum().item(), s.mean().item())
print((s * s).sum().item(), torch.cos(x).sum().item())
a = torch.linspace(-1, 1, 12).reshape(3, 4)
b = torch.linspace(0, 2, 8).reshape(4, 2)
print(a @ b)
print(torch.tanh(a), torch.sigmoid(a).sum().item())
torch.set_printoptions(profile="default")
print(torch.tensor([1e-5, 1.0, 1e5]), torch.tensor([0.1, 0.25, 100.0]))
