# Zero-to-Mastery style: binary & multiclass classification with an MLP
import math

import torch
from torch import nn

torch.manual_seed(42)
# two interleaved circles
n = 200
angles = torch.rand(n) * 2 * math.pi
radius = torch.where(torch.arange(n) < n // 2, torch.tensor(1.0), torch.tensor(0.5))
X = torch.stack([radius * torch.cos(angles), radius * torch.sin(angles)], dim=1)
X = X + 0.05 * torch.randn(n, 2)
y = (torch.arange(n) < n // 2).float()
print("X[:5]:\n", X[:5])
print("y[:5]:", y[:5], "y.mean():", y.mean().item())

perm = torch.randperm(n)
X, y = X[perm], y[perm]
split = int(0.8 * n)
X_train, X_test, y_train, y_test = X[:split], X[split:], y[:split], y[split:]
print("shapes:", X_train.shape, X_test.shape)


class CircleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(2, 10)
        self.layer_2 = nn.Linear(10, 10)
        self.layer_3 = nn.Linear(10, 1)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))


def accuracy_fn(y_true, y_pred):
    return torch.eq(y_true, y_pred).sum().item() / len(y_pred) * 100


model = CircleModel()
print(model)
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
with torch.inference_mode():
    untrained = model(X_test[:5]).squeeze()
print("untrained logits:", untrained)
print("untrained probs:", torch.sigmoid(untrained))
for epoch in range(600):
    model.train()
    y_logits = model(X_train).squeeze()
    y_pred = torch.round(torch.sigmoid(y_logits))
    loss = loss_fn(y_logits, y_train)
    acc = accuracy_fn(y_train, y_pred)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0 or epoch == 599:
        model.eval()
        with torch.inference_mode():
            t_logits = model(X_test).squeeze()
            t_loss = loss_fn(t_logits, y_test)
            t_acc = accuracy_fn(y_test, torch.round(torch.sigmoid(t_logits)))
        print(
            f"Epoch {epoch:3d} | Loss {loss:.5f}, Acc {acc:.2f}% | "
            f"Test loss {t_loss:.5f}, Test acc {t_acc:.2f}%"
        )

# multiclass: 3 blobs
centers = torch.tensor([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
yb = torch.randint(0, 3, (150,))
Xb = centers[yb] + 0.6 * torch.randn(150, 2)
mc = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
opt = torch.optim.Adam(mc.parameters(), lr=0.05)
for epoch in range(100):
    logits = mc(Xb)
    loss = nn.CrossEntropyLoss()(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 25 == 0:
        preds = torch.softmax(logits, dim=1).argmax(dim=1)
        print(f"Epoch {epoch} loss {loss.item():.4f} acc {accuracy_fn(yb, preds):.2f}%")
print("final probs[:3]:\n", torch.softmax(mc(Xb[:3]), dim=1).detach())
sd = mc.state_dict()
print("state_dict:", {k: tuple(v.shape) for k, v in sd.items()})
mc2 = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
print("load_state_dict:", mc2.load_state_dict(sd))
print("same outputs:", torch.equal(mc(Xb[:3]), mc2(Xb[:3])))
