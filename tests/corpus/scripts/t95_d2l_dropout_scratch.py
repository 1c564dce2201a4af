"""D2L 5.6: dropout from scratch and concise, train vs eval."""

import torch
from torch import nn

torch.manual_seed(3)


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.0))
net = nn.Sequential(
    nn.Flatten(),
    nn.Linear(784, 64),
    nn.ReLU(),
    nn.Dropout(0.5),
    nn.Linear(64, 32),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(32, 10),
)


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
x = torch.rand(8, 1, 28, 28)
y = torch.randint(0, 10, (8,))
out = net(x)
print(out[:2])
net.eval()
print(net(x)[:2])
net.train()
d = nn.Dropout(p=0.3)
z = torch.ones(3, 4, requires_grad=True)
o = d(z)
o.sum().backward()
print(o, z.grad)
print(nn.functional.dropout(torch.ones(5), 0.5, training=False))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
for i in range(3):
    l = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    l.backward()
    opt.step()
    print(i, round(l.item(), 5))
