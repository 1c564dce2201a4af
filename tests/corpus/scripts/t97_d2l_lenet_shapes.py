"""D2L 7.6: LeNet, layer-by-layer shapes, one training step with Xavier init."""

import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120),
    nn.Sigmoid(),
    nn.Linear(120, 84),
    nn.Sigmoid(),
    nn.Linear(84, 10),
)
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)


def init_weights(m):
    if type(m) == nn.Linear or type(m) == nn.Conv2d:
        nn.init.xavier_uniform_(m.weight)


net.apply(init_weights)
X = torch.randn(16, 1, 28, 28)
y = torch.randint(0, 10, (16,))
opt = torch.optim.SGD(net.parameters(), lr=0.9)
lossf = nn.CrossEntropyLoss()
for i in range(3):
    opt.zero_grad()
    l = lossf(net(X), y)
    l.backward()
    opt.step()
    print(i, f"{l.item():.6f}")
print(net[0].weight.grad.shape, net[0].bias.grad[:3])
print(net[3].weight[0, 0, 0])
print(sum(p.numel() for p in net.parameters()))
with torch.no_grad():
    print(net(X[:2]).argmax(dim=1))
