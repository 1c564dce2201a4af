"""In-place operations (the trailing underscore) and out= arguments."""

import torch

t = torch.zeros(2, 3)
t.fill_(2.0)
t.add_(1.0)
t.mul_(torch.tensor([1.0, 2.0, 3.0]))
print(t)
t.clamp_(max=5.0)
print(t)
t.cos_()
print(t)
t.zero_()
print(t)

u = torch.tensor([0.0, 1.0, 2.0])
u.exp_().sqrt_()
print(u)
u.sub_(1).abs_().pow_(2)
print(u)

w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.add_(1)
except RuntimeError as error:
    print(error)
with torch.no_grad():
    w.add_(1)
print(w)
w.data.mul_(10)
print(w)

h = w * 2
h.sin_()
print(h.grad_fn.name())
h.sum().backward()
print(w.grad)

result = torch.empty(3)
torch.add(torch.ones(3), torch.arange(3.0), out=result)
print(result)
torch.exp(torch.zeros(3), out=result)
print(result)
ints = torch.arange(3)
try:
    ints.div_(2)
except RuntimeError as error:
    print(error)
