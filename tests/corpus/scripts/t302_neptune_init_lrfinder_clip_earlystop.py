"""neptune.ai / Paperspace style: weight initialisation compared, LR finder, gradient clipping, early stopping"""

import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(10)


# ---- weight init comparison: activation statistics through a deep MLP ----
def deep_mlp(init, act=nn.Tanh, depth=8, width=64):
    layers = []
    for _ in range(depth):
        lin = nn.Linear(width, width)
        init(lin.weight)
        nn.init.zeros_(lin.bias)
        layers += [lin, act()]
    return nn.Sequential(*layers)


inits = {
    "normal(0,1)": lambda w: nn.init.normal_(w, 0.0, 1.0),
    "normal(0,0.01)": lambda w: nn.init.normal_(w, std=0.01),
    "uniform(-0.1,0.1)": lambda w: nn.init.uniform_(w, -0.1, 0.1),
    "xavier_uniform": nn.init.xavier_uniform_,
    "xavier_normal": nn.init.xavier_normal_,
    "kaiming_uniform": lambda w: nn.init.kaiming_uniform_(w, nonlinearity="relu"),
    "kaiming_normal fan_out": lambda w: nn.init.kaiming_normal_(
        w, mode="fan_out", nonlinearity="relu"
    ),
    "orthogonal": nn.init.orthogonal_,
    "trunc_normal": lambda w: nn.init.trunc_normal_(w, std=0.1, a=-0.2, b=0.2),
}
x = torch.randn(128, 64)
for name, init in inits.items():
    torch.manual_seed(0)
    net = deep_mlp(init)
    h = x
    stds = []
    for m in net:
        h = m(h)
        if isinstance(m, nn.Tanh):
            stds.append(h.std().item())
    print(f"{name:24s} layer stds: " + " ".join(f"{s:.4f}" for s in stds[::2]))

print(
    "gain relu:",
    nn.init.calculate_gain("relu"),
    "tanh:",
    nn.init.calculate_gain("tanh"),
    "leaky 0.2:",
    nn.init.calculate_gain("leaky_relu", 0.2),
    "selu:",
    nn.init.calculate_gain("selu"),
)
w = torch.empty(3, 5)
nn.init.eye_(w)
print("eye_:", w)
w4 = torch.empty(2, 2, 3, 3)
nn.init.dirac_(w4)
print("dirac_ center:", w4[:, :, 1, 1])
torch.manual_seed(1)
print(
    "sparse-ish ones_/constant_:",
    nn.init.ones_(torch.empty(2)),
    nn.init.constant_(torch.empty(2), 0.3),
)
orth = nn.init.orthogonal_(torch.empty(4, 4))
print("orthogonal check:", torch.allclose(orth @ orth.T, torch.eye(4), atol=1e-5))
print(
    "default Linear init bound:",
    1 / math.sqrt(64),
    nn.Linear(64, 3).weight.abs().max().item() <= 1 / math.sqrt(64),
)

# ---- data for the remaining sections ----
torch.manual_seed(5)
N = 256
X = torch.randn(N, 10)
w_true = torch.randn(10, 1)
y = (X @ w_true + 0.3 * torch.randn(N, 1) > 0).float()
Xtr, ytr, Xva, yva = X[:192], y[:192], X[192:], y[192:]


def make_net():
    torch.manual_seed(123)
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))


# ---- LR range test (fastai-style learning rate finder) ----
net = make_net()
init_state = copy.deepcopy(net.state_dict())
opt = torch.optim.SGD(net.parameters(), lr=1e-5)
lr_start, lr_end, num_iter = 1e-5, 10.0, 40
gamma = (lr_end / lr_start) ** (1 / num_iter)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
lrs, losses = [], []
best = float("inf")
avg = 0.0
for it in range(num_iter):
    idx = torch.randint(0, 192, (32,))
    opt.zero_grad()
    loss = F.binary_cross_entropy_with_logits(net(Xtr[idx]), ytr[idx])
    loss.backward()
    opt.step()
    avg = 0.9 * avg + 0.1 * loss.item()
    smooth = avg / (1 - 0.9 ** (it + 1))
    lrs.append(sched.get_last_lr()[0])
    losses.append(smooth)
    sched.step()
    if smooth < best:
        best = smooth
    if smooth > 4 * best:
        print("stopping early, loss diverged at it", it)
        break
for i in range(0, len(lrs), 6):
    print(f"lr {lrs[i]:.2e} smoothed loss {losses[i]:.5f}")
grads = [losses[i + 1] - losses[i] for i in range(len(losses) - 1)]
steepest = min(range(len(grads)), key=lambda i: grads[i])
print("suggested lr (steepest descent): %.3e" % lrs[steepest])
net.load_state_dict(init_state)
print("restored weights equal:", torch.equal(net[0].weight, init_state["0.weight"]))

# ---- gradient clipping ----
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.5)
loss = F.binary_cross_entropy_with_logits(net(Xtr) * 20, ytr)
loss.backward()
total = torch.norm(torch.stack([p.grad.norm(2) for p in net.parameters()]), 2)
print("manual total grad norm:", total.item())
ret = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
print("clip_grad_norm_ returned:", ret)
after = torch.norm(torch.stack([p.grad.norm(2) for p in net.parameters()]), 2)
print("norm after clipping:", after.item())
ret_inf = nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.5, norm_type=float("inf"))
print(
    "inf-norm before:",
    ret_inf.item(),
    "max abs after:",
    max(p.grad.abs().max().item() for p in net.parameters()),
)
nn.utils.clip_grad_value_(net.parameters(), clip_value=0.01)
print("after clip_grad_value_ max:", max(p.grad.abs().max().item() for p in net.parameters()))
vec = nn.utils.parameters_to_vector(net.parameters())
print("parameters_to_vector:", vec.shape, vec[:4])
nn.utils.vector_to_parameters(torch.zeros_like(vec), net.parameters())
print("after vector_to_parameters:", net[0].weight.abs().sum().item())


# ---- early stopping with patience and checkpoint in memory ----
class EarlyStopping:
    def __init__(self, patience=3, min_delta=1e-3):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.counter, self.best_state = None, 0, None
        self.early_stop = False

    def __call__(self, val_loss, model):
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.counter = 0
            self.best_state = {k: v.clone() for k, v in model.state_dict().items()}
            return "improved"
        self.counter += 1
        if self.counter >= self.patience:
            self.early_stop = True
        return f"no improvement ({self.counter}/{self.patience})"


net = nn.Sequential(
    nn.Linear(10, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1)
)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
stopper = EarlyStopping(patience=4)
for epoch in range(40):
    net.train()
    perm = torch.randperm(192)
    for i in range(0, 192, 16):
        b = perm[i : i + 16]
        opt.zero_grad()
        l = F.binary_cross_entropy_with_logits(net(Xtr[b]), ytr[b])
        l.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
    net.eval()
    with torch.no_grad():
        vl = F.binary_cross_entropy_with_logits(net(Xva), yva).item()
        acc = ((net(Xva) > 0).float() == yva).float().mean().item()
    plateau.step(vl)
    status = stopper(vl, net)
    print(
        f"epoch {epoch:2d} train {l.item():.4f} val {vl:.4f} acc {acc:.4f} lr {opt.param_groups[0]['lr']:.5f} {status}"
    )
    if stopper.early_stop:
        print("early stopping triggered at epoch", epoch)
        break
net.load_state_dict(stopper.best_state)
with torch.no_grad():
    print(
        "best val loss restored:",
        F.binary_cross_entropy_with_logits(net(Xva), yva).item(),
        "recorded:",
        stopper.best,
    )

# ---- weight normalisation techniques & regularisers ----
torch.manual_seed(2)
lin = nn.Linear(4, 3)
wn = nn.utils.parametrizations.weight_norm(nn.Linear(4, 3))
print("weight_norm params:", [n for n, _ in wn.named_parameters()])
print(
    "weight_norm g shape:",
    wn.parametrizations.weight.original0.shape,
    "v shape:",
    wn.parametrizations.weight.original1.shape,
)
print(
    "weight row norms == g:",
    torch.allclose(wn.weight.norm(dim=1), wn.parametrizations.weight.original0.squeeze()),
)
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(4, 3))
sn.train()
for _ in range(10):
    _ = sn(torch.randn(2, 4))
print("spectral norm ~1:", round(torch.linalg.matrix_norm(sn.weight.detach(), ord=2).item(), 3))
import torch.nn.utils.parametrize as parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


sq = nn.Linear(3, 3)
parametrize.register_parametrization(sq, "weight", Symmetric())
print("symmetric weight:", torch.equal(sq.weight, sq.weight.T), parametrize.is_parametrized(sq))
print(sq)
parametrize.remove_parametrizations(sq, "weight", leave_parametrized=True)
print("after remove:", parametrize.is_parametrized(sq), type(sq.weight).__name__)

# L1 / L2 penalties by hand vs weight_decay
net = make_net()
l2 = sum((p**2).sum() for n, p in net.named_parameters() if "weight" in n)
l1 = sum(p.abs().sum() for p in net.parameters())
print("L2 penalty:", l2.item(), "L1 penalty:", l1.item())
o1 = torch.optim.SGD(make_net().parameters(), lr=0.1, weight_decay=0.01)
n2 = make_net()
o2 = torch.optim.SGD(n2.parameters(), lr=0.1)
n1 = make_net()
o1 = torch.optim.SGD(n1.parameters(), lr=0.1, weight_decay=0.01)
for m, o, extra in [(n1, o1, False), (n2, o2, True)]:
    o.zero_grad()
    ls = F.binary_cross_entropy_with_logits(m(Xtr), ytr)
    if extra:
        ls = ls + 0.005 * sum((p**2).sum() for p in m.parameters())
    ls.backward()
    o.step()
print("weight_decay == explicit L2:", torch.allclose(n1[0].weight, n2[0].weight, atol=1e-6))

# mixed-precision-free "gradient accumulation"
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
accum = 4
opt.zero_grad()
for i in range(accum):
    xb, yb = Xtr[i * 16 : (i + 1) * 16], ytr[i * 16 : (i + 1) * 16]
    (F.binary_cross_entropy_with_logits(net(xb), yb) / accum).backward()
g_acc = net[0].weight.grad.clone()
opt.zero_grad()
F.binary_cross_entropy_with_logits(net(Xtr[:64]), ytr[:64]).backward()
print("accumulated grad == big-batch grad:", torch.allclose(g_acc, net[0].weight.grad, atol=1e-6))

# checkpoint with torch.save/torch.load (model + optimizer + epoch)
import io

buf = io.BytesIO()
torch.save({"epoch": 7, "model": net.state_dict(), "optim": opt.state_dict(), "best": 0.123}, buf)
buf.seek(0)
ck = torch.load(buf)
print(
    "checkpoint keys:",
    sorted(ck.keys()),
    "epoch:",
    ck["epoch"],
    "optim param_groups lr:",
    ck["optim"]["param_groups"][0]["lr"],
)
net2 = make_net()
net2.load_state_dict(ck["model"])
print(
    "reloaded equal:", all(torch.equal(a, b) for a, b in zip(net.parameters(), net2.parameters()))
)
