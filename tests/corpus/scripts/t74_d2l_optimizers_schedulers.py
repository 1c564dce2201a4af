"""The optimisation chapter of d2l.ai: the same small network trained by SGD with momentum,
Adagrad, RMSprop, Adadelta, Adam, AdamW and NAdam, then learning-rate schedules (step,
cosine, warm-up with LinearLR and SequentialLR, OneCycleLR, ReduceLROnPlateau)."""

import torch
from torch import nn, optim


def make_data():
    torch.manual_seed(0)
    X = torch.randn(64, 5)
    y = X @ torch.tensor([1.5, -2.0, 0.5, 0.0, 1.0]) + 0.3 * torch.randn(64)
    return X, y.unsqueeze(1)


def train(make_optimizer, epochs=15, scheduler=None):
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = make_optimizer(net.parameters())
    sched = scheduler(opt) if scheduler else None
    X, y = make_data()
    losses, lrs = [], []
    for epoch in range(epochs):
        for i in range(0, 64, 16):
            opt.zero_grad()
            loss = nn.functional.mse_loss(net(X[i : i + 16]), y[i : i + 16])
            loss.backward()
            opt.step()
        with torch.no_grad():
            full = nn.functional.mse_loss(net(X), y).item()
        losses.append(full)
        lrs.append(opt.param_groups[0]["lr"])
        if sched is not None:
            if isinstance(sched, optim.lr_scheduler.ReduceLROnPlateau):
                sched.step(full)
            else:
                sched.step()
    return losses, lrs


for name, make in [
    ("SGD momentum", lambda p: optim.SGD(p, lr=0.05, momentum=0.9)),
    ("Adagrad", lambda p: optim.Adagrad(p, lr=0.1)),
    ("RMSprop", lambda p: optim.RMSprop(p, lr=0.01, alpha=0.9)),
    ("Adadelta", lambda p: optim.Adadelta(p, lr=1.0)),
    ("Adam", lambda p: optim.Adam(p, lr=0.02)),
    ("AdamW", lambda p: optim.AdamW(p, lr=0.02, weight_decay=0.1)),
    ("NAdam", lambda p: optim.NAdam(p, lr=0.02)),
    ("RAdam", lambda p: optim.RAdam(p, lr=0.02)),
    ("Adamax", lambda p: optim.Adamax(p, lr=0.02)),
]:
    losses, _ = train(make)
    print(f"{name:13} loss after 1, 5, 15 epochs: {losses[0]:.4f} {losses[4]:.4f} {losses[-1]:.4f}")

S = optim.lr_scheduler
for name, sched in [
    ("StepLR", lambda o: S.StepLR(o, step_size=5, gamma=0.5)),
    ("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=15, eta_min=0.001)),
    (
        "warmup then cosine",
        lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, 3), S.CosineAnnealingLR(o, 12)], [3]),
    ),
    ("OneCycleLR", lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=15)),
    ("ReduceLROnPlateau", lambda o: S.ReduceLROnPlateau(o, factor=0.5, patience=1)),
]:
    losses, lrs = train(lambda p: optim.SGD(p, lr=0.05, momentum=0.9), scheduler=sched)
    print(f"{name:19} lrs {[round(lr, 4) for lr in lrs[::3]]} final loss {losses[-1]:.4f}")
opt = optim.Adam([nn.Parameter(torch.zeros(2))], lr=0.1)
print(opt)
print(opt.state_dict()["param_groups"][0]["betas"])
