"""A custom autograd.Function: a cubic with its own backward, used in a fit."""

import math

import torch


class Cubic(torch.autograd.Function):
    """c(t) = (t³ - t) / 2, with dc/dt = (3t² - 1) / 2."""

    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return 0.5 * (t**3 - t)

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * 0.5 * (3 * t**2 - 1)


x = torch.linspace(-1, 1, 200)
y = torch.sin(math.pi * x / 2)
a = torch.full((), 0.1, requires_grad=True)
b = torch.full((), 1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.5, requires_grad=True)
cubic = Cubic.apply
learning_rate = 1e-3
for step in range(300):
    y_pred = a + b * cubic(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if step % 50 == 49:
        print(step, round(loss.item(), 4))
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
print(f"y = {a.item():.4f} + {b.item():.4f} * C({c.item():.4f} + {d.item():.4f} x)")
print(y_pred.grad_fn.name(), cubic(c + d * x).grad_fn.name())
