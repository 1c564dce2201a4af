"""Early stopping and model checkpointing (MLM "How to use checkpointing")."""

import copy
import os

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(3)

# synthetic regression-as-classification data
X = torch.rand(160, 6) * 4 - 2
w_true = torch.tensor([1.5, -2.0, 0.7, 0.0, 0.3, -1.0])
logit = X @ w_true + 0.5 * torch.randn(160)
y = (logit > 0).float().unsqueeze(1)
print("positives:", int(y.sum()), "of", len(y))
X_train, y_train = X[:110], y[:110]
X_val, y_val = X[110:], y[110:]

model = nn.Sequential(
    nn.Linear(6, 16),
    nn.Tanh(),
    nn.Linear(16, 8),
    nn.Tanh(),
    nn.Linear(8, 1),
)
print(model)
print("first layer:", model[0])
print("state_dict keys:", list(model.state_dict().keys()))
loss_fn = nn.BCEWithLogitsLoss()
optimizer = optim.SGD(model.parameters(), lr=0.2, momentum=0.9)


def checkpoint(model, filename):
    torch.save(model.state_dict(), filename)


def resume(model, filename):
    model.load_state_dict(torch.load(filename))


early_stop_thresh = 5
best_loss = float("inf")
best_epoch = -1
for epoch in range(100):
    model.train()
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 22):
        idx = perm[i : i + 22]
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(X_val), y_val).item()
        acc = ((model(X_val) > 0).float() == y_val).float().mean().item()
    print(f"epoch {epoch:3d} train {loss.item():.5f} val {val_loss:.5f} acc {acc:.3f}")
    if val_loss < best_loss:
        best_loss = val_loss
        best_epoch = epoch
        checkpoint(model, "best_model.pth")
    elif epoch - best_epoch > early_stop_thresh:
        print("Early stopped training at epoch %d" % epoch)
        break

print("best epoch", best_epoch, "best val loss %.5f" % best_loss)
resume(model, "best_model.pth")
with torch.no_grad():
    print("reloaded val loss %.5f" % loss_fn(model(X_val), y_val).item())

# full checkpoint dict: epoch, model, optimizer
torch.save(
    {
        "epoch": best_epoch,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "loss": best_loss,
    },
    "checkpoint.pth",
)
ck = torch.load("checkpoint.pth")
print("checkpoint keys:", sorted(ck.keys()))
print("epoch in file:", ck["epoch"], type(ck["epoch"]).__name__)
print("optimizer param_groups:", ck["optimizer"]["param_groups"])
print(
    "momentum buffer shapes:",
    [tuple(s["momentum_buffer"].shape) for s in ck["optimizer"]["state"].values()],
)

new_model = copy.deepcopy(model)
for p in new_model.parameters():
    nn.init.zeros_(p)
print("zeroed sum:", sum(p.sum().item() for p in new_model.parameters()))
new_model.load_state_dict(ck["model"])
new_opt = optim.SGD(new_model.parameters(), lr=0.5)
new_opt.load_state_dict(ck["optimizer"])
print("lr after load:", new_opt.param_groups[0]["lr"])
print(
    "same weights:",
    all(torch.equal(a, b) for a, b in zip(model.parameters(), new_model.parameters())),
)

# strict=False and error messages
sd = model.state_dict()
sd["extra.weight"] = torch.zeros(1)
del sd["4.bias"]
result = new_model.load_state_dict(sd, strict=False)
print("missing:", result.missing_keys)
print("unexpected:", result.unexpected_keys)
print(result)
try:
    new_model.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
bad = model.state_dict()
bad["0.weight"] = torch.zeros(3, 3)
try:
    new_model.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)

# saving whole tensors / lists
torch.save([torch.arange(4), torch.ones(2, 2, dtype=torch.float64)], "tensors.pt")
a, b = torch.load("tensors.pt")
print(a, b)
for f in ["best_model.pth", "checkpoint.pth", "tensors.pt"]:
    os.remove(f)
print("files removed:", not any(os.path.exists(f) for f in ["best_model.pth", "checkpoint.pth"]))
