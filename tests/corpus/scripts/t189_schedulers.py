# Learning-rate schedulers
import torch
from torch import nn
from torch.optim.lr_scheduler import CosineAnnealingLR, ExponentialLR, LambdaLR, OneCycleLR, StepLR

torch.manual_seed(0)


def fresh():
    m = nn.Linear(2, 1)
    return m, torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)


m, opt = fresh()
sched = StepLR(opt, step_size=3, gamma=0.5)
lrs = []
for epoch in range(10):
    opt.zero_grad()
    m(torch.randn(4, 2)).sum().backward()
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print("StepLR:", lrs)

m, opt = fresh()
sched = CosineAnnealingLR(opt, T_max=8, eta_min=0.001)
lrs = []
for epoch in range(10):
    opt.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
    sched.step()
print("CosineAnnealingLR:", lrs)

m, opt = fresh()
sched = OneCycleLR(opt, max_lr=1.0, total_steps=12)
lrs, moms = [], []
for step in range(12):
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 5))
    moms.append(round(opt.param_groups[0]["momentum"], 4))
    sched.step()
print("OneCycleLR lr:", lrs)
print("OneCycleLR momentum:", moms)

m, opt = fresh()
sched = ExponentialLR(opt, gamma=0.8)
lrs = []
for epoch in range(5):
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print("ExponentialLR:", lrs)

m, opt = fresh()
sched = LambdaLR(opt, lr_lambda=lambda e: 1.0 / (1 + e))
lrs = []
for epoch in range(5):
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print("LambdaLR:", lrs)

# effect of scheduler on training a quadratic
w = torch.tensor([5.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.4)
sched = StepLR(opt, step_size=5, gamma=0.1)
for step in range(15):
    loss = (w - 1) ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 3 == 0:
        print(f"step {step:2d} w={w.item():.6f} lr={opt.param_groups[0]['lr']:.5f}")
print("scheduler state keys:", sorted(sched.state_dict().keys()))
