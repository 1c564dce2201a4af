"""D2L 5.2: MLP from scratch with nn.Parameter, relu by hand, CrossEntropyLoss(reduction='none')."""

import torch
from torch import nn

torch.manual_seed(42)
num_inputs, num_outputs, num_hiddens = 784, 10, 256
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs))
params = [W1, b1, W2, b2]
print(b1[:5], W1.shape)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


x = torch.arange(-3.0, 3.0, 0.5, requires_grad=True)
y = relu(x)
y.backward(torch.ones_like(x))
print(y, x.grad)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


loss = nn.CrossEntropyLoss(reduction="none")
updater = torch.optim.SGD(params, lr=0.1)
X = torch.rand(128, 1, 28, 28)
y = torch.randint(0, 10, (128,))
for epoch in range(4):
    for i in range(0, 128, 32):
        l = loss(net(X[i : i + 32]), y[i : i + 32])
        updater.zero_grad()
        l.mean().backward()
        updater.step()
    print(epoch, loss(net(X), y).mean().item())
print(loss(net(X[:4]), y[:4]))
print(W2.grad[:2, :3])
print(torch.sigmoid(x), torch.tanh(x).grad_fn)
