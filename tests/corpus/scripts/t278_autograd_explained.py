""" "PyTorch autograd explained": leaves, retain_grad, hooks, accumulation, zero_grad, detach/no_grad/inference_mode."""

import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
print("Q:", Q)
print("Q.grad_fn:", Q.grad_fn, Q.grad_fn.name())
print("next_functions:", Q.grad_fn.next_functions)
external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)
print("a.grad:", a.grad, "== 9a^2:", 9 * a**2 == a.grad)
print("b.grad:", b.grad, "== -2b:", -2 * b == b.grad)

# leaves and non-leaves
x = torch.randn(3, requires_grad=True)
y = x * 2
z = y.mean()
print("is_leaf:", x.is_leaf, y.is_leaf, z.is_leaf)
print("requires_grad:", x.requires_grad, y.requires_grad)
print("grad_fn:", x.grad_fn, y.grad_fn, z.grad_fn)
c = torch.randn(3)
print("plain tensor is_leaf:", c.is_leaf, c.requires_grad, (c * 2).is_leaf)
y.retain_grad()
z.backward()
print("x.grad:", x.grad, "y.grad (retained):", y.grad, "retains_grad:", y.retains_grad)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    w2 = x * 3
    _ = w2.grad
    print("non-leaf .grad:", _, "| warning:", str(w[0].message)[:90] if w else None)

# gradient accumulation
w = torch.tensor(1.0, requires_grad=True)
for step in range(3):
    loss = (w * 3) ** 2
    loss.backward()
    print(f"step {step}: w.grad = {w.grad}")
w.grad.zero_()
print("after zero_():", w.grad)
w.grad = None
print("after = None:", w.grad)

# accumulating gradients over micro-batches equals one big batch
lin = nn.Linear(4, 1)
data, target = torch.randn(8, 4), torch.randn(8, 1)
lin.zero_grad()
nn.functional.mse_loss(lin(data), target).backward()
full = lin.weight.grad.clone()
lin.zero_grad()
for chunk_x, chunk_y in zip(data.chunk(4), target.chunk(4)):
    (nn.functional.mse_loss(lin(chunk_x), chunk_y) / 4).backward()
print("accumulated == full batch:", torch.allclose(full, lin.weight.grad, atol=1e-6))
print("full:", full)

# zero_grad set_to_none
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
opt.zero_grad(set_to_none=False)
print("set_to_none=False:", lin.weight.grad)
opt.zero_grad()
print("default (set_to_none=True):", lin.weight.grad, lin.bias.grad)
lin.zero_grad()
print("module.zero_grad:", lin.weight.grad)

# tensor hooks
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = v.register_hook(lambda g: print("  hook sees grad:", g))
(v**2).sum().backward()
h.remove()
v.grad = None
h2 = v.register_hook(lambda g: g * 10)
(v**2).sum().backward()
print("grad doubled by hook x10:", v.grad)
h2.remove()
mid = v * 2
mid.register_hook(lambda g: print("  intermediate hook:", g))
mid.sum().backward()
print("v.grad accumulated:", v.grad)
post = torch.tensor(2.0, requires_grad=True)
post.register_post_accumulate_grad_hook(lambda p: print("  post-accumulate, grad now", p.grad))
(post * 5).backward()

# detach vs no_grad vs inference_mode
x = torch.ones(2, requires_grad=True)
d = x.detach()
print("detach:", d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 5.0
print("detach shares storage:", x)
with torch.no_grad():
    n = x * 2
print("no_grad:", n.requires_grad, n.grad_fn, torch.is_grad_enabled())
with torch.inference_mode():
    inf = x * 2
    print("inside inference_mode:", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print("inference:", inf.requires_grad, inf.is_inference(), n.is_inference())
try:
    (inf * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.set_grad_enabled(False):
    print("set_grad_enabled(False):", (x * 2).requires_grad)
torch.set_grad_enabled(True)


@torch.no_grad()
def evaluate(t):
    return t * 3


print("decorated no_grad:", evaluate(x).requires_grad)
with torch.enable_grad():
    print("enable_grad:", (x * 2).requires_grad)

# requires_grad_ and freezing
t = torch.zeros(3)
t.requires_grad_()
print("requires_grad_():", t.requires_grad, t.is_leaf)
net = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
net[0].requires_grad_(False)
print("frozen:", [p.requires_grad for p in net.parameters()])
net(torch.ones(1, 3)).sum().backward()
print("frozen grads:", net[0].weight.grad, net[1].weight.grad is not None)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
nonleaf = torch.ones(2, requires_grad=True) * 2
try:
    nonleaf.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)

# setting the flag as an attribute on a non-leaf
try:
    nonleaf.requires_grad = False
    print("attribute set:", nonleaf.requires_grad)
except RuntimeError as e:
    print("RuntimeError:", e)

# retain_grad and a hook that changes the gradient: which value lands in .grad?
base = torch.ones(2, requires_grad=True)
mid = base * 1
mid.retain_grad()
mid.register_hook(lambda g: g * 2)
mid.sum().backward()
print("mid.grad:", mid.grad, "base.grad:", base.grad)

# hooks on the graph node itself
b = torch.ones(2, requires_grad=True)
z = b * 3
z.grad_fn.register_hook(
    lambda grad_inputs, grad_outputs: print(
        "  node hook: inputs", grad_inputs, "outputs", grad_outputs
    )
)
z.grad_fn.register_prehook(lambda grad_outputs: print("  node prehook:", grad_outputs))
z.sum().backward()

# what the nodes saved for backward
q = torch.tensor([2.0, 3.0], requires_grad=True)
sq = q**2
print("pow saved self:", sq.grad_fn._saved_self)
for attr in ["_saved_exponent"]:
    print(attr, getattr(sq.grad_fn, attr, "missing"))
e = q.exp()
print("exp saved result:", e.grad_fn._saved_result, e.grad_fn._saved_result.equal(e))
m5 = q * torch.tensor([5.0, 5.0])
print(
    "mul saved self (other needs no grad):",
    m5.grad_fn._saved_self,
    "saved other:",
    m5.grad_fn._saved_other,
)
sm = q.softmax(0)
print("softmax saved dim:", getattr(sm.grad_fn, "_saved_dim", "missing"))
