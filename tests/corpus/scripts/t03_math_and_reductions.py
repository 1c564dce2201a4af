"""Elementwise maths, broadcasting and reductions, with numpy-style keywords too."""

import math

import torch

x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
print(x + 1, x * x, x / 2, x**2, 2**x)
print(x.abs(), torch.abs(x), x.neg(), -x)
print(torch.exp(torch.tensor([0.0, 1.0, 12.0])))
print(x.abs().log(), x.abs().log10(), x.abs().log2(), x.abs().sqrt())
print(torch.sin(x), torch.cos(x), torch.tanh(x), torch.sigmoid(x))
print(x.clamp(min=0), x.clamp(-1, 1), torch.clamp(x, max=2.5))

print(x.sum(), x.sum(dim=0), x.sum(1, keepdim=True))
print(x.mean(), x.mean(axis=0), x.mean(axis=1, keepdims=True))
print(x.max(), x.min(), x.max(dim=1), x.argmax(), x.argmax(dim=0))
print(x.cumsum(dim=1), x.prod(), x.prod(1))
print(x.var(), x.std(), x.var(dim=0), x.std(dim=1, unbiased=False))
print(x.norm(), x.norm(p=1), x.norm(dim=1), torch.norm(x, dim=0))
print(torch.logsumexp(x, dim=1))

bias = torch.tensor([10.0, 20.0, 30.0])
print(x + bias)
print(x * torch.tensor([[1.0], [-1.0]]))

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 0.5, -1.0])
print(a @ b, torch.mm(a, b), torch.matmul(a, b))
print(torch.mv(a, v), a.mv(v), torch.dot(v, v), v.dot(v))
print(torch.equal(a, a.clone()), torch.allclose(a, a + 1e-7), a.eq(2), (a > 2).all(), (a > 4).any())
print(torch.sin(torch.tensor(math.pi / 6)), math.sin(math.pi / 6))
