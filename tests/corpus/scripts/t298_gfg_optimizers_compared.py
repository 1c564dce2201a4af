"""GeeksforGeeks style: "Optimizers in PyTorch compared" on a tiny regression problem + Rosenbrock"""

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
X = torch.randn(64, 5)
true_w = torch.tensor([[1.5], [-2.0], [0.5], [0.0], [3.0]])
y = X @ true_w + 0.1 * torch.randn(64, 1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))


configs = {
    "SGD": lambda p: optim.SGD(p, lr=0.05),
    "SGD+momentum": lambda p: optim.SGD(p, lr=0.05, momentum=0.9),
    "SGD+nesterov": lambda p: optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True),
    "SGD+wd": lambda p: optim.SGD(p, lr=0.05, weight_decay=1e-2, momentum=0.5, dampening=0.1),
    "Adam": lambda p: optim.Adam(p, lr=0.01),
    "Adam amsgrad": lambda p: optim.Adam(p, lr=0.01, amsgrad=True),
    "AdamW": lambda p: optim.AdamW(p, lr=0.01, weight_decay=0.1),
    "RMSprop": lambda p: optim.RMSprop(p, lr=0.01),
    "RMSprop centered": lambda p: optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    "Adagrad": lambda p: optim.Adagrad(p, lr=0.1),
    "Adadelta": lambda p: optim.Adadelta(p, lr=1.0),
    "Adamax": lambda p: optim.Adamax(p, lr=0.02),
    "NAdam": lambda p: optim.NAdam(p, lr=0.01),
    "RAdam": lambda p: optim.RAdam(p, lr=0.01),
    "ASGD": lambda p: optim.ASGD(p, lr=0.05),
    "Rprop": lambda p: optim.Rprop(p, lr=0.01),
}

loss_fn = nn.MSELoss()
results = {}
for name, make_opt in configs.items():
    model = make_model()
    opt = make_opt(model.parameters())
    hist = []
    for step in range(40):
        opt.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        opt.step()
        hist.append(loss.item())
    results[name] = hist
    print(f"{name:18s} start={hist[0]:.5f} step10={hist[10]:.5f} final={hist[-1]:.5f}")

best = min(results, key=lambda k: results[k][-1])
print("best optimizer:", best)

# Inspect optimizer internals
model = make_model()
opt = optim.Adam(model.parameters(), lr=1e-3, betas=(0.8, 0.99), eps=1e-7)
print(opt)
print("param_groups keys:", sorted(opt.param_groups[0].keys()))
loss_fn(model(X), y).backward()
opt.step()
st = opt.state_dict()
print("state keys:", list(st["state"].keys()))
print("state[0] keys:", sorted(st["state"][0].keys()))
print("step value:", st["state"][0]["step"])
print("exp_avg[0,:3]:", st["state"][0]["exp_avg"][0, :3])
print("exp_avg_sq shape:", st["state"][0]["exp_avg_sq"].shape)

sgd = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(sgd)
print(
    "defaults:",
    {k: sgd.defaults[k] for k in ["lr", "momentum", "dampening", "weight_decay", "nesterov"]},
)

# per-layer learning rates
opt2 = optim.SGD(
    [
        {"params": model[0].parameters(), "lr": 1e-2},
        {"params": model[2].parameters()},
    ],
    lr=1e-3,
    momentum=0.9,
)
print("group lrs:", [g["lr"] for g in opt2.param_groups])
opt2.param_groups[1]["lr"] = 5e-4
print("modified:", [g["lr"] for g in opt2.param_groups])
opt2.add_param_group({"params": [nn.Parameter(torch.zeros(2))], "lr": 0.3})
print("num groups:", len(opt2.param_groups), opt2.param_groups[2]["momentum"])


# Rosenbrock comparison on a 2-D point
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


for name, cls, kw in [
    ("SGD", optim.SGD, {"lr": 1e-3}),
    ("Adam", optim.Adam, {"lr": 0.05}),
    ("RMSprop", optim.RMSprop, {"lr": 0.01}),
    ("Adagrad", optim.Adagrad, {"lr": 0.5}),
]:
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    o = cls([p], **kw)
    for i in range(200):
        o.zero_grad()
        f = rosen(p)
        f.backward()
        o.step()
    print(f"rosenbrock {name:8s} point={p.detach()} f={rosen(p).item():.6f}")

# LBFGS with closure
p = torch.tensor([-1.5, 2.0], requires_grad=True)
lb = optim.LBFGS([p], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe")


def closure():
    lb.zero_grad()
    f = rosen(p)
    f.backward()
    return f


for _ in range(3):
    fval = lb.step(closure)
    print("LBFGS f: %.6f" % float(fval), "p:", p.detach())

# zero_grad set_to_none semantics
p = nn.Parameter(torch.ones(3))
o = optim.SGD([p], lr=0.1)
(p * 2).sum().backward()
print("grad before zero_grad:", p.grad)
o.zero_grad()
print("grad after zero_grad (default set_to_none):", p.grad)
(p * 2).sum().backward()
o.zero_grad(set_to_none=False)
print("grad after zero_grad(set_to_none=False):", p.grad)

try:
    optim.SGD([p], lr=-1)
except ValueError as e:
    print("bad lr:", e)
try:
    optim.Adam([p], betas=(1.5, 0.9))
except ValueError as e:
    print("bad betas:", e)
try:
    optim.SGD([], lr=0.1)
except ValueError as e:
    print("empty params:", e)


# ---- learning-rate schedulers compared (GfG "Adjusting learning rate") ----
def lr_trace(make_sched, steps=12, base_lr=0.1, opt_cls=optim.SGD, **okw):
    p = nn.Parameter(torch.zeros(1))
    o = opt_cls([p], lr=base_lr, **okw)
    s = make_sched(o)
    out = []
    for _ in range(steps):
        o.step()
        out.append(round(o.param_groups[0]["lr"], 6))
        s.step()
    return out, s


scheds = {
    "StepLR(3,0.5)": lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR([2,5,9])": lambda o: optim.lr_scheduler.MultiStepLR(
        o, milestones=[2, 5, 9], gamma=0.1
    ),
    "ExponentialLR(0.8)": lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.8),
    "CosineAnnealingLR(10)": lambda o: optim.lr_scheduler.CosineAnnealingLR(
        o, T_max=10, eta_min=0.001
    ),
    "CosineWarmRestarts(4,2)": lambda o: optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=4, T_mult=2
    ),
    "LambdaLR(1/(1+e))": lambda o: optim.lr_scheduler.LambdaLR(
        o, lr_lambda=lambda e: 1.0 / (1 + e)
    ),
    "MultiplicativeLR(0.9)": lambda o: optim.lr_scheduler.MultiplicativeLR(
        o, lr_lambda=lambda e: 0.9
    ),
    "LinearLR warmup": lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4),
    "ConstantLR": lambda o: optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
    "PolynomialLR": lambda o: optim.lr_scheduler.PolynomialLR(o, total_iters=10, power=2.0),
    "OneCycleLR": lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=12),
    "CyclicLR triangular": lambda o: optim.lr_scheduler.CyclicLR(
        o, base_lr=0.01, max_lr=0.1, step_size_up=3
    ),
    "Sequential warmup+cos": lambda o: optim.lr_scheduler.SequentialLR(
        o,
        schedulers=[
            optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3),
            optim.lr_scheduler.CosineAnnealingLR(o, T_max=9),
        ],
        milestones=[3],
    ),
    "ChainedScheduler": lambda o: optim.lr_scheduler.ChainedScheduler(
        [
            optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
            optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
        ]
    ),
}
for name, mk in scheds.items():
    trace, s = lr_trace(mk)
    print(f"{name:24s}", trace)
trace, s = lr_trace(
    lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=12),
    opt_cls=optim.SGD,
    momentum=0.9,
)
print("OneCycle momentum after:", s.optimizer.param_groups[0]["momentum"])
print("get_last_lr:", s.get_last_lr())
sd = s.state_dict()
print("scheduler state keys:", sorted(k for k in sd.keys() if not k.startswith("_"))[:8])
pl = nn.Parameter(torch.zeros(1))
o = optim.SGD([pl], lr=1.0)
rop = optim.lr_scheduler.ReduceLROnPlateau(
    o, mode="max", factor=0.1, patience=2, threshold=0.01, cooldown=1, min_lr=1e-3
)
for metric in [0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]:
    rop.step(metric)
    print("plateau lr:", o.param_groups[0]["lr"], "bad epochs:", rop.num_bad_epochs)
try:
    optim.lr_scheduler.OneCycleLR(o, max_lr=0.1)
except ValueError as e:
    print("OneCycle error:", e)
