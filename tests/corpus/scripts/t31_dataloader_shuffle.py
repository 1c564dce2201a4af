"""Shuffled mini-batches and random_split (seeded: PyTorch's random numbers)."""

import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(6)
X = torch.arange(24.0).reshape(12, 2)
y = torch.arange(12)
dataset = TensorDataset(X, y)
train, test = random_split(dataset, [9, 3])
print(len(train), len(test), test.indices)
loader = DataLoader(train, batch_size=4, shuffle=True)
for epoch in range(2):
    print(epoch, [yb.tolist() for _, yb in loader])
g = torch.Generator().manual_seed(42)
print(random_split(range(10), [0.5, 0.5], generator=g)[0].indices)
print(torch.randn(2))
