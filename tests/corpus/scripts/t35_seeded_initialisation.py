"""Seeded random numbers and default initialisation: manual_seed, rand, randn, randint,
nn.Linear's weights, nn.init (PyTorch's random numbers)."""

import torch
import torch.nn as nn

torch.manual_seed(42)
print(torch.rand(3))
print(torch.randn(2, 3))
print(torch.randint(0, 10, (5,)))
layer = nn.Linear(3, 2)
print(layer.weight, layer.bias)
torch.manual_seed(42)
print(torch.rand(3))
w = torch.empty(2, 4)
nn.init.xavier_uniform_(w)
print(w)
nn.init.kaiming_normal_(w)
print(w)
nn.init.normal_(w, mean=0.0, std=0.01)
print(w)
g = torch.Generator().manual_seed(2147483647)
print(torch.randn(3, generator=g))
print(torch.randperm(6), torch.rand(2, 2).uniform_(-1, 1))
