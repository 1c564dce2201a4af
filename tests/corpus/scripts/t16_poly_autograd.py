"""The same cubic fit with autograd: weights that require grad, updates under no_grad."""

import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
a = torch.tensor(0.2, requires_grad=True)
b = torch.tensor(0.7, requires_grad=True)
c = torch.tensor(-0.1, requires_grad=True)
d = torch.tensor(-0.05, requires_grad=True)
learning_rate = 1e-6
for t in range(1000):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum()
    if t % 250 == 249:
        print(t, round(loss.item(), 2))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f"y = {a.item():.3f} + {b.item():.3f} x + {c.item():.3f} x^2 + {d.item():.3f} x^3")
print(loss.grad_fn, a)
