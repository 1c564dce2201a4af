"""NYU DL style autograd tutorial: graphs, grad_fn, backward with vectors, higher order, no_grad."""

import torch

torch.manual_seed(0)

x = torch.arange(4, dtype=torch.float).view(2, 2).requires_grad_()
print(x)
y = x - 2
print(y)
print(y.grad_fn)
print(x.grad_fn)
print(y.grad_fn.next_functions[0][0])
print(y.grad_fn.next_functions[0][0].variable)
z = y * y * 3
a = z.mean()
print(z)
print(a)
print(a.grad_fn, a.grad_fn.next_functions)
a.backward()
print(x.grad)
print(x.is_leaf, y.is_leaf, y.requires_grad)
try:
    print(y.grad)
except Exception as e:
    print(type(e).__name__, e)

# gradient with a vector argument
x = torch.randn(3, requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 1000:
    y = y * 2
    i += 1
print(i, y)
gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)

try:
    (x * 3).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# inference
n = 3
x = torch.arange(1.0, n + 1, requires_grad=True)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep="\n")
x = torch.arange(1.0, n + 1)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep="\n")
with torch.no_grad():
    z = w @ x
print(z, z.requires_grad)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# backward twice
p = torch.tensor([2.0, 3.0], requires_grad=True)
q = (p**3).sum()
q.backward(retain_graph=True)
print(p.grad)
q.backward()
print(p.grad)
try:
    q.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
r = (p.exp() * p).sum()
r.backward()
try:
    r.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

# torch.autograd.grad and higher order derivatives
t = torch.tensor(1.5, requires_grad=True)
f = t**4 - 3 * t**2 + torch.sin(t)
(df,) = torch.autograd.grad(f, t, create_graph=True)
(d2f,) = torch.autograd.grad(df, t, create_graph=True)
(d3f,) = torch.autograd.grad(d2f, t)
print(f.item(), df.item(), d2f.item(), d3f.item())
print(df, d2f, d3f)

u = torch.randn(4, requires_grad=True)
v = torch.randn(4, requires_grad=True)
out = (u * v).sum() + (u**2).sum()
gu, gv = torch.autograd.grad(out, [u, v])
print(torch.allclose(gu, v + 2 * u), torch.allclose(gv, u))
print(torch.autograd.grad((u * 2).sum(), [u, v], allow_unused=True))
try:
    torch.autograd.grad((u * 2).sum(), [u, v])
except RuntimeError as e:
    print("RuntimeError:", e)


# Jacobian and Hessian helpers
def fn(xx):
    return torch.stack([xx[0] * xx[1], xx[0].exp(), xx[1] ** 2])


J = torch.autograd.functional.jacobian(fn, torch.tensor([1.0, 2.0]))
print(J)
Hs = torch.autograd.functional.hessian(
    lambda xx: (xx**3).sum() + xx[0] * xx[1], torch.tensor([1.0, 2.0])
)
print(Hs)

# detach, requires_grad_, hooks, retain_grad
k = torch.ones(3, requires_grad=True)
h = k * 4
h.retain_grad()
d = h.detach()
print(d.requires_grad, d.grad_fn, h.grad_fn.name())
handle = k.register_hook(lambda g: g * 10)
(h * h).sum().backward()
print(h.grad, k.grad)
handle.remove()
k.grad.zero_()
(k * 2).sum().backward()
print(k.grad)
try:
    k.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    k.add_(1)
print(k, k.requires_grad)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (k * 2).requires_grad)
torch.set_grad_enabled(True)


@torch.no_grad()
def evaluate(v):
    return v * 2


print(evaluate(k).requires_grad)
with torch.enable_grad():
    print((k * 1).requires_grad)
with torch.inference_mode():
    inf = k * 2
print(inf.requires_grad, inf.is_inference())

# in-place on a leaf that needs grad inside a graph
lf = torch.randn(3, requires_grad=True)
sq = lf.sigmoid()
sq.mul_(2)
try:
    sq.sum().backward()
except RuntimeError as ex:
    print("RuntimeError:", ex)
th = lf.tanh() * 1
th.mul_(2)
th.sum().backward()
print(lf.grad)
print(th._version, lf._version)
e = lf.exp()
e2 = e * 1
e.add_(1)
try:
    (e2 * e).sum().backward()
    print(lf.grad)
except RuntimeError as ex:
    print("RuntimeError:", ex)
ee = lf.exp()
out2 = ee.sum()
ee.add_(1)
try:
    (ee * lf.exp()).sum().backward()
    print("ok", lf.grad)
except RuntimeError as ex:
    print("RuntimeError:", str(ex)[:200])

print("== more autograd corners ==")
torch.manual_seed(3)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c1 = (a * b).sum()
c2 = (a**2).sum()
torch.autograd.backward([c1, c2], grad_tensors=[torch.tensor(1.0), torch.tensor(0.5)])
print(torch.allclose(a.grad, b + a), torch.allclose(b.grad, a))
m = a * b
print(m.grad_fn._saved_self is not None, torch.equal(m.grad_fn._saved_other, b))
print(a.exp().grad_fn._saved_result)
(g,) = torch.autograd.grad(m, a, grad_outputs=torch.ones(3))
print(torch.equal(g, b))
try:
    torch.zeros(3, dtype=torch.long, requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.detach().is_leaf, a.detach().requires_grad, (a * 2).detach().is_leaf)
from torch.autograd import Variable

v = Variable(torch.ones(2), requires_grad=True)
print(type(v).__name__, v.requires_grad, v)

acc = []
p = torch.ones(2, requires_grad=True)
hh = p.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.clone()))
(p * 3).sum().backward()
(p * 3).sum().backward()
print(acc)
hh.remove()

with torch.autograd.set_detect_anomaly(True):
    z = torch.tensor([0.0], requires_grad=True)
    try:
        (z.sqrt() * 0).sum().backward()
        print(z.grad)
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:80])

nodes = []


def walk(fn, depth=0):
    if fn is None:
        return
    nodes.append("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


xw = torch.randn(2, 2, requires_grad=True)
loss = (torch.relu(xw @ xw.t()) + 1).mean()
walk(loss.grad_fn)
print("\n".join(nodes))
print(loss.grad_fn.name())
leaf_acc = (
    loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[0][0]
)
print(type(leaf_acc).__name__, leaf_acc.variable is xw)
xw2 = xw.clone()
print(xw2.grad_fn, xw.clone().detach_().requires_grad, xw2.is_leaf)
y1 = xw.sum() * 2
y1.backward(create_graph=True)
print(xw.grad, xw.grad.requires_grad)
xw.grad = None
try:
    xw.grad = torch.zeros(3)
except RuntimeError as e:
    print("RuntimeError:", e)

print("== saved tensor hooks ==")
packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t


def unpack(t):
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    q = torch.randn(2, 3, requires_grad=True)
    r = (q.sin() * q).sum()
    print(len(packed))
    r2 = (q * 2.0).sum() + (q @ torch.ones(3, 2)).sum() + (q / torch.full((2, 3), 2.0)).sum()
    print(len(packed))
r.backward()
r2.backward()
print(packed)
print(loss.grad_fn.metadata)
