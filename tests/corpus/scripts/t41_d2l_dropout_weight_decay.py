"""Dropout from scratch and as a layer, and weight decay as an L2 penalty and as an
optimizer option (d2l.ai style)."""

import torch
from torch import nn


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(3)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.0))

net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Dropout(0.5), nn.Linear(20, 1))
x = torch.randn(4, 10)
net.train()
print(net(x).detach())
net.eval()
print(net(x).detach())


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


features = torch.randn(20, 10)
labels = features @ torch.full((10, 1), 0.01) + 0.05
w = torch.normal(0, 1, size=(10, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(5):
    l = ((features @ w + b - labels) ** 2 / 2).mean() + 3 * l2_penalty(w)
    l.backward()
    with torch.no_grad():
        for p in (w, b):
            p -= 0.01 * p.grad
            p.grad.zero_()
print("L2 norm of w:", torch.norm(w).item() > 0, round(torch.norm(w).item(), 3))

torch.manual_seed(3)
model = nn.Linear(10, 1)
trainer = torch.optim.SGD(
    [{"params": model.weight, "weight_decay": 3}, {"params": model.bias}], lr=0.01
)
for epoch in range(5):
    trainer.zero_grad()
    l = nn.MSELoss()(model(features), labels)
    l.backward()
    trainer.step()
print(model.weight.norm().item(), trainer.param_groups[0]["weight_decay"])
