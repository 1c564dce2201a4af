"""11-785 recitation style: autograd internals -- the graph, grad_fn chains, retain_grad, tensor and module hooks, custom Functions."""

import torch
import torch.nn as nn

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = c + a
e = d.log()
print(c, d, e)
print("leaves:", a.is_leaf, c.is_leaf, "requires_grad:", c.requires_grad)
print(e.grad_fn)
print(e.grad_fn.next_functions)
print(e.grad_fn.next_functions[0][0].next_functions)
print(type(e.grad_fn).__name__, e.grad_fn.name())


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(e.grad_fn)
c.retain_grad()
e.backward(retain_graph=True)
print("a.grad", a.grad, "b.grad", b.grad, "c.grad", c.grad, "d.grad", d.grad)
e.backward()
print("accumulated a.grad", a.grad)
try:
    e.backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:70])
a.grad.zero_()
b.grad = None
print(a.grad, b.grad)

# what a linear layer records
W = torch.randn(2, 3, requires_grad=True)
bias = torch.randn(2, requires_grad=True)
xin = torch.randn(4, 3)
out_lin = nn.functional.linear(xin, W, bias)
out_addmm = torch.addmm(bias, xin, W.t())
print(out_lin.grad_fn, out_addmm.grad_fn, torch.allclose(out_lin, out_addmm))
print([type(f).__name__ if f is not None else None for f, _ in out_addmm.grad_fn.next_functions])
sd, mu = torch.std_mean(out_addmm)
print("std_mean:", sd.grad_fn, mu.grad_fn)

# torch.autograd.grad, create_graph, higher-order derivatives
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = (x**3).sum()
(gx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx:", gx, gx.requires_grad)
(ggx,) = torch.autograd.grad(gx.sum(), x)
print("d2y/dx2:", ggx)
print(torch.autograd.functional.jacobian(lambda t: t**2, torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.hessian(lambda t: (t**3).sum(), torch.tensor([1.0, 2.0])))

# non-scalar outputs need a gradient argument
z = x * 2
try:
    z.backward()
except RuntimeError as err:
    print("RuntimeError:", err)
x.grad = None
z.backward(torch.ones_like(z))
print(x.grad)

# tensor hooks
seen = []
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
hw = w.register_hook(lambda g: seen.append(g.clone()))
h2 = w.register_hook(lambda g: g * 10)
(w * w).sum().backward()
print("hook saw:", seen, "final grad:", w.grad)
hw.remove()
h2.remove()
w.grad = None
(w * w).sum().backward()
print("after remove:", w.grad, len(seen))

# module hooks
activations, grads = {}, {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()

    return hook


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = grad_output[0].detach()

    return hook


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
handles = []
for name, m in net.named_children():
    handles.append(m.register_forward_hook(save_activation(name)))
    handles.append(m.register_full_backward_hook(save_grad(name)))
pre = net[0].register_forward_pre_hook(
    lambda m, inp: print("  pre-hook input shape:", inp[0].shape)
)
inp = torch.randn(2, 4)
out = net(inp)
out.sum().backward()
print({k: tuple(v.shape) for k, v in activations.items()})
print(activations["1"])
print("grad wrt relu output:\n", grads["1"])
print("dead units:", (activations["1"] == 0).sum().item())
for h in handles:
    h.remove()
pre.remove()
net(inp)
print("hooks removed, handles:", len(handles))


# custom autograd.Function
class ClampedExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, limit):
        ctx.save_for_backward(x)
        ctx.limit = limit
        return x.clamp(max=limit).exp()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad = grad_output * x.clamp(max=ctx.limit).exp() * (x <= ctx.limit)
        return grad, None


t = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)
r = ClampedExp.apply(t, 2.0)
print(r, r.grad_fn.__class__.__name__)
r.sum().backward()
print(t.grad)
t64 = torch.tensor([0.1, 0.5, 1.5], dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(lambda v: ClampedExp.apply(v, 2.0), (t64,)))

# detach, no_grad, inference_mode, set_grad_enabled, in-place on leaves
p = torch.ones(3, requires_grad=True)
with torch.no_grad():
    q = p * 2
print(q.requires_grad, p.detach().requires_grad, (p * 2).detach().grad_fn)
with torch.inference_mode():
    r = p * 3
print(r.requires_grad, torch.is_inference_mode_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (p + 1).requires_grad)
print(torch.is_grad_enabled())


@torch.no_grad()
def update(param, lr):
    param -= lr * param.grad


p.grad = torch.full((3,), 0.5)
update(p, 0.1)
print(p, p.is_leaf)
try:
    p += 1
except RuntimeError as err:
    print("RuntimeError:", err)

# the version counter catches a modified saved tensor
s = torch.tensor([1.0, 2.0], requires_grad=True)
u = s.sigmoid()
v = u * 2
print("version before:", u._version)
u.mul_(3)
print("version after:", u._version)
try:
    v.sum().backward()
    (u**2).sum().backward()
    print("ok")
except RuntimeError as err:
    print("RuntimeError:", str(err)[:90])
u2 = s.exp()
u2.add_(1)
try:
    u2.sum().backward()
    print("exp then add_: ok", s.grad)
except RuntimeError as err:
    print("RuntimeError:", str(err)[:90])
print(torch.autograd.grad((s * s).sum(), s, retain_graph=False))
x = torch.tensor(1.0, requires_grad=True)
y = x * 2
print(
    torch.autograd.grad(y, [x], allow_unused=True),
    torch.autograd.grad(x * 1, [x, torch.ones(1, requires_grad=True)], allow_unused=True),
)
