# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vjp

torch.manual_seed(0)


def f(x):
    return torch.stack([x[0] ** 2 * x[1], 5 * x[0] + torch.sin(x[1])])


x = torch.tensor([1.0, 2.0])
J = jacobian(f, x)
print("Jacobian:\n", J)
print("manual:\n", torch.tensor([[2 * 1.0 * 2.0, 1.0], [5.0, torch.cos(torch.tensor(2.0)).item()]]))


def g(x):
    return (x**3).sum() + x[0] * x[1]


H = hessian(g, x)
print("Hessian:\n", H)


def two_in(a, b):
    return a * b + a.exp()


a = torch.tensor([0.5, 1.0])
b = torch.tensor([2.0, -1.0])
Ja, Jb = jacobian(two_in, (a, b))
print("dJ/da:\n", Ja)
print("dJ/db:\n", Jb)

out, v = vjp(f, x, torch.tensor([1.0, 1.0]))
print("vjp out:", out, "vjp:", v)
out, jv = jvp(f, x, torch.tensor([1.0, 0.0]))
print("jvp out:", out, "jvp:", jv)
val, hv = hvp(g, x, torch.tensor([1.0, 1.0]))
print("hvp value:", val, "hvp:", hv)
print("H @ v:", H @ torch.tensor([1.0, 1.0]))

# Jacobian of a linear layer equals its weight
lin = torch.nn.Linear(3, 2)
inp = torch.randn(3)
Jl = jacobian(lin, inp)
print("Jacobian of Linear:\n", Jl)
print("equals weight:", torch.allclose(Jl, lin.weight))

# Hessian of a quadratic form
A = torch.randn(3, 3)
A = A @ A.t()


def quad(z):
    return 0.5 * z @ A @ z


Hq = hessian(quad, torch.randn(3))
print("Hessian of quadratic equals A:", torch.allclose(Hq, A, atol=1e-5))
print("eigenvalues positive:", bool((torch.linalg.eigvalsh(Hq) > 0).all()))

# create_graph in jacobian
xx = torch.tensor([1.0, 2.0], requires_grad=True)
Jc = jacobian(f, xx, create_graph=True)
Jc.sum().backward()
print("grad of sum of Jacobian:", xx.grad)
