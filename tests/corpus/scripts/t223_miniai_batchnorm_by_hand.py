"""miniai style: BatchNorm and LayerNorm written by hand, checked against nn.BatchNorm2d, nn.LayerNorm, GroupNorm."""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(11)


class LayerNorm(nn.Module):
    def __init__(self, dummy, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.mult = nn.Parameter(torch.tensor(1.0))
        self.add = nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        m = x.mean((1, 2, 3), keepdim=True)
        v = x.var((1, 2, 3), keepdim=True)
        x = (x - m) / ((v + self.eps).sqrt())
        return x * self.mult + self.add


class BatchNorm(nn.Module):
    def __init__(self, nf, mom=0.1, eps=1e-5):
        super().__init__()
        self.mom, self.eps = mom, eps
        self.mults = nn.Parameter(torch.ones(nf, 1, 1))
        self.adds = nn.Parameter(torch.zeros(nf, 1, 1))
        self.register_buffer("vars", torch.ones(1, nf, 1, 1))
        self.register_buffer("means", torch.zeros(1, nf, 1, 1))

    def update_stats(self, x):
        m = x.mean((0, 2, 3), keepdim=True)
        v = x.var((0, 2, 3), keepdim=True)
        self.means.lerp_(m, self.mom)
        self.vars.lerp_(v, self.mom)
        return m, v

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                m, v = self.update_stats(x)
        else:
            m, v = self.means, self.vars
        x = (x - m) / (v + self.eps).sqrt()
        return x * self.mults + self.adds


x = torch.randn(8, 4, 6, 6) * 3 + 2
bn = BatchNorm(4)
print(bn)
print("buffers:", [(n, tuple(b.shape)) for n, b in bn.named_buffers()])
print("state_dict keys:", list(bn.state_dict().keys()))
out = bn(x)
print("hand BN out mean/std per channel:", out.mean((0, 2, 3)), out.std((0, 2, 3)))
print("running means:", bn.means.flatten())
print("running vars:", bn.vars.flatten())

ref = nn.BatchNorm2d(4)
print(ref, ref.training)
print("ref state_dict:", {k: v.shape for k, v in ref.state_dict().items()})
out_ref = ref(x)
print("num_batches_tracked:", ref.num_batches_tracked, ref.num_batches_tracked.dtype)
print("ref running_mean:", ref.running_mean)
print("ref running_var:", ref.running_var)
# torch's BN normalises with the biased var, but stores the unbiased one
print("max diff BN train:", (out - out_ref).abs().max())
biased = x.var((0, 2, 3), unbiased=False)
unbiased = x.var((0, 2, 3), correction=1)
print("biased vs unbiased var:", biased, unbiased)
manual = (x - x.mean((0, 2, 3), keepdim=True)) / (
    x.var((0, 2, 3), keepdim=True, unbiased=False) + 1e-5
).sqrt()
print("manual (biased) vs ref:", torch.allclose(manual, out_ref, atol=1e-5))

ref.eval()
bn.eval()
out_eval = ref(x)
print("eval out[0,0,0]:", out_eval[0, 0, 0])
print("hand eval out[0,0,0]:", bn(x)[0, 0, 0])

# momentum=None -> cumulative average
cum = nn.BatchNorm2d(4, momentum=None)
for i in range(3):
    cum(x[i * 2 : (i + 1) * 2])
print("cumulative running_mean:", cum.running_mean, cum.num_batches_tracked)
noaff = nn.BatchNorm2d(4, affine=False, track_running_stats=False)
print(noaff, "params:", list(noaff.parameters()), "running_mean:", noaff.running_mean)
noaff.eval()
print("no-track eval still uses batch stats:", noaff(x).mean().abs() < 1e-5)

# functional batch_norm
rm, rv = torch.zeros(4), torch.ones(4)
fb = F.batch_norm(x, rm, rv, weight=None, bias=None, training=True, momentum=0.5)
print("F.batch_norm updated rm in place:", rm)
print(fb.shape)

# BatchNorm1d on (N, C) and (N, C, L)
bn1 = nn.BatchNorm1d(3)
print(bn1(torch.randn(5, 3)).mean(0))
print(bn1(torch.randn(5, 3, 7)).shape)
try:
    bn1(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.BatchNorm2d(4)(torch.randn(2, 3, 4, 4))
except Exception as e:
    print(type(e).__name__, str(e)[:80])

# LayerNorm
ln = LayerNorm(4)
o = ln(x)
print("hand LN per-sample mean/std:", o.mean((1, 2, 3)).abs().max() < 1e-6, o.std((1, 2, 3)))
ref_ln = nn.LayerNorm([4, 6, 6], elementwise_affine=False)
print(ref_ln)
print("hand LN vs nn.LayerNorm (var unbiased!):", (o - ref_ln(x)).abs().max())
ln2 = nn.LayerNorm(6)
print(ln2, ln2.weight.shape, ln2.bias.shape, ln2.normalized_shape, ln2.eps)
print("F.layer_norm:", F.layer_norm(x[0, 0, 0], (6,)))
print("nn.LayerNorm bias=False:", nn.LayerNorm(6, bias=False).bias)

# GroupNorm / InstanceNorm
gn = nn.GroupNorm(2, 4)
print(gn)
g = gn(x)
print(
    "GroupNorm group stats:",
    g.view(8, 2, -1).mean(-1)[0].abs() < 1e-6,
    g.view(8, 2, -1).var(-1, unbiased=False)[0],
)
inn = nn.InstanceNorm2d(4)
print(inn)
io = inn(x)
print(
    "InstanceNorm2d:", io.mean((2, 3))[0].abs() < 1e-6, io.var((2, 3), unbiased=False)[0], io.shape
)
try:
    nn.GroupNorm(3, 4)
except ValueError as e:
    print("ValueError:", e)


# a conv block with our BN, trained a bit
def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=None):
    if bias is None:
        bias = not isinstance(norm, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d))
    layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2, bias=bias)]
    if norm:
        layers.append(norm(nf))
    if act:
        layers.append(act())
    return nn.Sequential(*layers)


torch.manual_seed(0)
model = nn.Sequential(
    conv(1, 8, norm=BatchNorm),
    conv(8, 16, norm=BatchNorm),
    conv(16, 3, act=None),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
print(model)
xs = torch.randn(32, 1, 12, 12)
ys = (xs.mean((1, 2, 3)) > 0).long() + (xs[:, 0, 0, 0] > 1).long()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    model.train()
    loss = F.cross_entropy(model(xs), ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(xs).argmax(1) == ys).float().mean()
    print(f"epoch {epoch}: loss {loss:.4f} acc {acc:.3f}")
print("buffers now:", model[0][1].means.flatten()[:4])
sd = model.state_dict()
print("sd keys:", [k for k in sd if "means" in k or "vars" in k])
model2 = nn.Sequential(
    conv(1, 8, norm=BatchNorm),
    conv(8, 16, norm=BatchNorm),
    conv(16, 3, act=None),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
print(model2.load_state_dict(sd))
model2.eval()
print("same after load:", torch.equal(model2(xs), model(xs)))
