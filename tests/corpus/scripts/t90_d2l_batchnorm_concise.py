"""D2L 8.5: batch norm concise in LeNet and running statistics."""

import torch
from torch import nn

torch.manual_seed(0)
bn = nn.BatchNorm2d(3)
x = torch.randn(4, 3, 5, 5) * 2 + 1
y = bn(x)
print(y.sum(), y.mean(dim=(0, 2, 3)), y.var(dim=(0, 2, 3), unbiased=False))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0, 0, 0])
bn1 = nn.BatchNorm1d(4)
z = torch.randn(8, 4, requires_grad=True)
out = bn1(z)
(out**2).sum().backward()
print(out[:2], z.grad[:2])
print(bn1.weight.grad, bn1.bias.grad)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5),
    nn.BatchNorm2d(6),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5),
    nn.BatchNorm2d(16),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(256, 120),
    nn.BatchNorm1d(120),
    nn.Sigmoid(),
    nn.Linear(120, 10),
)
X = torch.randn(8, 1, 28, 28)
t = torch.randint(0, 10, (8,))
opt = torch.optim.SGD(net.parameters(), lr=1.0)
for i in range(3):
    l = nn.functional.cross_entropy(net(X), t)
    opt.zero_grad()
    l.backward()
    opt.step()
    print(i, f"{l.item():.5f}")
print(net[1].running_mean[:3], net[1].gamma if hasattr(net[1], "gamma") else net[1].weight[:3])
print(bn)
print(nn.BatchNorm1d(10, momentum=None, affine=False))
