"""1-d convolutions over time series, as in the sequence chapters: Conv1d with padding and
dilation (a small temporal convolutional network), BatchNorm1d (after a convolution
without bias: batch norm subtracts it anyway), MaxPool1d and AdaptiveAvgPool1d, trained to
tell a sine from noise."""

import math

import torch
from torch import nn

torch.manual_seed(3)
t = torch.linspace(0, 4 * math.pi, 32)
sines = torch.stack([torch.sin(t * (1 + 0.2 * k)) for k in range(8)]) + 0.1 * torch.randn(8, 32)
noise = torch.randn(8, 32)
X = torch.cat([sines, noise]).unsqueeze(1)
y = torch.cat([torch.ones(8), torch.zeros(8)]).long()
print(X.shape, y.shape)


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 4, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm1d(4),
            nn.ReLU(),
            nn.Conv1d(4, 4, kernel_size=3, padding=2, dilation=2),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(4, 8, kernel_size=3, padding=4, dilation=4),
            nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
            nn.Flatten(),
            nn.Linear(8, 2),
        )

    def forward(self, x):
        return self.net(x)


model = TCN()
h = X[:2]
for layer in model.net:
    h = layer(h)
    print(f"{type(layer).__name__:17} {tuple(h.shape)}")
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(8):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    if epoch % 2 == 1:
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean()
print("accuracy", acc.item(), model.net[1].running_mean)
conv = nn.Conv1d(2, 1, 3, bias=False)
with torch.no_grad():
    conv.weight.copy_(torch.tensor([[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]]))
print(conv(torch.arange(12.0).reshape(1, 2, 6)))
