"""The lesson's first graph: z = w * x + b, its nodes, and backward."""

import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x
z = y + b
print(f"z = {z}")
print(z, y)
print(z.grad_fn, z.grad_fn.name(), y.grad_fn.name())
print([type(fn).__name__ for fn, _ in z.grad_fn.next_functions])
print(x.is_leaf, y.is_leaf, z.is_leaf, x.grad_fn, z.requires_grad)
z.backward()
print(x.grad, w.grad, b.grad)
print(f"dz/dx = {x.grad.item()}, dz/dw = {w.grad.item()}, dz/db = {b.grad.item()}")

# Gradients accumulate: a second graph adds to what is there.
z2 = w * x + b
z2.backward()
print(x.grad, w.grad)
x.grad.zero_()
w.grad = None
(x * x * x).backward()
print(x.grad, w.grad)
try:
    z.backward()
except RuntimeError as error:
    print(type(error).__name__, str(error)[:60])
