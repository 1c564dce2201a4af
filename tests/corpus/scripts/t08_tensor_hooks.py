"""retain_grad and tensor hooks: seeing and changing gradients as they flow."""

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * x
h.retain_grad()
seen = []
handle = h.register_hook(lambda g: seen.append(g.clone()))
x.register_hook(lambda g: g * 10)
out = (h * torch.tensor([1.0, 0.5, 0.25])).sum()
out.backward()
print(h.grad, seen, x.grad)
print(h.retains_grad, x.retains_grad, out.is_leaf)
handle.remove()

y = torch.tensor(2.0, requires_grad=True)
m = y**2
m.register_hook(lambda g: print("gradient reaching m:", g))
(m * 3).backward()
print(y.grad)
