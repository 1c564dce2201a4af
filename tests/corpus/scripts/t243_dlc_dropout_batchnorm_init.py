"""EPFL dlc lecture 6 style: dropout, batch normalisation, weight initialisation, train/eval modes"""

import math

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
x = torch.ones(2, 10)
drop = nn.Dropout(p=0.4)
print(drop, drop.training)
y = drop(x)
print(y)
print("kept fraction", (y != 0).float().mean().item(), "scale", y.max().item(), 1 / 0.6)
drop.eval()
print(drop(x).equal(x), drop.training)
print(F.dropout(x, p=0.5, training=False).equal(x))
print(F.dropout(torch.ones(3, 4), p=0.25))
print(nn.Dropout2d(0.5)(torch.ones(1, 4, 2, 2)))
print(nn.AlphaDropout(0.2)(torch.ones(2, 5)))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)

# dropout gradient uses the same mask
xd = torch.ones(8, requires_grad=True)
yd = F.dropout(xd, 0.5)
yd.sum().backward()
print(yd, xd.grad, torch.equal(yd.detach(), xd.grad))

# batchnorm by hand vs nn.BatchNorm1d
torch.manual_seed(1)
data = torch.randn(16, 4) * torch.tensor([1.0, 2.0, 5.0, 0.1]) + torch.tensor(
    [0.0, -3.0, 10.0, 1.0]
)
bn = nn.BatchNorm1d(4)
print(bn, bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
out = bn(data)
mean = data.mean(0)
var = data.var(0, unbiased=False)
manual = (data - mean) / torch.sqrt(var + bn.eps)
print("max diff to manual", (out - manual).abs().max().item() < 1e-5)
print("out mean", out.mean(0), "out std", out.std(0, unbiased=False))
print("running_mean", bn.running_mean, "running_var", bn.running_var, bn.num_batches_tracked)
print("expected running mean", 0.1 * mean, "expected var", 0.9 + 0.1 * data.var(0))
for _ in range(20):
    bn(data)
print("after 21 batches", bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print("eval output row 0", bn(data)[0])
print(bn.state_dict().keys())
bnm = nn.BatchNorm1d(4, momentum=None)
for i in range(3):
    bnm(data[i * 4 : (i + 1) * 4])
print("cumulative average", bnm.running_mean, bnm.num_batches_tracked)
bn_noaff = nn.BatchNorm1d(4, affine=False, track_running_stats=False)
print(bn_noaff, list(bn_noaff.parameters()), bn_noaff.running_mean)
print(bn_noaff.eval()(data)[:2])
try:
    nn.BatchNorm1d(4)(torch.randn(1, 4))
except ValueError as e:
    print("ValueError:", e)
print(F.batch_norm(data, torch.zeros(4), torch.ones(4), training=False)[:2])

bn2 = nn.BatchNorm2d(3)
img = torch.randn(4, 3, 5, 5) * 3 + 1
o2 = bn2(img)
print(o2.shape, o2.mean(dim=(0, 2, 3)), o2.var(dim=(0, 2, 3), unbiased=False))
print(bn2.running_mean, bn2.running_var)
o2.pow(2).sum().backward()
print("bn2 weight grad", bn2.weight.grad, "bias grad", bn2.bias.grad)
ln = nn.LayerNorm([5, 5], elementwise_affine=False)
print("layernorm", ln(img)[0, 0, 0])
print(nn.GroupNorm(1, 3)(img).shape, nn.InstanceNorm2d(3)(img)[0, 0, 0])
print(nn.LayerNorm(4))

# initialisation
torch.manual_seed(2)
lin = nn.Linear(100, 50)
bound = 1 / math.sqrt(100)
print(
    "default init within bound:",
    lin.weight.abs().max().item() <= bound,
    lin.bias.abs().max().item() <= bound,
)
print("default std", lin.weight.std().item())
nn.init.xavier_uniform_(lin.weight)
print("xavier_uniform std %.5f expected %.5f" % (lin.weight.std().item(), math.sqrt(2 / 150)))
nn.init.xavier_normal_(lin.weight, gain=nn.init.calculate_gain("tanh"))
print(
    "xavier_normal std %.5f" % lin.weight.std().item(),
    nn.init.calculate_gain("tanh"),
    nn.init.calculate_gain("relu"),
    nn.init.calculate_gain("leaky_relu", 0.2),
    nn.init.calculate_gain("selu"),
)
nn.init.kaiming_normal_(lin.weight, mode="fan_out", nonlinearity="relu")
print(
    "kaiming_normal fan_out std %.5f expected %.5f" % (lin.weight.std().item(), math.sqrt(2 / 50))
)
nn.init.kaiming_uniform_(lin.weight, a=math.sqrt(5))
print("kaiming_uniform a=sqrt5 max %.5f" % lin.weight.abs().max().item())
nn.init.normal_(lin.weight, mean=0.0, std=0.02)
nn.init.constant_(lin.bias, 0.1)
print(lin.weight[0, :5], lin.bias[:3])
nn.init.uniform_(lin.weight, -0.1, 0.1)
nn.init.zeros_(lin.bias)
print(lin.weight[0, :5], lin.bias.sum())
nn.init.trunc_normal_(lin.weight, std=1.0, a=-1.5, b=1.5)
print("trunc max", lin.weight.abs().max().item() <= 1.5, lin.weight[0, :3])
w = torch.empty(4, 4)
nn.init.orthogonal_(w)
print("orthogonal", torch.allclose(w @ w.t(), torch.eye(4), atol=1e-5))
nn.init.eye_(w)
print(w.diag())
conv = nn.Conv2d(3, 2, 3)
nn.init.dirac_(torch.empty(3, 3, 3, 3))
print(nn.init._calculate_fan_in_and_fan_out(conv.weight))
nn.init.ones_(conv.bias)
print(conv.bias)
sp = torch.empty(6, 4)
nn.init.sparse_(sp, sparsity=0.5)
print((sp == 0).sum(0))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
        print("init", m)


net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 2))
net.apply(init_weights)
print(net[0].bias[:3])
net.train()
torch.manual_seed(3)
inp = torch.randn(6, 4)
a1 = net(inp)
a2 = net(inp)
print("train: two passes differ", not torch.equal(a1, a2))
net.eval()
b1 = net(inp)
b2 = net(inp)
print("eval: deterministic", torch.equal(b1, b2))
print(b1)
print([m.training for m in net.modules()])
print(net.train(False) is net, net.training)

# deep net activation statistics with different inits (lecture: vanishing activations)
torch.manual_seed(4)
h = torch.randn(256, 64)
for init in ("small", "xavier", "kaiming"):
    a = h
    for layer in range(6):
        W = torch.empty(64, 64)
        if init == "small":
            nn.init.normal_(W, std=0.01)
        elif init == "xavier":
            nn.init.xavier_normal_(W)
        else:
            nn.init.kaiming_normal_(W, nonlinearity="relu")
        a = torch.relu(a @ W)
    print(f"{init:8s} layer-6 activation std {a.std().item():.6e}")

# --- regularisers and reparametrisations used alongside dropout/batchnorm ---
torch.manual_seed(5)
lin = nn.Linear(3, 2)
wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
print(wn, [n for n, _ in wn.named_parameters()])
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(torch.allclose(wn.weight.norm(dim=1, keepdim=True), wn.parametrizations.weight.original0))
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(4, 4))
for _ in range(5):
    sn(torch.randn(2, 4))
print("spectral norm ~1:", round(torch.linalg.matrix_norm(sn.weight.detach(), ord=2).item(), 3))


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


sym = nn.Linear(3, 3)
nn.utils.parametrize.register_parametrization(sym, "weight", Symmetric())
print(torch.equal(sym.weight, sym.weight.T), nn.utils.parametrize.is_parametrized(sym))
# weight decay as explicit L2 vs optimiser weight_decay
torch.manual_seed(6)
X = torch.randn(20, 5)
Y = torch.randn(20, 1)
m1 = nn.Linear(5, 1)
m2 = nn.Linear(5, 1)
m2.load_state_dict(m1.state_dict())
o1 = torch.optim.SGD(m1.parameters(), lr=0.1, weight_decay=0.01)
o2 = torch.optim.SGD(m2.parameters(), lr=0.1)
for _ in range(5):
    o1.zero_grad()
    F.mse_loss(m1(X), Y).backward()
    o1.step()
    o2.zero_grad()
    (F.mse_loss(m2(X), Y) + 0.005 * sum((p**2).sum() for p in m2.parameters())).backward()
    o2.step()
print(
    "weight_decay == explicit L2:", torch.allclose(m1.weight, m2.weight, atol=1e-6), m1.weight.data
)
l1 = sum(p.abs().sum() for p in m1.parameters())
print("l1 penalty", l1, l1.grad_fn)
# activations zoo that the lectures plot
z = torch.linspace(-3, 3, 7)
for act in [
    nn.ReLU(),
    nn.ReLU6(),
    nn.LeakyReLU(0.01),
    nn.ELU(alpha=1.0),
    nn.SELU(),
    nn.CELU(0.5),
    nn.GELU(approximate="tanh"),
    nn.Sigmoid(),
    nn.Tanh(),
    nn.Softsign(),
    nn.Tanhshrink(),
    nn.Hardswish(),
    nn.Hardsigmoid(),
    nn.Hardshrink(1.0),
    nn.Softshrink(1.0),
    nn.Threshold(0.5, -1.0),
    nn.LogSigmoid(),
    nn.Softplus(beta=2, threshold=1),
]:
    print(f"{act!r:40s}", act(z))
print(
    nn.Softmax(dim=0)(z),
    nn.LogSoftmax(dim=0)(z),
    nn.Softmin(dim=0)(z)[:2],
    nn.GLU()(torch.arange(4.0)),
    nn.Softmax2d()(torch.ones(1, 2, 1, 1)).view(-1),
)
torch.manual_seed(7)
rr = nn.RReLU(0.1, 0.3)
print(rr(z), rr.eval()(z))
print(
    nn.Bilinear(2, 3, 1)(torch.ones(4, 2), torch.ones(4, 3)).shape,
    nn.CosineSimilarity(dim=1)(torch.ones(2, 3), torch.arange(6.0).view(2, 3)),
    nn.PairwiseDistance(p=1)(torch.ones(2, 3), torch.zeros(2, 3)),
)
print(
    nn.LocalResponseNorm(2)(torch.arange(8.0).view(1, 4, 1, 2)).view(-1),
    F.normalize(torch.tensor([[3.0, 4.0], [0.0, 0.0]]), dim=1),
    F.normalize(torch.tensor([1.0, 1.0]), p=1, dim=0),
)
print(
    nn.Unfold(kernel_size=2)(torch.arange(9.0).view(1, 1, 3, 3)),
    nn.Fold((3, 3), 2)(torch.ones(1, 4, 4)),
)
print(
    nn.ChannelShuffle(2)(torch.arange(4.0).view(1, 4, 1, 1)).view(-1),
    nn.PixelUnshuffle(2)(torch.arange(16.0).view(1, 1, 4, 4)).shape,
)
print(
    F.gumbel_softmax(torch.zeros(2, 3), tau=0.5, hard=True),
    F.gumbel_softmax(torch.tensor([[1.0, 2.0, 3.0]]), tau=1.0),
)
gn = nn.GroupNorm(2, 4)
print(gn, gn(torch.arange(16.0).view(1, 4, 2, 2))[0, :, 0, 0])
inorm = nn.InstanceNorm1d(2, affine=True, track_running_stats=True)
inorm(torch.randn(3, 2, 5))
print(inorm.running_mean, inorm)
lnm = nn.LayerNorm(3, bias=False)
print(
    lnm,
    lnm(torch.tensor([[1.0, 2.0, 4.0]])),
    F.layer_norm(torch.tensor([[1.0, 2.0, 4.0]]), (3,)),
    nn.RMSNorm(3)(torch.tensor([[1.0, 2.0, 4.0]])),
)
bn3 = nn.BatchNorm1d(2)
out3 = bn3(torch.randn(4, 2, 3))
print(out3.shape, bn3.running_mean)
sbn = nn.SyncBatchNorm(3) if hasattr(nn, "SyncBatchNorm") else None
print(type(sbn).__name__)
lbn = nn.LazyLinear(4)
print(lbn)
lbn(torch.ones(2, 7))
print(lbn, lbn.weight.shape)
