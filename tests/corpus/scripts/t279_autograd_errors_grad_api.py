"""More autograd: torch.autograd.grad, higher order, retain_graph, the common error messages."""

import torch
import torch.nn as nn

torch.manual_seed(1)

x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx:", dy)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print("d2y/dx2:", d2y)
(d3y,) = torch.autograd.grad(d2y, x)
print("d3y/dx3:", d3y)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor(1.0, requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, [a, b], retain_graph=True)
print("grads:", ga, gb)
print(
    "grad_outputs:",
    torch.autograd.grad(a * b, a, grad_outputs=torch.tensor([1.0, 0.5]), retain_graph=True),
)
try:
    torch.autograd.grad(out, [a, c], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("allow_unused:", torch.autograd.grad(out, [a, c], allow_unused=True, retain_graph=True))
print("materialize:", torch.autograd.grad(out, [a, c], allow_unused=True, materialize_grads=True))

# backward twice
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = (p.exp() * p).sum()
q.backward(retain_graph=True)
print("first:", p.grad)
q.backward()
print("second (accumulated):", p.grad)
try:
    q.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:200])

# non-scalar output
try:
    (p * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
(p * 2).backward(torch.ones(2))
print("with gradient arg:", p.grad)
try:
    torch.tensor(1.0).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# in-place errors
leaf = torch.ones(3, requires_grad=True)
try:
    leaf += 1
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    leaf += 1
print("in-place under no_grad ok:", leaf, leaf._version)
s = torch.ones(3, requires_grad=True)
u = s.sigmoid()
u.mul_(2)
try:
    u.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
e1 = torch.ones(3, requires_grad=True)
e2 = e1 * 2
e3 = e2**2
print("version before:", e2._version)
e2.add_(1)
print("version after:", e2._version)
try:
    e3.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
z = torch.zeros(3, requires_grad=True) * 1.0
z[1] = 5.0
print("index assign on non-leaf:", z, z.grad_fn)
z.sum().backward()

# gradient of common functions checked against formulas
t = torch.linspace(-2, 2, 5, requires_grad=True)
for name, fn, df in [
    ("relu", torch.relu, lambda v: (v > 0).float()),
    ("sigmoid", torch.sigmoid, lambda v: torch.sigmoid(v) * (1 - torch.sigmoid(v))),
    ("tanh", torch.tanh, lambda v: 1 - torch.tanh(v) ** 2),
    ("abs", torch.abs, torch.sign),
    ("softplus", nn.functional.softplus, torch.sigmoid),
    ("gelu", nn.functional.gelu, None),
    ("clamp", lambda v: v.clamp(-1, 1), lambda v: ((v >= -1) & (v <= 1)).float()),
]:
    (g,) = torch.autograd.grad(fn(t).sum(), t)
    ok = "" if df is None else torch.allclose(g, df(t.detach()), atol=1e-6)
    print(f"{name:8s} grad {g} {ok}")


# Jacobian / Hessian via torch.autograd.functional
def f(v):
    return torch.stack([v[0] ** 2 * v[1], 5 * v[0] + torch.sin(v[1])])


inp = torch.tensor([1.0, 2.0])
print("jacobian:", torch.autograd.functional.jacobian(f, inp))
print("hessian:", torch.autograd.functional.hessian(lambda v: (v**3).sum() + v[0] * v[1], inp))
print("vjp:", torch.autograd.functional.vjp(f, inp, torch.tensor([1.0, 1.0])))
print("jvp:", torch.autograd.functional.jvp(f, inp, torch.tensor([1.0, 0.0])))

# module hooks for debugging gradient flow
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1))
seen = []
model[0].register_full_backward_hook(
    lambda m, gi, go: seen.append(
        ("lin0", [g.shape if g is not None else None for g in gi], go[0].shape)
    )
)
model[2].register_full_backward_hook(
    lambda m, gi, go: seen.append(
        ("lin2", [g.shape if g is not None else None for g in gi], go[0].shape)
    )
)
model[1].register_forward_pre_hook(lambda m, inp: print("  pre-hook input shape", inp[0].shape))
model(torch.randn(5, 4)).mean().backward()
for item in seen:
    print(" ", item)
print("grad norms:", {n: round(p.grad.norm().item(), 6) for n, p in model.named_parameters()})

# anomaly detection finds the NaN
with torch.autograd.set_detect_anomaly(True):
    s = torch.tensor([0.0, 1.0], requires_grad=True)
    r = torch.sqrt(s)
    try:
        (r * 0).sum().backward()
        print("sqrt(0) grad:", s.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
print("detect_anomaly enabled now:", torch.is_anomaly_enabled())


# custom autograd Function
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


k = torch.tensor([0.0, 1.0], requires_grad=True)
r = Exp.apply(k)
print("custom:", r, type(r.grad_fn).__name__)
r.sum().backward()
print("custom grad:", k.grad)
print(
    "gradcheck:",
    torch.autograd.gradcheck(
        Exp.apply, (torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True),)
    ),
)

# a hook must keep the gradient's shape
c = torch.ones(2, requires_grad=True)
c.register_hook(lambda g: torch.ones(5))
try:
    (c * 1).sum().backward()
    print("c.grad:", c.grad)
except RuntimeError as e:
    print("RuntimeError:", e)


# hooks for saved tensors (what autograd keeps between forward and backward)
def pack_hook(t):
    print("  packing", tuple(t.shape), t.dtype)
    return t


def unpack_hook(t):
    print("  unpacking", tuple(t.shape))
    return t


w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    out = (w * w.exp()).sum()
out.backward()
print("grad with saved-tensor hooks:", w.grad)
