"""Hands-On ML (PyTorch edition) ch.10-11 style: a regression MLP, Wide & Deep, a custom loop with callbacks, early stopping, lr schedules."""

import copy
import sys

import torch
from packaging.version import Version

assert sys.version_info >= (3, 10)
assert Version(torch.__version__) >= Version("2.6.0"), torch.__version__
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(42)
n, n_features = 400, 8
X = torch.randn(n, n_features)
true_w = torch.linspace(-1, 1, n_features)
y = (X @ true_w + 0.5 * X[:, 0] * X[:, 1] + 0.1 * torch.randn(n)).unsqueeze(1)
print(X.shape, y.shape, f"target mean={y.mean():.4f} std={y.std():.4f}")

full = TensorDataset(X, y)
train_set, valid_set, test_set = random_split(
    full, [280, 60, 60], generator=torch.Generator().manual_seed(42)
)
print(len(train_set), len(valid_set), len(test_set), type(train_set).__name__)
X_train = torch.stack([train_set[i][0] for i in range(len(train_set))])
means = X_train.mean(dim=0, keepdim=True)
stds = X_train.std(dim=0, keepdim=True)
print("means:", means.squeeze().round(decimals=3))


class Standardize(nn.Module):
    def __init__(self, means, stds):
        super().__init__()
        self.register_buffer("means", means)
        self.register_buffer("stds", stds)

    def forward(self, x):
        return (x - self.means) / self.stds


torch.manual_seed(42)
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
valid_loader = DataLoader(valid_set, batch_size=64)
test_loader = DataLoader(test_set, batch_size=64)


def rmse(model, loader):
    model.eval()
    se, count = 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            se += nn.functional.mse_loss(model(xb), yb, reduction="sum").item()
            count += len(yb)
    return (se / count) ** 0.5


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.count, self.best_state = float("inf"), 0, None

    def __call__(self, model, val):
        if val < self.best - self.min_delta:
            self.best, self.count = val, 0
            self.best_state = copy.deepcopy(model.state_dict())
            return False
        self.count += 1
        return self.count >= self.patience


class PrintEvery:
    def __init__(self, every):
        self.every = every

    def __call__(self, epoch, logs):
        if epoch % self.every == 0:
            print(f"Epoch {epoch:2d}: " + ", ".join(f"{k}={v:.4f}" for k, v in logs.items()))


def train(model, optimizer, loss_fn, n_epochs, scheduler=None, callbacks=(), early_stopping=None):
    history = {"train_loss": [], "valid_rmse": [], "lr": []}
    for epoch in range(n_epochs):
        model.train()
        total = 0.0
        for xb, yb in train_loader:
            y_pred = model(xb)
            loss = loss_fn(y_pred, yb)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            total += loss.item() * len(xb)
            if isinstance(scheduler, torch.optim.lr_scheduler.OneCycleLR):
                scheduler.step()
        val = rmse(model, valid_loader)
        logs = {
            "train_loss": total / len(train_set),
            "valid_rmse": val,
            "lr": optimizer.param_groups[0]["lr"],
        }
        for k, v in logs.items():
            history[k].append(v)
        for cb in callbacks:
            cb(epoch, logs)
        if isinstance(scheduler, torch.optim.lr_scheduler.ReduceLROnPlateau):
            scheduler.step(val)
        elif scheduler is not None and not isinstance(
            scheduler, torch.optim.lr_scheduler.OneCycleLR
        ):
            scheduler.step()
        if early_stopping is not None and early_stopping(model, val):
            print(f"early stopping at epoch {epoch}, best valid rmse {early_stopping.best:.4f}")
            model.load_state_dict(early_stopping.best_state)
            break
    return history


torch.manual_seed(42)
model = nn.Sequential(
    Standardize(means, stds),
    nn.Linear(n_features, 32),
    nn.ReLU(),
    nn.Linear(32, 32),
    nn.ReLU(),
    nn.Linear(32, 1),
)
print(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
mse = nn.MSELoss()
es = EarlyStopping(patience=4, min_delta=1e-3)
hist = train(
    model,
    optimizer,
    mse,
    25,
    scheduler=torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9),
    callbacks=[PrintEvery(5)],
    early_stopping=es,
)
print("epochs run:", len(hist["train_loss"]), "test RMSE:", round(rmse(model, test_loader), 4))
print("lrs:", [round(l, 5) for l in hist["lr"][:5]])


class WideAndDeep(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.norm = Standardize(means, stds)
        self.deep_stack = nn.Sequential(
            nn.Linear(n_features, 30), nn.ReLU(), nn.Linear(30, 30), nn.ReLU()
        )
        self.output_layer = nn.Linear(30 + n_features, 1)

    def forward(self, X):
        X = self.norm(X)
        deep_output = self.deep_stack(X)
        wide_and_deep = torch.concat([X, deep_output], dim=1)
        return self.output_layer(wide_and_deep)


torch.manual_seed(42)
wd = WideAndDeep(n_features)
print(wd)
print(
    "params:",
    sum(p.numel() for p in wd.parameters()),
    "buffers:",
    [k for k, _ in wd.named_buffers()],
)
opt = torch.optim.AdamW(wd.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=10 * len(train_loader))
hist = train(wd, opt, nn.HuberLoss(delta=1.0), 10, scheduler=sched, callbacks=[PrintEvery(3)])
print("one-cycle lrs:", [f"{l:.5f}" for l in hist["lr"]])
print("test RMSE:", round(rmse(wd, test_loader), 4))


# schedules side by side on a dummy parameter
def lr_trace(make, steps=8, metric=None):
    p = nn.Parameter(torch.zeros(1))
    o = torch.optim.SGD([p], lr=0.1)
    s = make(o)
    out = []
    for i in range(steps):
        out.append(round(o.param_groups[0]["lr"], 6))
        o.step()
        s.step(metric[i]) if metric else s.step()
    return out


S = torch.optim.lr_scheduler
print("StepLR     ", lr_trace(lambda o: S.StepLR(o, step_size=3, gamma=0.1)))
print("MultiStepLR", lr_trace(lambda o: S.MultiStepLR(o, milestones=[2, 5], gamma=0.5)))
print("Cosine     ", lr_trace(lambda o: S.CosineAnnealingLR(o, T_max=8, eta_min=0.01)))
print("WarmRestart", lr_trace(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)))
print("LambdaLR   ", lr_trace(lambda o: S.LambdaLR(o, lr_lambda=lambda epoch: 1 / (1 + epoch))))
print(
    "Linear+Exp ",
    lr_trace(
        lambda o: S.SequentialLR(
            o,
            [S.LinearLR(o, start_factor=0.25, total_iters=3), S.ExponentialLR(o, gamma=0.8)],
            milestones=[3],
        )
    ),
)
print(
    "Plateau    ",
    lr_trace(
        lambda o: S.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1),
        metric=[1, 0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.8],
    ),
)
print("Polynomial ", lr_trace(lambda o: S.PolynomialLR(o, total_iters=4, power=2.0)))
print("Cyclic     ", lr_trace(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2)))

# saving and loading the whole thing
torch.save(wd.state_dict(), "wide_deep.pt")
wd2 = WideAndDeep(n_features)
wd2.load_state_dict(torch.load("wide_deep.pt"))
with torch.no_grad():
    print(torch.allclose(wd(X[:5]), wd2(X[:5])), wd2(X[:3]).squeeze(1))
print(sorted(torch.load("wide_deep.pt").keys())[:4])
missing = wd2.load_state_dict(
    {k: v for k, v in wd.state_dict().items() if "output" not in k}, strict=False
)
print(missing.missing_keys, missing.unexpected_keys)
try:
    wd2.load_state_dict({"bogus": torch.zeros(1)})
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
