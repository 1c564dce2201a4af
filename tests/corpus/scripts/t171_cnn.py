# CNN chapter: Conv2d, pooling, BatchNorm2d, Dropout, shapes and a tiny training loop
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i : i + h, j : j + w] * K).sum()
    return Y


X = torch.ones((6, 8))
X[:, 2:6] = 0
K = torch.tensor([[1.0, -1.0]])
print("edge detection:\n", corr2d(X, K))
conv = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
print("match F.conv2d:", torch.allclose(F.conv2d(X[None, None], K[None, None])[0, 0], corr2d(X, K)))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=1)
        self.avg = nn.AdaptiveAvgPool2d(1)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = F.relu(self.conv2(x))
        x = self.avg(x).flatten(1)
        return self.fc(self.drop(x))


net = SmallCNN()
x = torch.randn(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
h = x
for name, layer in [
    ("conv1", net.conv1),
    ("bn1", net.bn1),
    ("pool", net.pool),
    ("conv2", net.conv2),
    ("avg", net.avg),
]:
    h = layer(h)
    print(f"{name:6s} -> {tuple(h.shape)}")
print("params:", sum(p.numel() for p in net.parameters()))

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(8):
    net.train()
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
print("bn running_mean:", net.bn1.running_mean)
print("bn running_var:", net.bn1.running_var)
print("num_batches_tracked:", net.bn1.num_batches_tracked)
net.eval()
with torch.no_grad():
    pred = net(x).argmax(1)
print("eval preds:", pred, "acc:", (pred == y).float().mean().item())
d = nn.Dropout(0.5)
print("dropout train:", d(torch.ones(8)))
d.eval()
print("dropout eval:", d(torch.ones(8)))
print("avg_pool2d:", F.avg_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 2))
