# Karpathy micrograd lecture: a single neuron in torch, then a tiny MLP
import torch

torch.manual_seed(1337)

x1 = torch.tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.tensor([1.0]).double()
w2.requires_grad = True
b = torch.tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
n.retain_grad()
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print("n ", n.grad.item(), "(1 - o**2 =", (1 - o**2).item(), ")")


class Neuron:
    def __init__(self, nin):
        self.w = torch.empty(nin).uniform_(-1, 1).requires_grad_()
        self.b = torch.empty(1).uniform_(-1, 1).requires_grad_()

    def __call__(self, x):
        return torch.tanh(x @ self.w + self.b)

    def parameters(self):
        return [self.w, self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        return torch.cat([n(x) for n in self.neurons], dim=-1)

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for l in self.layers for p in l.parameters()]


xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])
mlp = MLP(3, [4, 4, 1])
print("num params:", sum(p.numel() for p in mlp.parameters()))
for k in range(20):
    ypred = torch.stack([mlp(x) for x in xs]).squeeze(-1)
    loss = ((ypred - ys) ** 2).sum()
    for p in mlp.parameters():
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in mlp.parameters():
            p += -0.05 * p.grad
    if k % 4 == 0:
        print(k, round(loss.item(), 6))
print("final preds:", ypred.detach())
