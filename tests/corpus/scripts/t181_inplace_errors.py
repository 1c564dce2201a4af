# Common forum questions: in-place operations and autograd
import torch

torch.manual_seed(0)
# 1. in-place on a leaf that requires grad
w = torch.randn(3, requires_grad=True)
try:
    w += 1
except RuntimeError as e:
    print("leaf in-place:", e)
with torch.no_grad():
    w += 1
print("in-place under no_grad ok, w:", w)

# 2. modifying a tensor saved for backward
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(3)  # sigmoid saved its output -> error at backward
try:
    c.sum().backward()
except RuntimeError as e:
    print("saved tensor modified:", str(e)[:80])

# 3. version counter
t = torch.zeros(2)
print("version:", t._version)
t.add_(1)
t[0] = 5
print("version after two in-place ops:", t._version)

# 4. the fix: use out-of-place op
a.grad = None
b = a.sigmoid()
c = b * 2
b2 = b * 3
(c.sum() + b2.sum()).backward()
print("a.grad:", a.grad)

# 5. in-place relu on an intermediate that is fine
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
h = x * 2
h.relu_()
h.sum().backward()
print("x.grad after relu_:", x.grad)

# 6. exp saves its output, in-place after exp
x.grad = None
e = x.exp()
f = e.clone()
f.add_(1)
(f * e).sum().backward()
print("x.grad with clone:", x.grad)

# 7. .data trick vs detach
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * p
p.data.mul_(10)
print("p after .data mul:", p)
q.sum().backward()
print("p.grad uses modified values silently:", p.grad)

# 8. optimizer step is in-place under no_grad
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
before = model.weight.detach().clone()
loss = model(torch.ones(1, 2)).pow(2).sum()
loss.backward()
opt.step()
print("weight changed by:", (model.weight - before).detach())
print("weight is_leaf:", model.weight.is_leaf)
