"""A network as an nn.Module subclass, printed, counted, trained (seeded)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoLayerNet(nn.Module):
    def __init__(self, d_in, hidden, d_out):
        super().__init__()
        self.linear1 = nn.Linear(d_in, hidden)
        self.linear2 = nn.Linear(hidden, d_out)

    def forward(self, x):
        return self.linear2(F.relu(self.linear1(x)))


torch.manual_seed(5)
model = TwoLayerNet(3, 5, 2)
print(model)
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_parameters()])
x = torch.randn(10, 3)
y = torch.randn(10, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(100):
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 25 == 24:
        print(step, f"{loss.item():.5f}")
print(model.linear2.bias)
