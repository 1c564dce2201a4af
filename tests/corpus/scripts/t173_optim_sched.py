# Optimizers and learning-rate schedulers on a toy problem
import torch

torch.manual_seed(0)


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


for name, make in [
    ("SGD", lambda ps: torch.optim.SGD(ps, lr=1e-3)),
    ("SGD+mom", lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9)),
    ("Nesterov", lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9, nesterov=True)),
    ("Adam", lambda ps: torch.optim.Adam(ps, lr=0.05)),
    ("AdamW", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1)),
    ("RMSprop", lambda ps: torch.optim.RMSprop(ps, lr=0.01)),
    ("Adagrad", lambda ps: torch.optim.Adagrad(ps, lr=0.5)),
]:
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = make([p])
    for i in range(200):
        opt.zero_grad()
        loss = rosenbrock(p)
        loss.backward()
        opt.step()
    print(f"{name:9s} p={p.detach().numpy().round(4)} loss={rosenbrock(p).item():.5f}")

# schedulers
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
lrs = []
for epoch in range(8):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print("StepLR:", lrs)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
lrs = []
for epoch in range(6):
    opt.step()
    sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print("Cosine:", lrs)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for _ in range(3):
    opt.step()
    sched.step()
print("Exponential:", sched.get_last_lr())

opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 1 / (e + 1))
for _ in range(3):
    opt.step()
    sched.step()
print("LambdaLR:", sched.get_last_lr())

# parameter groups with different learning rates
opt = torch.optim.SGD(
    [{"params": [model.weight]}, {"params": [model.bias], "lr": 0.01}], lr=0.1, momentum=0.5
)
print("groups:", [(g["lr"], g["momentum"], len(g["params"])) for g in opt.param_groups])
x = torch.randn(10, 2)
y = x @ torch.tensor([[1.0], [-2.0]]) + 0.5
for step in range(5):
    opt.zero_grad()
    l = torch.nn.functional.mse_loss(model(x), y)
    l.backward()
    opt.step()
    print(step, round(l.item(), 5))
print(
    "state keys:", list(opt.state_dict()["state"].keys()), list(opt.state_dict()["state"][0].keys())
)
