"""torch.autograd.grad: gradients returned instead of stored; second derivatives."""

import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3 + 2 * x
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy, x)
print(d2y, x.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, [a, b])
print(ga, gb)

c = torch.tensor(1.0, requires_grad=True)
loss = (a**2).sum()
print(torch.autograd.grad(loss, [a, c], allow_unused=True))
try:
    torch.autograd.grad((a**2).sum(), [a, c])
except RuntimeError as error:
    print(error)

w = torch.tensor(0.5, requires_grad=True)
energy = torch.sin(w) * w
(g,) = torch.autograd.grad(energy, w, create_graph=True)
g.backward()
print(g, w.grad)
