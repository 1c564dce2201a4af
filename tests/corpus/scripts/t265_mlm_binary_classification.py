"""Binary classification on synthetic tabular data, Machine-Learning-Mastery style."""

import math

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(7)

# --- synthetic "sonar-like" data: two gaussian blobs in 8 dimensions ---
n_per_class, n_features = 60, 8
X0 = torch.randn(n_per_class, n_features) + 0.35
X1 = torch.randn(n_per_class, n_features) - 0.35
X = torch.cat([X0, X1], dim=0)
y = torch.cat([torch.zeros(n_per_class), torch.ones(n_per_class)]).reshape(-1, 1)
print("X:", X.shape, X.dtype, "y:", y.shape, y.dtype)
print("class balance:", y.sum().item(), (1 - y).sum().item())
print("first rows:\n", X[:3])

# --- shuffle + train/test split ---
perm = torch.randperm(X.shape[0])
print("perm[:10]:", perm[:10])
X, y = X[perm], y[perm]
n_train = int(0.7 * len(X))
X_train, X_test = X[:n_train], X[n_train:]
y_train, y_test = y[:n_train], y[n_train:]
print("train/test:", X_train.shape, X_test.shape)

# standardise with training statistics only
mu = X_train.mean(dim=0, keepdim=True)
sd = X_train.std(dim=0, keepdim=True)
print("mu:", mu)
print("sd:", sd)
X_train = (X_train - mu) / sd
X_test = (X_test - mu) / sd
print("standardised train mean ~0:", X_train.mean(0).abs().max().item() < 1e-5)


class Wide(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(n_features, 24)
        self.relu = nn.ReLU()
        self.output = nn.Linear(24, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        x = self.relu(self.hidden(x))
        x = self.sigmoid(self.output(x))
        return x


class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(n_features, 12)
        self.act1 = nn.ReLU()
        self.layer2 = nn.Linear(12, 12)
        self.act2 = nn.ReLU()
        self.output = nn.Linear(12, 1)

    def forward(self, x):
        x = self.act1(self.layer1(x))
        x = self.act2(self.layer2(x))
        return self.output(x)  # logits


wide = Wide()
deep = Deep()
print(wide)
print(deep)
print("wide params:", sum(p.numel() for p in wide.parameters()))
print("deep params:", sum(p.numel() for p in deep.parameters()))
for name, p in deep.named_parameters():
    print(f"  {name:15s} {tuple(p.shape)} requires_grad={p.requires_grad}")


def train(model, loss_fn, n_epochs=30, batch_size=10, logits=False):
    optimizer = optim.Adam(model.parameters(), lr=0.001 * 5)
    batch_start = torch.arange(0, len(X_train), batch_size)
    best_acc = -math.inf
    history = []
    for epoch in range(n_epochs):
        model.train()
        for start in batch_start:
            X_batch = X_train[start : start + batch_size]
            y_batch = y_train[start : start + batch_size]
            y_pred = model(X_batch)
            loss = loss_fn(y_pred, y_batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            y_pred = model(X_test)
            if logits:
                y_pred = torch.sigmoid(y_pred)
            acc = (y_pred.round() == y_test).float().mean()
            acc = float(acc)
        history.append(acc)
        if acc > best_acc:
            best_acc = acc
        if epoch % 5 == 0 or epoch == n_epochs - 1:
            print(f"  epoch {epoch:2d} last batch loss {loss.item():.6f} test acc {acc:.4f}")
    return best_acc, history


print("--- wide with BCELoss ---")
best_w, hist_w = train(wide, nn.BCELoss())
print("best wide acc:", round(best_w, 4))
print("--- deep with BCEWithLogitsLoss ---")
best_d, hist_d = train(deep, nn.BCEWithLogitsLoss(), logits=True)
print("best deep acc:", round(best_d, 4))

# compare both loss functions on identical numbers
logit = torch.tensor([[-2.0], [0.5], [3.0]])
target = torch.tensor([[0.0], [1.0], [1.0]])
print("BCEWithLogits:", nn.BCEWithLogitsLoss()(logit, target))
print("BCE(sigmoid):", nn.BCELoss()(torch.sigmoid(logit), target))
print("pos_weight:", nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(logit, target))
print("reduction none:", nn.BCEWithLogitsLoss(reduction="none")(logit, target))
print("sum:", nn.BCELoss(reduction="sum")(torch.sigmoid(logit), target))

# inference on a few rows
deep.eval()
with torch.no_grad():
    for i in range(5):
        p = torch.sigmoid(deep(X_test[i : i + 1]))
        print(
            f"row {i}: prob={p.item():.4f} pred={int(p.round().item())} actual={int(y_test[i].item())}"
        )

# threshold sweep
with torch.no_grad():
    probs = torch.sigmoid(deep(X_test)).squeeze(1)
for thr in torch.linspace(0.1, 0.9, 5):
    pred = (probs > thr).float()
    tp = ((pred == 1) & (y_test.squeeze(1) == 1)).sum()
    fp = ((pred == 1) & (y_test.squeeze(1) == 0)).sum()
    print(
        f"thr={thr.item():.2f} tp={tp.item()} fp={fp.item()} acc={(pred == y_test.squeeze(1)).float().mean():.4f}"
    )

# the error a beginner meets: target with wrong shape
try:
    nn.BCELoss()(torch.sigmoid(deep(X_test)), y_test.squeeze(1))
except ValueError as e:
    print("ValueError:", e)

# another beginner error: integer labels straight from a CSV column
y_int = y_test.long()
try:
    nn.BCEWithLogitsLoss()(deep(X_test), y_int)
except RuntimeError as e:
    print("RuntimeError:", e)
print("fixed with .float():", round(nn.BCEWithLogitsLoss()(deep(X_test), y_int.float()).item(), 6))
