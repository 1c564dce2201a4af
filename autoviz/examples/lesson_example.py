"""The lesson's first graph, z = w * x + b; runs unchanged with `import torch`."""

import autoviz as torch

# Three leaves: we ask autograd to track them.
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)

# Each operation adds a node to the graph and gives its result a grad_fn.
y = w * x
z = y + b
print(f"Result z: {z}")

# Walk the graph backwards: dz/dx = w, dz/dw = x, dz/db = 1.
z.backward()
print("x.grad =", x.grad)
print("w.grad =", w.grad)
print("b.grad =", b.grad)
