"""Tensors the way 'Deep Learning with PyTorch' introduces them: an image batch as
(N, C, H, W), channel weights broadcast over it, per-channel normalisation, views and
their shared data."""

import torch

torch.manual_seed(11)
img_t = torch.randn(3, 5, 5)
weights = torch.tensor([0.2126, 0.7152, 0.0722])
batch_t = torch.randn(2, 3, 5, 5)
img_gray_naive = img_t.mean(-3)
batch_gray_naive = batch_t.mean(-3)
print(img_gray_naive.shape, batch_gray_naive.shape)
unsqueezed_weights = weights.unsqueeze(-1).unsqueeze_(-1)
img_weights = img_t * unsqueezed_weights
batch_weights = batch_t * unsqueezed_weights
img_gray_weighted = img_weights.sum(-3)
batch_gray_weighted = batch_weights.sum(-3)
print(batch_weights.shape, batch_t.shape, unsqueezed_weights.shape)
print(img_gray_weighted[0])

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
print(second_point, points.shape, points.t().shape)
second_point[0] = 10.0
print(points)
points_t = points.t()
print(points_t.is_contiguous(), points_t.contiguous().is_contiguous())

imgs = torch.rand(4, 3, 8, 8) * 255
n_channels = imgs.shape[1]
for c in range(n_channels):
    mean = torch.mean(imgs[:, c])
    std = torch.std(imgs[:, c])
    imgs[:, c] = (imgs[:, c] - mean) / std
print(imgs.mean(dim=(0, 2, 3)).abs().max() < 1e-4, imgs.std(dim=(0, 2, 3)))
print(imgs.view(4, -1).shape, imgs.permute(0, 2, 3, 1).shape)
double_points = torch.ones(10, 2, dtype=torch.double)
short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)
print(double_points.dtype, short_points.dtype, points.to(torch.double).dtype)
print((points.double() * short_points[:1]).dtype)
