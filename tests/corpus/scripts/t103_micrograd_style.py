"""Karpathy micrograd lecture style: the same expression in torch with double scalars, then a
neuron."""

import torch

x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print(o, o.grad_fn, o.grad_fn.next_functions)
a = torch.tensor(-4.0, requires_grad=True)
bb = torch.tensor(2.0, requires_grad=True)
c = a + bb
d = a * bb + bb**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (bb + a).relu()
d = d + 3 * d + (bb - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f"{g.data.item():.4f}", f"{a.grad.item():.4f}", f"{bb.grad.item():.4f}")
torch.manual_seed(1337)
xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])
model = torch.nn.Sequential(
    torch.nn.Linear(3, 4),
    torch.nn.Tanh(),
    torch.nn.Linear(4, 4),
    torch.nn.Tanh(),
    torch.nn.Linear(4, 1),
    torch.nn.Tanh(),
)
for k in range(20):
    ypred = model(xs).squeeze(1)
    loss = ((ypred - ys) ** 2).sum()
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data += -0.05 * p.grad
    if k % 5 == 0:
        print(k, loss.item())
print(ypred)
