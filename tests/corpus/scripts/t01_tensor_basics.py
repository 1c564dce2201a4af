"""Tensors: making them, their shape and dtype, indexing, reshaping, numpy."""

import numpy as np
import torch

scores = torch.tensor([[3.0, 1.5, 4.0], [2.0, 0.5, 6.5]])
print(scores)
print(scores.shape, scores.size(), scores.size(1), scores.ndim, scores.dim(), scores.numel())
print(scores.dtype, torch.tensor([1, 2, 3]).dtype, torch.tensor([True, False]).dtype)

print(torch.zeros(2, 3))
print(torch.ones((2, 2), dtype=torch.int64))
print(torch.full((2, 2), 7.5))
print(torch.arange(6))
print(torch.arange(1.0, 2.0, 0.25))
print(torch.linspace(0, 1, steps=5))
print(torch.eye(3))
print(torch.empty(2, 4).shape)
print(torch.zeros_like(scores), torch.ones_like(scores, dtype=torch.int64))

print(scores[0], scores[1, 2], scores[:, 1], scores[-1, ::2])
print(scores[scores > 2.5])
print(scores[0].tolist(), scores[1, 2].item())

grid = torch.arange(12)
print(grid.view(3, 4))
print(grid.reshape(2, -1))
print(grid.view(3, 4).t())
print(grid.view(3, 4)[1:, 2:])

a = np.array([[1.0, 2.0], [3.0, 4.0]])
t = torch.from_numpy(a)
print(t)
a[0, 0] = 100.0
print(t)
print(torch.tensor(a).numpy().dtype, torch.as_tensor([1.5, 2.5]))
print(scores.numpy().sum())
