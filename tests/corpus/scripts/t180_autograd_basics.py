# Autograd basics: requires_grad, grad_fn, retain_graph, detach, no_grad, inference_mode,
# accumulation
import torch

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
z = y.sum() * 3
print("x:", x)
print("y:", y)
print("z:", z)
print("is_leaf:", x.is_leaf, y.is_leaf, "grad_fn:", y.grad_fn.name() if y.grad_fn else None)
z.backward(retain_graph=True)
print("x.grad after first backward:", x.grad)
z.backward()
print("x.grad after second backward (accumulated):", x.grad)
try:
    z.backward()
except RuntimeError as e:
    print("third backward fails:", str(e).split(".")[0])
x.grad.zero_()
print("zeroed:", x.grad)

# detach
w = torch.tensor(2.0, requires_grad=True)
a = w * 3
b = a.detach()
print("b.requires_grad:", b.requires_grad, "b.grad_fn:", b.grad_fn)
c = a * b
c.backward()
print("w.grad (b treated as constant):", w.grad)

# requires_grad_
p = torch.ones(2)
print("p.requires_grad before:", p.requires_grad)
p.requires_grad_()
q = (p * 5).sum()
q.backward()
print("p.grad:", p.grad)

# no_grad vs inference_mode
with torch.no_grad():
    r = x * 2
print("no_grad result requires_grad:", r.requires_grad)
with torch.inference_mode():
    s = x * 2
print("inference_mode result requires_grad:", s.requires_grad)
print("torch.is_grad_enabled():", torch.is_grad_enabled())

# grad accumulation over micro-batches
torch.manual_seed(0)
lin = torch.nn.Linear(3, 1)
data = torch.randn(8, 3)
target = torch.randn(8, 1)
lin.zero_grad()
full = torch.nn.functional.mse_loss(lin(data), target)
full.backward()
g_full = lin.weight.grad.clone()
lin.zero_grad()
for chunk_x, chunk_y in zip(data.split(4), target.split(4)):
    loss = torch.nn.functional.mse_loss(lin(chunk_x), chunk_y) / 2
    loss.backward()
print("full-batch grad:", g_full)
print("accumulated grad:", lin.weight.grad)
print("match:", torch.allclose(g_full, lin.weight.grad, atol=1e-6))

# non-scalar backward needs gradient argument
v = torch.tensor([1.0, 2.0], requires_grad=True)
out = v * 4
try:
    out.backward()
except RuntimeError as e:
    print("non-scalar:", str(e))
out.backward(torch.tensor([1.0, 0.5]))
print("v.grad with gradient arg:", v.grad)
