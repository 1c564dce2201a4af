# D2L-style "Automatic Differentiation" chapter
import torch

torch.manual_seed(0)

x = torch.arange(4.0)
print("x:", x)
x.requires_grad_(True)
print("x.grad before backward:", x.grad)

y = 2 * torch.dot(x, x)
print("y:", y)
y.backward()
print("x.grad:", x.grad)
print("x.grad == 4 * x:", x.grad == 4 * x)

# gradients accumulate unless we zero them
x.grad.zero_()
y = x.sum()
y.backward()
print("grad of sum:", x.grad)

# backward for non-scalar variables
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print("grad of x*x via ones:", x.grad)

# detaching computation
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print("x.grad == u:", x.grad == u)
print("u.requires_grad:", u.requires_grad, "z.grad_fn:", z.grad_fn)

x.grad.zero_()
y.sum().backward()
print("x.grad == 2*x:", x.grad == 2 * x)


# gradients through python control flow
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
print("a:", a)
d = f(a)
d.backward()
print("d:", d)
print("a.grad == d / a:", a.grad == d / a)
print("a.grad:", a.grad)

with torch.no_grad():
    w = x * 3
print("inside no_grad requires_grad:", w.requires_grad)
print("is_leaf x, y:", x.is_leaf, y.is_leaf)
print("y.grad_fn.next_functions:", y.grad_fn.next_functions[0][0].__class__.__name__)
