"""miniai style: accelerated SGD -- SGD, Momentum, RMSProp and Adam written by hand, checked against torch.optim; schedulers."""

import math

import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(5)
X = torch.randn(128, 10)
true_w = torch.randn(10, 3)
Y = (X @ true_w).argmax(1)


# the lesson stores optimizer state as attributes of the parameter itself
demo = nn.Parameter(torch.ones(3))
try:
    demo.grad_avg = torch.zeros_like(demo)
    print("attribute on a Parameter:", hasattr(demo, "grad_avg"), demo.grad_avg)
except AttributeError as e:
    print("AttributeError:", e)
# here we keep it in a dict keyed by the parameter instead


class SGD:
    def __init__(self, params, lr, wd=0.0):
        params = list(params)
        self.params, self.lr, self.wd, self.i = params, lr, wd, 0
        self.state = {}

    def step(self):
        with torch.no_grad():
            for p in self.params:
                self.reg_step(p)
                self.opt_step(p)
        self.i += 1

    def opt_step(self, p):
        p -= p.grad * self.lr

    def reg_step(self, p):
        if self.wd != 0:
            p *= 1 - self.lr * self.wd

    def zero_grad(self):
        for p in self.params:
            p.grad.data.zero_()


class Momentum(SGD):
    def __init__(self, params, lr, wd=0.0, mom=0.9):
        super().__init__(params, lr=lr, wd=wd)
        self.mom = mom

    def opt_step(self, p):
        st = self.state.setdefault(p, {})
        if "grad_avg" not in st:
            st["grad_avg"] = torch.zeros_like(p.grad)
        st["grad_avg"] = st["grad_avg"] * self.mom + p.grad * (1 - self.mom)
        p -= self.lr * st["grad_avg"]


class RMSProp(SGD):
    def __init__(self, params, lr, wd=0.0, sqr_mom=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.sqr_mom, self.eps = sqr_mom, eps

    def opt_step(self, p):
        st = self.state.setdefault(p, {})
        if "sqr_avg" not in st:
            st["sqr_avg"] = p.grad**2
        st["sqr_avg"] = st["sqr_avg"] * self.sqr_mom + p.grad**2 * (1 - self.sqr_mom)
        p -= self.lr * p.grad / (st["sqr_avg"].sqrt() + self.eps)


class Adam(SGD):
    def __init__(self, params, lr, wd=0.0, beta1=0.9, beta2=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps

    def opt_step(self, p):
        st = self.state.setdefault(p, {})
        if "avg" not in st:
            st["avg"] = torch.zeros_like(p.grad.data)
            st["sqr_avg"] = torch.zeros_like(p.grad.data)
        st["avg"] = self.beta1 * st["avg"] + (1 - self.beta1) * p.grad
        unbias_avg = st["avg"] / (1 - (self.beta1 ** (self.i + 1)))
        st["sqr_avg"] = self.beta2 * st["sqr_avg"] + (1 - self.beta2) * (p.grad**2)
        unbias_sqr_avg = st["sqr_avg"] / (1 - (self.beta2 ** (self.i + 1)))
        p -= self.lr * unbias_avg / (unbias_sqr_avg + self.eps).sqrt()


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))


def train(model, opt, steps=20, sched=None):
    losses = []
    for i in range(steps):
        xb, yb = X[(i * 32) % 128 : (i * 32) % 128 + 32], Y[(i * 32) % 128 : (i * 32) % 128 + 32]
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        opt.zero_grad()
        losses.append(loss.item())
    return losses


for name, cls, kw in [
    ("SGD", SGD, dict(lr=0.1)),
    ("SGD wd", SGD, dict(lr=0.1, wd=1e-2)),
    ("Momentum", Momentum, dict(lr=0.1)),
    ("RMSProp", RMSProp, dict(lr=3e-3)),
    ("Adam", Adam, dict(lr=3e-3)),
]:
    m = make_model()
    ls = train(m, cls(m.parameters(), **kw))
    print(f"{name:9} first {ls[0]:.4f} last {ls[-1]:.4f}")

# compare with torch.optim
m1, m2 = make_model(), make_model()
l1 = train(m1, SGD(m1.parameters(), lr=0.1, wd=0.0))
l2 = train(m2, optim.SGD(m2.parameters(), lr=0.1))
print("hand SGD == torch SGD:", all(math.isclose(a, b, rel_tol=1e-5) for a, b in zip(l1, l2)))
m1, m2 = make_model(), make_model()
l1 = train(m1, Adam(m1.parameters(), lr=1e-2, beta2=0.999, eps=1e-8))
l2 = train(m2, optim.Adam(m2.parameters(), lr=1e-2, eps=1e-8))
print("hand Adam vs torch Adam last losses:", f"{l1[-1]:.5f}", f"{l2[-1]:.5f}")

# torch.optim details
m = make_model()
opt = optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
print(opt)
train(m, opt, steps=2)
st = opt.state_dict()
print("state keys:", list(st.keys()), "n states:", len(st["state"]))
print("momentum_buffer shape:", st["state"][0]["momentum_buffer"].shape)
print("param_groups[0] params:", st["param_groups"][0]["params"])
opt2 = optim.SGD(make_model().parameters(), lr=0.5, momentum=0.9, nesterov=True, weight_decay=1e-4)
opt2.load_state_dict(st)
print("lr after load:", opt2.param_groups[0]["lr"])

# two param groups
m = make_model()
opt = optim.Adam(
    [{"params": m[0].parameters(), "lr": 1e-3}, {"params": m[2].parameters()}],
    lr=1e-2,
    betas=(0.9, 0.98),
)
print([(g["lr"], g["betas"], len(g["params"])) for g in opt.param_groups])
train(m, opt, steps=3)
s0 = opt.state[m[0].weight]
print("adam state:", sorted(s0.keys()), s0["step"], s0["exp_avg"].shape)
opt.add_param_group({"params": [nn.Parameter(torch.zeros(2))], "lr": 0.5})
print("n groups:", len(opt.param_groups), opt.param_groups[-1]["betas"])

for oc in [
    optim.RMSprop,
    optim.Adagrad,
    optim.AdamW,
    optim.Adamax,
    optim.NAdam,
    optim.RAdam,
    optim.Adadelta,
]:
    m = make_model()
    o = oc(m.parameters(), lr=1e-2)
    ls = train(m, o, steps=10)
    print(f"{oc.__name__:8} {ls[-1]:.5f}")

try:
    optim.SGD(make_model().parameters(), lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    optim.Adam(make_model().parameters(), betas=(1.5, 0.9))
except ValueError as e:
    print("ValueError:", e)


# schedulers
def lrs_for(sched_fn, steps=12, lr=0.1):
    p = nn.Parameter(torch.zeros(1))
    o = optim.SGD([p], lr=lr, momentum=0.9)
    s = sched_fn(o)
    out = []
    for _ in range(steps):
        out.append(round(o.param_groups[0]["lr"], 6))
        o.step()
        s.step()
    return out, s


print("StepLR       ", lrs_for(lambda o: optim.lr_scheduler.StepLR(o, step_size=4, gamma=0.5))[0])
print(
    "MultiStepLR  ",
    lrs_for(lambda o: optim.lr_scheduler.MultiStepLR(o, milestones=[3, 7], gamma=0.1))[0],
)
print(
    "Cosine       ",
    lrs_for(lambda o: optim.lr_scheduler.CosineAnnealingLR(o, T_max=12, eta_min=1e-3))[0],
)
print("LambdaLR     ", lrs_for(lambda o: optim.lr_scheduler.LambdaLR(o, lambda e: 0.9**e))[0])
print(
    "LinearLR     ",
    lrs_for(lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))[0],
)
print(
    "CosineWR     ", lrs_for(lambda o: optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=5))[0]
)
print(
    "OneCycle     ",
    lrs_for(lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=12))[0],
)
lr_list, s = lrs_for(
    lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=13, anneal_strategy="linear")
)
print("OneCycle lin ", lr_list, "momentum now:", round(s.optimizer.param_groups[0]["momentum"], 5))
print(
    "Cyclic       ",
    lrs_for(lambda o: optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3))[0],
)
seq = lambda o: optim.lr_scheduler.SequentialLR(
    o,
    [optim.lr_scheduler.LinearLR(o, 0.1, total_iters=3), optim.lr_scheduler.ExponentialLR(o, 0.8)],
    milestones=[3],
)
print("Sequential   ", lrs_for(seq)[0])
_, s = lrs_for(lambda o: optim.lr_scheduler.StepLR(o, step_size=4, gamma=0.5))
print("get_last_lr:", s.get_last_lr(), "last_epoch:", s.last_epoch)
print("sched state_dict keys:", sorted(s.state_dict().keys()))

p = nn.Parameter(torch.zeros(1))
o = optim.SGD([p], lr=1.0)
plateau = optim.lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1)
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]:
    plateau.step(val)
    print(f"val {val} -> lr {o.param_groups[0]['lr']}", end="; ")
print()


# the cosine one-cycle by hand
def sched_cos(start, end, pos):
    return start + (1 + math.cos(math.pi * (1 - pos))) * (end - start) / 2


def combine_scheds(pcts, scheds):
    pcts = torch.tensor([0] + list(pcts))
    pcts = torch.cumsum(pcts, 0)

    def _inner(pos):
        idx = (pos >= pcts).nonzero().max()
        actual_pos = (pos - pcts[idx]) / (pcts[idx + 1] - pcts[idx])
        return scheds[idx](actual_pos)

    return _inner


f = combine_scheds([0.3, 0.7], [lambda p: sched_cos(0.3, 0.6, p), lambda p: sched_cos(0.6, 0.2, p)])
print("combined:", [f"{float(f(torch.tensor(p))):.4f}" for p in torch.linspace(0, 0.99, 6)])


# the same momentum SGD as a torch.optim.Optimizer subclass (state in self.state, options in param_groups)
class MomentumSGD(optim.Optimizer):
    def __init__(self, params, lr=0.1, mom=0.9, wd=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, mom=mom, wd=wd)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group["wd"] != 0:
                    d_p = d_p.add(p, alpha=group["wd"])
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["grad_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                buf = state["grad_avg"]
                buf.mul_(group["mom"]).add_(d_p, alpha=1 - group["mom"])
                p.add_(buf, alpha=-group["lr"])
        return loss


m1, m2 = make_model(), make_model()
l1 = train(m1, Momentum(m1.parameters(), lr=0.1))
opt = MomentumSGD(m2.parameters(), lr=0.1)
print(opt)
l2 = train(m2, opt)
print(
    "hand Momentum == Optimizer subclass:",
    all(math.isclose(a, b, rel_tol=1e-5) for a, b in zip(l1, l2)),
)
print(
    "state of first param:",
    opt.state[m2[0].weight]["step"],
    opt.state[m2[0].weight]["grad_avg"].shape,
)
print("state_dict state keys:", list(opt.state_dict()["state"].keys()))
sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)
train(m2, opt, steps=5, sched=sched)
print("custom optimizer with scheduler, lr now:", round(opt.param_groups[0]["lr"], 6))
