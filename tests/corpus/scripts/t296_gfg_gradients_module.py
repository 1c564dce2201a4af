"""GeeksforGeeks style: "How to compute gradients in PyTorch" + "nn.Module basics" """

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)

# --- scalar gradients ---
x = torch.tensor(3.0, requires_grad=True)
y = x**3 + 2 * x**2 - 5 * x + 1
print("y:", y)
print("y.grad_fn:", y.grad_fn)
print("is_leaf x, y:", x.is_leaf, y.is_leaf)
y.backward()
print("dy/dx at 3:", x.grad)

# gradients accumulate
y2 = x**2
y2.backward()
print("accumulated grad:", x.grad)
x.grad.zero_()
print("after zero_:", x.grad)

# --- vector gradients ---
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (w * w).sum()
out.backward()
print("d(sum w^2)/dw:", w.grad)

v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
z = v.exp()
z.backward(torch.ones_like(z))
print("grad of exp with ones:", v.grad)

try:
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    (q * 2).backward()
except RuntimeError as e:
    print("non-scalar backward error:", e)

# --- autograd.grad, retain_graph, create_graph ---
a = torch.tensor(2.0, requires_grad=True)
f = a**4
(g,) = torch.autograd.grad(f, a, create_graph=True)
print("first derivative:", g)
(h,) = torch.autograd.grad(g, a)
print("second derivative:", h)

b = torch.tensor([1.0, 2.0], requires_grad=True)
c = (b**2).sum()
c.backward(retain_graph=True)
c.backward()
print("retain_graph twice:", b.grad)
try:
    d = (b * 3).sum()
    d.backward()
    d.backward()
except RuntimeError as e:
    print("second backward error:", str(e).split(".")[0])

# --- detach, no_grad, requires_grad_ ---
m = torch.randn(3, requires_grad=True)
n = m.detach()
print("detached requires_grad:", n.requires_grad, "shares data:", n.data_ptr() == m.data_ptr())
with torch.no_grad():
    k = m * 2
print("under no_grad:", k.requires_grad, torch.is_grad_enabled())
t = torch.ones(2)
t.requires_grad_()
print("requires_grad_():", t.requires_grad)
try:
    m.numpy()
except RuntimeError as e:
    print("numpy on grad tensor:", e)
print("detach().numpy():", m.detach().numpy().shape)

# --- jacobian via loop ---
inp = torch.tensor([1.0, 2.0], requires_grad=True)
outv = torch.stack([inp[0] * inp[1], inp[0] ** 2 + inp[1]])
rows = []
for i in range(2):
    (gi,) = torch.autograd.grad(outv[i], inp, retain_graph=True)
    rows.append(gi)
print("jacobian rows:", torch.stack(rows))
print(
    "autograd.functional.jacobian:",
    torch.autograd.functional.jacobian(
        lambda u: torch.stack([u[0] * u[1], u[0] ** 2 + u[1]]), torch.tensor([1.0, 2.0])
    ),
)

# --- hooks ---
hv = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
hv.register_hook(lambda grad: print("  hook saw grad:", grad) or grad * 2)
(hv * 3).sum().backward()
print("grad after doubling hook:", hv.grad)

mid_grads = {}
p = torch.tensor([2.0, 4.0], requires_grad=True)
mid = p.pow(2)
mid.retain_grad()
mid.sum().backward()
print("retain_grad on non-leaf:", mid.grad, "leaf grad:", p.grad)


# --- nn.Module basics ---
class TinyNet(nn.Module):
    def __init__(self, in_features=4, hidden=8, out_features=3):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(hidden, out_features)
        self.register_buffer("running_count", torch.zeros(1))

    def forward(self, x):
        self.running_count += 1
        return self.fc2(self.act(self.fc1(x)))


net = TinyNet()
print(net)
for name, param in net.named_parameters():
    print(f"{name:10s} {tuple(param.shape)} requires_grad={param.requires_grad}")
print("num params:", sum(p.numel() for p in net.parameters()))
print("buffers:", [n for n, _ in net.named_buffers()])
print("state_dict keys:", list(net.state_dict().keys()))
print("children:", [type(c).__name__ for c in net.children()])
print("modules count:", len(list(net.modules())))
print("fc1.weight[0]:", net.fc1.weight[0])
print("fc1.bias:", net.fc1.bias)

xb = torch.randn(5, 4)
logits = net(xb)
print("logits:", logits)
print("softmax:", F.softmax(logits, dim=1))
print("running_count:", net.running_count)
target = torch.tensor([0, 2, 1, 0, 1])
loss = F.cross_entropy(logits, target)
print("loss:", loss)
net.zero_grad()
loss.backward()
print("fc2.bias.grad:", net.fc2.bias.grad)
print("fc1.weight.grad norm:", net.fc1.weight.grad.norm())

# training / eval mode
drop_net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
print("training flag:", drop_net.training)
drop_net.eval()
print("after eval():", drop_net.training, drop_net[1].training)
drop_net.train()
print("after train():", drop_net.training)

# freeze params
for prm in net.fc1.parameters():
    prm.requires_grad = False
print("trainable:", [n for n, p in net.named_parameters() if p.requires_grad])
net.requires_grad_(True)
print("all trainable again:", all(p.requires_grad for p in net.parameters()))

# Sequential / ModuleList / ModuleDict
seq = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
print(seq)
print("seq[0]:", seq[0], "len:", len(seq))
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
print("ModuleList len:", len(ml))
md = nn.ModuleDict({"enc": nn.Linear(2, 3), "dec": nn.Linear(3, 2)})
print(md)
print("dict keys:", list(md.keys()))
from collections import OrderedDict

od = nn.Sequential(OrderedDict([("lin", nn.Linear(2, 2)), ("act", nn.Sigmoid())]))
print(od)
print("od.lin:", od.lin)


# apply + custom init
def init_w(mod):
    if isinstance(mod, nn.Linear):
        nn.init.constant_(mod.weight, 0.1)
        nn.init.zeros_(mod.bias)


seq.apply(init_w)
print("after init:", seq(torch.ones(2, 3)))
print("parameter repr:", nn.Parameter(torch.tensor([1.0, 2.0])))

# load_state_dict strictness
sd = seq.state_dict()
seq2 = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
print(seq2.load_state_dict(sd))
try:
    seq2.load_state_dict({"0.weight": torch.zeros(5, 3)})
except RuntimeError as e:
    print("strict load error:", str(e)[:120])
res = seq2.load_state_dict({"0.weight": torch.zeros(5, 3)}, strict=False)
print("non-strict missing:", res.missing_keys, "unexpected:", res.unexpected_keys)
try:
    net(torch.randn(2, 5))
except RuntimeError as e:
    print("shape mismatch:", e)


# ---- custom autograd.Function (GfG "extending autograd") ----
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (inp,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[inp < 0] = 0
        return grad_input


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.factor, None


xr = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
yr = MyReLU.apply(xr)
print("MyReLU out:", yr)
print("MyReLU grad_fn name:", type(yr.grad_fn).__name__)
(yr * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("MyReLU grad:", xr.grad)
xs = torch.tensor([1.0, 2.0], requires_grad=True)
ScaleGrad.apply(xs, -0.5).sum().backward()
print("gradient reversal grad:", xs.grad)
xd = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(
    "gradcheck MyReLU:",
    torch.autograd.gradcheck(MyReLU.apply, (xd.abs() + 0.1,), eps=1e-6, atol=1e-4),
)
print(
    "gradcheck sigmoid*sin:",
    torch.autograd.gradcheck(lambda t: torch.sigmoid(t) * torch.sin(t), (xd,)),
)

# ---- hessian / vjp / jvp helpers ----
f2 = lambda u: (u**3).sum() + u[0] * u[1]
print("hessian:", torch.autograd.functional.hessian(f2, torch.tensor([1.0, 2.0])))
out, vjp = torch.autograd.functional.vjp(
    lambda u: u**2, torch.tensor([1.0, 3.0]), torch.tensor([1.0, 1.0])
)
print("vjp:", out, vjp)
out, jvp = torch.autograd.functional.jvp(
    lambda u: u.sin(), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0])
)
print("jvp:", out, jvp)

# ---- grad-mode context managers ----
with torch.enable_grad():
    print("enable_grad:", torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(
        "set_grad_enabled(False):",
        torch.is_grad_enabled(),
        (torch.ones(1, requires_grad=True) * 2).requires_grad,
    )
with torch.inference_mode():
    it = torch.ones(2, requires_grad=True) * 3
    print("inference_mode:", it.requires_grad, torch.is_inference_mode_enabled())


@torch.no_grad()
def predict(mdl, inp):
    return mdl(inp)


print("decorated no_grad requires_grad:", predict(net, torch.randn(1, 4)).requires_grad)

# in-place on leaf error / version counter error
leaf = torch.ones(3, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as e:
    print("in-place leaf error:", e)
aa = torch.ones(3, requires_grad=True)
bb = aa.sigmoid()
cc = bb * 2
bb.mul_(3)
try:
    cc.sum().backward()
except RuntimeError as e:
    print("modified-in-place error:", str(e)[:150])
try:
    torch.autograd.grad((aa * 2).sum(), torch.ones(3, requires_grad=True))
except RuntimeError as e:
    print("unused input error:", e)
print(
    "allow_unused:",
    torch.autograd.grad((aa * 2).sum(), [aa, torch.ones(1, requires_grad=True)], allow_unused=True),
)

# print options and dtype info
torch.set_printoptions(precision=2)
print("precision=2:", torch.tensor([1.23456, 2.5]))
torch.set_printoptions(sci_mode=True)
print("sci_mode:", torch.tensor([1.5, 200.0]))
torch.set_printoptions(profile="default")
print("default again:", torch.tensor([1.23456, 2.5]))
print(
    "finfo float32:",
    torch.finfo(torch.float32).eps,
    torch.finfo(torch.float32).max,
    torch.finfo(torch.float16).tiny,
)
print("iinfo int8:", torch.iinfo(torch.int8).min, torch.iinfo(torch.int8).max)
print(torch.finfo(torch.float32))
print("default dtype:", torch.get_default_dtype())
