"""MAML on sinusoid regression: functional forward with explicit parameter lists,
inner-loop steps via torch.autograd.grad(create_graph=True), second-order meta-gradients."""

import math
import random
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

# --- warm-up: higher-order derivatives
x = torch.tensor(2.0, requires_grad=True)
y = x**3 + torch.sin(x)
(dy,) = torch.autograd.grad(y, x, create_graph=True)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
(d3y,) = torch.autograd.grad(d2y, x)
print("y", y.item(), "dy", dy, "d2y", d2y, "d3y", d3y)
print("expected", 3 * 4 + math.cos(2), 6 * 2 - math.sin(2), 6 - math.cos(2))

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, [a, b], retain_graph=True)
print("grads", ga, gb)
c = torch.tensor(1.0, requires_grad=True)
g = torch.autograd.grad(out, [a, c], allow_unused=True, retain_graph=True)
print("allow_unused", g)
g = torch.autograd.grad(out, [a, c], allow_unused=True, materialize_grads=True, retain_graph=True)
print("materialize_grads", g)
try:
    torch.autograd.grad(out, [c])
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])


# --- task distribution
def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0, math.pi)
    return amp, phase


def sample_data(task, k):
    amp, phase = task
    x = torch.rand(k, 1) * 10 - 5
    return x, amp * torch.sin(x + phase)


class SineNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            OrderedDict(
                [
                    ("l1", nn.Linear(1, 40)),
                    ("relu1", nn.ReLU()),
                    ("l2", nn.Linear(40, 40)),
                    ("relu2", nn.ReLU()),
                    ("l3", nn.Linear(40, 1)),
                ]
            )
        )

    def forward(self, x, params=None):
        if params is None:
            return self.net(x)
        h = F.relu(F.linear(x, params["net.l1.weight"], params["net.l1.bias"]))
        h = F.relu(F.linear(h, params["net.l2.weight"], params["net.l2.bias"]))
        return F.linear(h, params["net.l3.weight"], params["net.l3.bias"])


model = SineNet()
print(model)
params = OrderedDict(model.named_parameters())
print(list(params.keys()))
xq = torch.linspace(-5, 5, 5).unsqueeze(1)
print("functional == module:", torch.allclose(model(xq), model(xq, params)))

inner_lr, meta_lr, inner_steps = 0.01, 0.001, 1
meta_opt = torch.optim.Adam(model.parameters(), lr=meta_lr)
K, meta_batch = 10, 4


def adapt(model, x, y, steps, first_order=False):
    fast = OrderedDict(model.named_parameters())
    for _ in range(steps):
        loss = F.mse_loss(model(x, fast), y)
        grads = torch.autograd.grad(loss, fast.values(), create_graph=not first_order)
        fast = OrderedDict((name, p - inner_lr * g) for (name, p), g in zip(fast.items(), grads))
    return fast


for it in range(301):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for _ in range(meta_batch):
        task = sample_task()
        xs, ys = sample_data(task, K)
        xq, yq = sample_data(task, K)
        fast = adapt(model, xs, ys, inner_steps)
        meta_loss = meta_loss + F.mse_loss(model(xq, fast), yq)
    meta_loss = meta_loss / meta_batch
    meta_loss.backward()
    meta_opt.step()
    if it % 50 == 0:
        print(
            f"meta-iter {it:3d} meta-loss {meta_loss.item():.4f}  grad_fn {type(meta_loss.grad_fn).__name__}"
        )

# second-order term is present: meta-gradient differs from first-order approximation
task = (2.0, 0.5)
xs, ys = sample_data(task, K)
xq, yq = sample_data(task, K)
fast = adapt(model, xs, ys, 1)
g2 = torch.autograd.grad(F.mse_loss(model(xq, fast), yq), list(model.parameters()))
fast1 = adapt(model, xs, ys, 1, first_order=True)
g1 = torch.autograd.grad(F.mse_loss(model(xq, fast1), yq), list(model.parameters()))
print(
    "fast weight requires grad", fast["net.l1.weight"].requires_grad, fast["net.l1.weight"].grad_fn
)
print("first-order weight grad_fn", fast1["net.l1.weight"].grad_fn)
for (name, _), a_, b_ in zip(model.named_parameters(), g2, g1):
    print(
        f"{name:14s} |second-order| {a_.norm().item():.5f} |first-order| {b_.norm().item():.5f} diff {(a_ - b_).norm().item():.6f}"
    )

# evaluation: adaptation on a new task
task = (3.0, 1.0)
xs, ys = sample_data(task, K)
x_test = torch.linspace(-5, 5, 50).unsqueeze(1)
y_test = task[0] * torch.sin(x_test + task[1])
with torch.no_grad():
    pre = F.mse_loss(model(x_test), y_test).item()
print("test mse before adaptation %.4f" % pre)
fast = OrderedDict(model.named_parameters())
for step in range(5):
    loss = F.mse_loss(model(xs, fast), ys)
    grads = torch.autograd.grad(loss, list(fast.values()))
    fast = OrderedDict((n, (p - inner_lr * g).detach()) for (n, p), g in zip(fast.items(), grads))
    for p in fast.values():
        p.requires_grad_(True)
    with torch.no_grad():
        print(
            "step %d support loss %.4f test mse %.4f"
            % (step, loss.item(), F.mse_loss(model(x_test, fast), y_test).item())
        )

# Hessian-vector product with double backward
w = torch.randn(3, requires_grad=True)
A = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
f = 0.5 * w @ A @ w + w.pow(4).sum()
(gw,) = torch.autograd.grad(f, w, create_graph=True)
v = torch.tensor([1.0, 0.0, -1.0])
(hv,) = torch.autograd.grad(gw, w, grad_outputs=v)
print("Hv autograd", hv)
print("Hv exact   ", (A + torch.diag(12 * w.detach() ** 2)) @ v)
H = torch.autograd.functional.hessian(lambda w: 0.5 * w @ A @ w + w.pow(4).sum(), w.detach())
print("hessian\n", H)
print(torch.autograd.functional.vhp(lambda w: 0.5 * w @ A @ w + w.pow(4).sum(), w.detach(), v))
