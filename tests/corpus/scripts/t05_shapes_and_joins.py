"""Joining, splitting and rearranging tensors."""

import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.ones(2, 3)
print(torch.cat([a, b]), torch.cat((a, b), dim=1).shape)
print(torch.stack([a, b]).shape, torch.stack([a, b], dim=2).shape)
print(a.unsqueeze(0).shape, a.unsqueeze(-1).shape, a[None].shape)
print(torch.zeros(1, 3, 1).squeeze().shape, torch.zeros(1, 3, 1).squeeze(0).shape)
print(a.permute(1, 0), a.transpose(0, 1).shape, a.T)
print(torch.zeros(2, 3, 4).flatten().shape, torch.zeros(2, 3, 4).flatten(1).shape)
print(torch.ones(3).expand(2, 3), torch.tensor([[1.0], [2.0]]).expand_as(a))
print(a.repeat(2, 1), torch.tensor([1, 2]).repeat(3))
print(a.view(-1), a.view(3, 2).contiguous().is_contiguous(), a.t().is_contiguous())
mask = a > 2
print(mask, a.masked_fill(mask, -1.0), torch.where(mask, a, torch.zeros_like(a)))
rows = list(a.unbind(0))
print(rows, [r.sum() for r in a])
print(a[[0, 1, 1]], a[:, [2, 0]], a[torch.tensor([1, 0])])
print(a.view_as(torch.zeros(3, 2)), a.reshape_as(torch.zeros(6)))
