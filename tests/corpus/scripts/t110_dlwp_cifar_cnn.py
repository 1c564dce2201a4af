"""DLWP ch.8: Net with nn.functional, max_pool2d, conv shapes, width, ResBlock with batchnorm and
kaiming init, weight decay by hand."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(123)


class NetWidth(nn.Module):
    def __init__(self, n_chans1=32):
        super().__init__()
        self.n_chans1 = n_chans1
        self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
        return self.fc2(torch.tanh(self.fc1(out)))


class ResBlock(nn.Module):
    def __init__(self, n_chans):
        super().__init__()
        self.conv = nn.Conv2d(n_chans, n_chans, kernel_size=3, padding=1, bias=False)
        self.batch_norm = nn.BatchNorm2d(num_features=n_chans)
        torch.nn.init.kaiming_normal_(self.conv.weight, nonlinearity="relu")
        torch.nn.init.constant_(self.batch_norm.weight, 0.5)
        torch.nn.init.zeros_(self.batch_norm.bias)

    def forward(self, x):
        return torch.relu(self.batch_norm(self.conv(x))) + x


model = NetWidth(16)
print(sum(p.numel() for p in model.parameters()), [p.numel() for p in model.parameters()])
imgs = torch.randn(8, 3, 32, 32)
labels = torch.randint(0, 2, (8,))
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
for epoch in range(3):
    outputs = model(imgs)
    loss = nn.CrossEntropyLoss()(outputs, labels)
    l2_norm = sum(p.pow(2.0).sum() for p in model.parameters())
    loss = loss + 0.001 * l2_norm
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.4f}")
_, predicted = torch.max(model(imgs), dim=1)
print(predicted, int((predicted == labels).sum()))
blk = ResBlock(4)
z = blk(torch.randn(2, 4, 8, 8))
print(z.shape, f"{z.mean().item():.4f}", blk)
print(nn.Conv2d(3, 16, kernel_size=3).weight.shape, F.max_pool2d(torch.ones(1, 1, 4, 4), 2))
