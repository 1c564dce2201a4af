"""Switching gradient tracking off: no_grad, set_grad_enabled, detach, requires_grad_."""

import torch

w = torch.tensor([0.5, -1.0], requires_grad=True)
with torch.no_grad():
    v = w * 2
print(v.requires_grad, v.grad_fn, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print((w + 1).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((w + 1).requires_grad)


@torch.no_grad()
def update(param, step):
    param -= step * param.grad


loss = (w**2).sum()
loss.backward()
update(w, 0.1)
print(w, w.grad)

d = w.detach()
print(d.requires_grad, d.is_leaf)
d[0] = 100.0
print(w)

frozen = torch.ones(2)
print(frozen.requires_grad)
frozen.requires_grad_()
print(frozen.requires_grad, frozen.is_leaf)
try:
    (w * 2).requires_grad_(False)
except RuntimeError as error:
    print(str(error)[:50])
try:
    w.numpy()
except RuntimeError as error:
    print(error)
print(w.detach().numpy())
