"""Gradients of vector functions, in the style of a textbook's autograd chapter."""

import torch

x = torch.arange(4.0)
print(x, x.grad)
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad, x.grad == 4 * x)

x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u, u.requires_grad)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.tensor(0.3, requires_grad=True)
d = f(a)
d.backward()
print(a.grad, a.grad == d / a)
try:
    (x * x).backward()
except RuntimeError as error:
    print(error)
