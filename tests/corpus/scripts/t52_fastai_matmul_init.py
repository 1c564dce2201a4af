"""fast.ai's from-scratch lessons: matrix multiplication with loops, then with elementwise
ops and broadcasting, then the built-in; and why initialisation matters (Kaiming's scale,
the mean and standard deviation through ReLU layers)."""

import math

import torch

torch.manual_seed(14)
m1 = torch.randn(5, 784)
m2 = torch.randn(784, 10)


def matmul_loops(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


def matmul_elementwise(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i, :] * b[:, j]).sum()
    return c


def matmul_broadcast(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i].unsqueeze(-1) * b).sum(dim=0)
    return c


small1, small2 = m1[:2, :20], m2[:20, :3]
t1 = matmul_loops(small1, small2)
print(t1.shape, torch.allclose(t1, small1 @ small2, atol=1e-5))
print(torch.allclose(matmul_elementwise(m1, m2), m1 @ m2, atol=1e-4))
print(torch.allclose(matmul_broadcast(m1, m2), m1.matmul(m2), atol=1e-4))
c = torch.tensor([10.0, 20, 30])
m = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]])
print(m + c, c[None, :].shape, c[:, None].shape, c[:, None] * c[None, :])

x_train = torch.randn(64, 784)
nh = 50
w1 = torch.randn(784, nh) / math.sqrt(784)
b1 = torch.zeros(nh)
w2 = torch.randn(nh, 1) / math.sqrt(nh)
b2 = torch.zeros(1)


def lin(x, w, b):
    return x @ w + b


def relu(x):
    return x.clamp_min(0.0)


t = lin(x_train, w1, b1)
print(f"{t.mean():.3f} {t.std():.3f}")
t = relu(lin(x_train, w1, b1))
print(f"{t.mean():.3f} {t.std():.3f}")
w1 = torch.randn(784, nh) * math.sqrt(2 / 784)
t = relu(lin(x_train, w1, b1))
print(f"{t.mean():.3f} {t.std():.3f}")
w = torch.zeros(nh, 784)
torch.nn.init.kaiming_normal_(w, mode="fan_out")
t = relu(lin(x_train, w1, b1)) - 0.5
print(f"{w.std():.4f} {t.mean():.3f}")
x = torch.randn(16)
for i in range(10):
    x = torch.randn(16, 16) @ x
print(x.mean() > -1e9, x.std() > 1)
x = torch.randn(16)
for i in range(10):
    x = (torch.randn(16, 16) * 0.01) @ x
print(x.abs().max() < 1e-10)
