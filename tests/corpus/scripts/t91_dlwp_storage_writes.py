"""DLWP ch.3: storage, offsets, strides, views, transpose, contiguous, dtype conversions."""

import torch

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points.storage())
points_storage = points.storage()
print(points_storage[0], points.untyped_storage().nbytes())
points_storage[0] = 2.0
print(points)
second_point = points[1]
print(second_point.storage_offset(), second_point.size(), second_point.stride())
second_point[0] = 10.0
print(points)
points_t = points.t()
print(
    points_t,
    points.untyped_storage().data_ptr() == points_t.untyped_storage().data_ptr(),
)
print(points.stride(), points_t.stride(), points.is_contiguous(), points_t.is_contiguous())
some_t = torch.ones(3, 4, 5)
transpose_t = some_t.transpose(0, 2)
print(some_t.shape, transpose_t.shape, some_t.stride(), transpose_t.stride())
points_t_cont = points_t.contiguous()
print(points_t_cont, points_t_cont.stride(), points_t_cont.storage())
double_points = torch.ones(10, 2, dtype=torch.double)
short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)
print(short_points.dtype, double_points.dtype, short_points.element_size())
print(torch.zeros(10, 2).to(torch.double).dtype, torch.zeros(10, 2).short().dtype)
points_64 = torch.rand(5, dtype=torch.double)
points_short = points_64.to(torch.short)
print((points_64 * points_short).dtype)
a = torch.ones(3, 2)
a.zero_()
print(a)
img_t = torch.randn(3, 5, 5)
weights = torch.tensor([0.2126, 0.7152, 0.0722])
batch_t = torch.randn(2, 3, 5, 5)
unsqueezed_weights = weights.unsqueeze(-1).unsqueeze_(-1)
print(unsqueezed_weights.shape, (img_t * unsqueezed_weights).sum(-3).shape)
img_gray_weighted_fancy = torch.einsum("...chw,c->...hw", img_t, weights)
print(img_gray_weighted_fancy.shape)
