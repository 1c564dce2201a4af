"""Learning-rate schedules, printed step by step (MLM "Using learning rate schedule")."""

import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(0)


def make_opt(lr=0.1, kind="sgd"):
    model = nn.Linear(3, 1)
    if kind == "sgd":
        return model, torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    return model, torch.optim.Adam(model.parameters(), lr=lr)


X = torch.randn(32, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1


def run(name, sched_fn, epochs=10, kind="sgd", lr=0.1, metric=False):
    model, opt = make_opt(lr, kind)
    sched = sched_fn(opt)
    lrs = []
    for epoch in range(epochs):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        lrs.append(round(opt.param_groups[0]["lr"], 6))
        if metric:
            sched.step(loss.item() if epoch < 3 else 1.0)
        else:
            sched.step()
    print(f"{name:22s}", lrs)
    if not metric:
        print(
            " " * 22,
            "last_lr",
            [round(v, 6) for v in sched.get_last_lr()],
            "loss %.5f" % loss.item(),
        )
    return sched


run("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
run("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5, 8], gamma=0.1))
run("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8))
run("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1)))
run("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.9))
run("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
run("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3))
run("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=10, eta_min=0.001))
run("CosineWarmRestarts", lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2))
run("PolynomialLR", lambda o: lr_scheduler.PolynomialLR(o, total_iters=8, power=2.0))
run("OneCycleLR", lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=10), kind="adam")
run("CyclicLR", lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2))
run(
    "SequentialLR",
    lambda o: lr_scheduler.SequentialLR(
        o,
        [
            lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3),
            lr_scheduler.ExponentialLR(o, gamma=0.7),
        ],
        milestones=[3],
    ),
)
run(
    "ChainedScheduler",
    lambda o: lr_scheduler.ChainedScheduler(
        [
            lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4),
            lr_scheduler.ExponentialLR(o, gamma=0.9),
        ]
    ),
)
s = run(
    "ReduceLROnPlateau",
    lambda o: lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1),
    metric=True,
)
print("plateau best:", s.best, "bad epochs:", s.num_bad_epochs)

# state dict of a scheduler and resuming it
model, opt = make_opt()
sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.3)
for _ in range(3):
    opt.step()
    sched.step()
sd = sched.state_dict()
print("StepLR state:", {k: v for k, v in sd.items()})
model2, opt2 = make_opt()
sched2 = lr_scheduler.StepLR(opt2, step_size=2, gamma=0.3)
sched2.load_state_dict(sd)
print("resumed last_epoch:", sched2.last_epoch, "lr in group:", opt2.param_groups[0]["lr"])
print("initial_lr:", opt2.param_groups[0]["initial_lr"])

# older tutorials print scheduler.get_lr() inside the loop
import warnings

model, opt = make_opt(lr=1.0)
sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for epoch in range(5):
        print(f"epoch {epoch} get_lr {sched.get_lr()} get_last_lr {sched.get_last_lr()}")
        opt.step()
        sched.step()

# parameter groups with different learning rates
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.SGD(
    [
        {"params": net[0].parameters(), "lr": 0.01},
        {"params": net[2].parameters()},
    ],
    lr=0.1,
    momentum=0.5,
)
sched = lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5**e, lambda e: 1.0 / (1 + e)])
for epoch in range(4):
    opt.step()
    sched.step()
    print("epoch", epoch, [round(g["lr"], 6) for g in opt.param_groups])
print("group keys:", sorted(opt.param_groups[0].keys()))

# manual change of the learning rate, as the tutorials do
for g in opt.param_groups:
    g["lr"] = 0.001
print("manual:", [g["lr"] for g in opt.param_groups])

try:
    lr_scheduler.MultiStepLR(opt, milestones=[3, 1]).step()
    print("unsorted milestones accepted")
except ValueError as e:
    print("ValueError:", e)
try:
    lr_scheduler.OneCycleLR(torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1), max_lr=1.0)
except ValueError as e:
    print("ValueError:", e)
try:
    lr_scheduler.StepLR(
        torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1), step_size=2, last_epoch=3
    )
    print("resumed without initial_lr")
except KeyError as e:
    print("KeyError:", str(e).splitlines()[0])
