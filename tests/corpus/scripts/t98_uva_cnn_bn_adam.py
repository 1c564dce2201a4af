"""UvA DL tutorial style: a small CNN with BatchNorm2d, Dropout2d and Adam(weight_decay), 2 epochs
on random 32x32 data."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
X = torch.randn(64, 3, 32, 32)
Y = torch.randint(0, 3, (64,))
loader = DataLoader(TensorDataset(X, Y), batch_size=16, shuffle=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.drop = nn.Dropout2d(0.25)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16 * 8 * 8, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = self.drop(x)
        x = F.relu(self.bn2(self.conv2(x)))
        return self.fc(torch.flatten(x, 1))


net = Net()
bn = nn.BatchNorm2d(3)
y = bn(X[:8])
print(y.sum(), y.mean().item())
opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
for epoch in range(2):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}")
net.eval()
with torch.no_grad():
    out = net(X[:4])
print(out)
print(net.bn1.running_mean[:4], net.bn1.running_var[:4], net.bn1.num_batches_tracked)
print(net.conv1.weight.grad.abs().sum())
