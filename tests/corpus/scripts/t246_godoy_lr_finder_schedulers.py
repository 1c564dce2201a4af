"""Step-by-Step ch.6 style: learning-rate range test, schedulers, EWMA, gradient clipping"""

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import (
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiStepLR,
    OneCycleLR,
    PolynomialLR,
    ReduceLROnPlateau,
    SequentialLR,
    StepLR,
)
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)
X = torch.randn(64, 3)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * torch.randn(64, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)


def make_lr_fn(start_lr, end_lr, num_iter, step_mode="exp"):
    if step_mode == "linear":
        factor = (end_lr / start_lr - 1) / num_iter

        def lr_fn(iteration):
            return 1 + iteration * factor
    else:
        factor = (np.log(end_lr) - np.log(start_lr)) / num_iter

        def lr_fn(iteration):
            return np.exp(factor) ** iteration

    return lr_fn


start_lr = 0.01
end_lr = 0.1
num_iter = 10
lr_fn = make_lr_fn(start_lr, end_lr, num_iter)
print([round(float(v), 6) for v in lr_fn(np.arange(num_iter + 1))])
dummy_model = nn.Linear(1, 1)
dummy_optimizer = optim.SGD(dummy_model.parameters(), lr=start_lr)
dummy_scheduler = LambdaLR(dummy_optimizer, lr_lambda=lr_fn)
dummy_optimizer.step()
dummy_scheduler.step()
print(dummy_scheduler.get_last_lr()[0])


def lr_range_test(
    model, loader, loss_fn, optimizer, end_lr, num_iter=100, step_mode="exp", alpha=0.05
):
    previous_states = {
        "model": {k: v.clone() for k, v in model.state_dict().items()},
        "optimizer": optimizer.state_dict(),
    }
    start_lr = optimizer.state_dict()["param_groups"][0]["lr"]
    scheduler = LambdaLR(optimizer, lr_lambda=make_lr_fn(start_lr, end_lr, num_iter))
    tracking = {"loss": [], "lr": []}
    iteration = 0
    while iteration < num_iter:
        for x_batch, y_batch in loader:
            yhat = model(x_batch)
            loss = loss_fn(yhat, y_batch)
            loss.backward()
            tracking["lr"].append(scheduler.get_last_lr()[0])
            if iteration == 0:
                tracking["loss"].append(loss.item())
            else:
                prev_loss = tracking["loss"][-1]
                tracking["loss"].append(alpha * loss.item() + (1 - alpha) * prev_loss)
            iteration += 1
            if iteration == num_iter:
                break
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
    optimizer.load_state_dict(previous_states["optimizer"])
    model.load_state_dict(previous_states["model"])
    return tracking


torch.manual_seed(42)
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = optim.Adam(model.parameters(), lr=1e-3)
before = model[0].weight.clone()
tracking = lr_range_test(model, loader, nn.MSELoss(), optimizer, end_lr=1.0, num_iter=30)
print("restored:", torch.equal(before, model[0].weight), optimizer.param_groups[0]["lr"])
for i in range(0, 30, 6):
    print(f"lr {tracking['lr'][i]:.6f} smoothed loss {tracking['loss'][i]:.6f}")
best = int(np.argmin(tracking["loss"]))
print("min loss at lr", round(tracking["lr"][best], 6))


# EWMA as in the book
def EWMA(past_value, current_value, alpha):
    return (1 - alpha) * past_value + alpha * current_value


temps = torch.tensor([5.0, 6.0, 8.0, 7.0, 9.0, 12.0, 11.0, 10.0])
ew = [temps[0].item()]
for t in temps[1:]:
    ew.append(EWMA(ew[-1], t.item(), 0.2))
print([round(v, 5) for v in ew])
alpha = 0.2
weights = (1 - alpha) ** torch.arange(len(temps) - 1, -1, -1, dtype=torch.float32)
print("bias-corrected", (weights * temps).sum() / weights.sum())


# a tour of schedulers
def lrs_for(make_sched, steps=12, base_lr=0.1, opt_cls=optim.SGD, **okw):
    p = nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=base_lr, **okw)
    sched = make_sched(opt)
    out = []
    for _ in range(steps):
        out.append(round(opt.param_groups[0]["lr"], 6))
        opt.step()
        sched.step()
    return out, sched


for name, mk in [
    ("StepLR", lambda o: StepLR(o, step_size=4, gamma=0.5)),
    ("MultiStepLR", lambda o: MultiStepLR(o, milestones=[2, 5, 9], gamma=0.1)),
    ("ExponentialLR", lambda o: ExponentialLR(o, gamma=0.8)),
    ("CosineAnnealingLR", lambda o: CosineAnnealingLR(o, T_max=6, eta_min=0.01)),
    ("CosineAnnealingWarmRestarts", lambda o: CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2)),
    ("LinearLR", lambda o: LinearLR(o, start_factor=0.25, total_iters=4)),
    ("PolynomialLR", lambda o: PolynomialLR(o, total_iters=8, power=2.0)),
    (
        "SequentialLR",
        lambda o: SequentialLR(
            o,
            [LinearLR(o, start_factor=0.1, total_iters=3), ExponentialLR(o, gamma=0.9)],
            milestones=[3],
        ),
    ),
    ("OneCycleLR", lambda o: OneCycleLR(o, max_lr=0.5, total_steps=12)),
]:
    lrs, s = lrs_for(mk)
    print(f"{name:28s}", lrs)
lrs, s = lrs_for(
    lambda o: CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2"),
    steps=14,
    momentum=0.9,
)
print("CyclicLR triangular2", lrs)
lrs, s = lrs_for(
    lambda o: CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9),
    steps=10,
    momentum=0.9,
)
print("CyclicLR exp_range", lrs)
print("StepLR state", StepLR(optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1), 3).state_dict())

p = nn.Parameter(torch.zeros(1))
opt = optim.SGD([p], lr=0.1)
plateau = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, threshold=0.01)
for epoch, val in enumerate([1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.61, 0.62, 0.63]):
    opt.step()
    plateau.step(val)
    print(epoch, val, opt.param_groups[0]["lr"], plateau.num_bad_epochs, plateau.get_last_lr())

# momentum and nesterov, looking into the optimizer state
torch.manual_seed(1)
w = nn.Parameter(torch.tensor([1.0, -1.0]))
for kw in [
    dict(momentum=0.9),
    dict(momentum=0.9, nesterov=True),
    dict(momentum=0.9, dampening=0.5, weight_decay=0.01),
]:
    with torch.no_grad():
        w.copy_(torch.tensor([1.0, -1.0]))
    o = optim.SGD([w], lr=0.1, **kw)
    for i in range(3):
        o.zero_grad()
        (w**2).sum().backward()
        o.step()
    print(kw, w.data, o.state[w]["momentum_buffer"])
for opt_cls, kw in [
    (optim.Adam, {}),
    (optim.AdamW, dict(weight_decay=0.1)),
    (optim.RMSprop, dict(alpha=0.9)),
    (optim.Adagrad, {}),
    (optim.Adam, dict(amsgrad=True)),
    (optim.NAdam, {}),
    (optim.RAdam, {}),
    (optim.Adamax, {}),
    (optim.Adadelta, dict(lr=1.0)),
]:
    with torch.no_grad():
        w.copy_(torch.tensor([1.0, -1.0]))
    o = opt_cls([w], **({"lr": 0.1} | kw))
    for i in range(5):
        o.zero_grad()
        (w**2 + w).sum().backward()
        o.step()
    print(f"{opt_cls.__name__:9s} {kw}", w.data, sorted(o.state[w].keys()))

# gradient clipping
torch.manual_seed(3)
net = nn.Linear(4, 2)
out = net(torch.randn(5, 4) * 10).pow(2).sum()
out.backward()
print("grad norm before", torch.norm(torch.stack([p.grad.norm() for p in net.parameters()])).item())
total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
print(
    "returned total",
    total,
    "after",
    torch.norm(torch.stack([p.grad.norm() for p in net.parameters()])).item(),
)
nn.utils.clip_grad_value_(net.parameters(), clip_value=0.1)
print(net.weight.grad, net.bias.grad)
vec = nn.utils.parameters_to_vector(net.parameters())
print(vec.shape, vec[:4])
nn.utils.vector_to_parameters(torch.zeros(10), net.parameters())
print(net.weight.sum().item(), net.bias)
# add param group, per-layer lrs
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
o = optim.SGD(
    [{"params": m[0].parameters()}, {"params": m[1].parameters(), "lr": 0.01}], lr=0.1, momentum=0.5
)
print([(g["lr"], g["momentum"], len(g["params"])) for g in o.param_groups])
o.add_param_group({"params": [nn.Parameter(torch.ones(3))], "lr": 1.0})
print(len(o.param_groups), o.param_groups[2]["momentum"])
print(o)

# --- more of the optimisation toolbox: LBFGS, SWA/EMA averaging, chained schedulers ---
from torch.optim.lr_scheduler import ChainedScheduler, ConstantLR, MultiplicativeLR
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

lrs, _ = lrs_for(
    lambda o: ChainedScheduler(
        [ConstantLR(o, factor=0.5, total_iters=3), ExponentialLR(o, gamma=0.9)]
    ),
    steps=6,
)
print("Chained", lrs)
lrs, _ = lrs_for(lambda o: MultiplicativeLR(o, lr_lambda=lambda e: 0.95), steps=5)
print("Multiplicative", lrs)
lrs, s = lrs_for(
    lambda o: OneCycleLR(
        o, max_lr=1.0, epochs=2, steps_per_epoch=4, anneal_strategy="linear", three_phase=True
    ),
    steps=8,
    momentum=0.9,
)
print("OneCycle linear 3-phase", lrs, s.optimizer.param_groups[0]["momentum"])
lrs, s = lrs_for(lambda o: OneCycleLR(o, max_lr=0.01, total_steps=6), steps=6, opt_cls=optim.Adam)
print("OneCycle Adam", lrs, s.optimizer.param_groups[0]["betas"])

torch.manual_seed(12)
A = torch.randn(8, 3)
bt = torch.randn(8)
w = torch.zeros(3, requires_grad=True)
lbfgs = optim.LBFGS([w], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    loss = ((A @ w - bt) ** 2).mean() + 0.01 * (w**2).sum()
    loss.backward()
    return loss


for i in range(3):
    l = lbfgs.step(closure)
    print("lbfgs", i, round(l.item(), 8), w.data)
sol = torch.linalg.solve(A.t() @ A / 8 + 0.01 * torch.eye(3), A.t() @ bt / 8)
print("closed form", sol, torch.allclose(sol, w.data, atol=1e-4))

torch.manual_seed(13)
base = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
swa_model = AveragedModel(base)
ema_model = AveragedModel(base, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = optim.SGD(base.parameters(), lr=0.05)
swa_sched = SWALR(opt, swa_lr=0.01, anneal_epochs=3, anneal_strategy="cos")
for epoch in range(6):
    for xb, yb in loader:
        opt.zero_grad()
        F_loss = nn.functional.mse_loss(base(xb), yb)
        F_loss.backward()
        opt.step()
    swa_model.update_parameters(base)
    ema_model.update_parameters(base)
    swa_sched.step()
    print(
        f"epoch {epoch} lr {opt.param_groups[0]['lr']:.6f} n_averaged {swa_model.n_averaged.item()} loss {F_loss.item():.6f}"
    )
update_bn(loader, swa_model)
print("swa bn mean", swa_model.module[1].running_mean)
print("swa w0", swa_model.module[0].weight[0], "ema w0", ema_model.module[0].weight[0])
print([n for n, _ in swa_model.named_buffers()][:3])

# optimizer hooks and state inspection
p = nn.Parameter(torch.tensor([1.0, 2.0]))
o = optim.Adam([p], lr=0.1)
calls = []
h = o.register_step_post_hook(lambda opt, args, kwargs: calls.append(opt.state[p]["step"].item()))
for _ in range(3):
    o.zero_grad()
    (p**2).sum().backward()
    o.step()
print(calls, o.state[p]["exp_avg_sq"], o.state_dict()["state"][0]["step"])
h.remove()
o.zero_grad(set_to_none=False)
print(p.grad)
o.zero_grad()
print(p.grad)
sd = o.state_dict()
o2 = optim.Adam([nn.Parameter(torch.zeros(2))], lr=0.5)
o2.load_state_dict(sd)
print(o2.param_groups[0]["lr"], o2.state_dict()["state"][0]["exp_avg"])
try:
    optim.SGD([p], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    optim.Adam([p], betas=(1.5, 0.9))
except ValueError as e:
    print("ValueError:", e)
try:
    optim.SGD([p], lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError:", e)
print(optim.Adam([p], lr=1e-3))
