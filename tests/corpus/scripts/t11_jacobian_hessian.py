"""Jacobians, Hessians and vector products with torch.autograd.functional."""

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vjp


def f(x):
    return x**2 + 3 * x


def g(x):
    return (x**3).sum() + x[0] * x[1]


def rosenbrock(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


x = torch.tensor([1.0, 2.0, 3.0])
print(jacobian(f, x))
print(jacobian(lambda a, b: a * b + b, (x, torch.ones(3))))
print(hessian(g, x))
print(hessian(rosenbrock, torch.tensor([1.0, 1.0])))
print(vjp(f, x, torch.tensor([1.0, 0.0, 2.0])))
print(jvp(f, x, torch.ones(3)))
print(hvp(g, x, torch.tensor([1.0, 0.0, 0.0])))
M = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print(hessian(lambda v: v @ M @ v, torch.tensor([0.5, -0.5])))
