"""Berkeley CS182 style: batch norm, layer norm, dropout from scratch vs the nn modules."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(282)


def batchnorm_forward(x, gamma, beta, bn_param):
    mode = bn_param["mode"]
    eps = bn_param.get("eps", 1e-5)
    momentum = bn_param.get("momentum", 0.9)
    N, D = x.shape
    running_mean = bn_param.get("running_mean", torch.zeros(D, dtype=x.dtype))
    running_var = bn_param.get("running_var", torch.ones(D, dtype=x.dtype))
    if mode == "train":
        mu = x.mean(dim=0)
        var = x.var(dim=0, unbiased=False)
        xhat = (x - mu) / torch.sqrt(var + eps)
        out = gamma * xhat + beta
        cache = (xhat, gamma, var, eps)
        running_mean = momentum * running_mean + (1 - momentum) * mu
        running_var = momentum * running_var + (1 - momentum) * x.var(dim=0, unbiased=True)
    elif mode == "test":
        out = gamma * (x - running_mean) / torch.sqrt(running_var + eps) + beta
        cache = None
    else:
        raise ValueError('Invalid forward batchnorm mode "%s"' % mode)
    bn_param["running_mean"] = running_mean
    bn_param["running_var"] = running_var
    return out, cache


def batchnorm_backward_alt(dout, cache):
    xhat, gamma, var, eps = cache
    N = dout.shape[0]
    dgamma = (dout * xhat).sum(0)
    dbeta = dout.sum(0)
    dxhat = dout * gamma
    dx = (N * dxhat - dxhat.sum(0) - xhat * (dxhat * xhat).sum(0)) / (N * torch.sqrt(var + eps))
    return dx, dgamma, dbeta


N, D = 8, 4
x = 5 * torch.randn(N, D, dtype=torch.float64) + 12
print("Before batch normalization:")
print("  means:", x.mean(0))
print("  stds:", x.std(0))
gamma = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
beta = torch.tensor([0.0, -1.0, 1.0, 2.0], dtype=torch.float64)
bn_param = {"mode": "train", "momentum": 0.9}
out, cache = batchnorm_forward(x, gamma, beta, bn_param)
print("After batch normalization (gamma, beta):")
print("  means:", out.mean(0))
print("  stds:", out.std(0, unbiased=False))

bn = nn.BatchNorm1d(D, momentum=0.1).double()
with torch.no_grad():
    bn.weight.copy_(gamma)
    bn.bias.copy_(beta)
ref = bn(x)
print((ref - out).abs().max() < 1e-10, bn.running_mean, bn_param["running_mean"])
print(torch.allclose(bn.running_var, bn_param["running_var"]))
bn.eval()
bn_param["mode"] = "test"
t_in = torch.randn(3, D, dtype=torch.float64) * 5 + 12
print(torch.allclose(bn(t_in), batchnorm_forward(t_in, gamma, beta, bn_param)[0]))
try:
    batchnorm_forward(x, gamma, beta, {"mode": "eval"})
except ValueError as e:
    print("ValueError:", e)

# backward check
xg = x.clone().requires_grad_()
gg = gamma.clone().requires_grad_()
bg = beta.clone().requires_grad_()
bn_param = {"mode": "train"}
o, cache = batchnorm_forward(xg, gg, bg, bn_param)
dout = torch.randn(N, D, dtype=torch.float64)
o.backward(dout)
dx, dgamma, dbeta = batchnorm_backward_alt(
    dout, tuple(c.detach() if torch.is_tensor(c) else c for c in cache)
)
print(
    "dx close",
    torch.allclose(dx, xg.grad),
    "dgamma close",
    torch.allclose(dgamma, gg.grad),
    "dbeta close",
    torch.allclose(dbeta, bg.grad),
)
print(
    F.batch_norm(
        x, torch.zeros(D, dtype=torch.float64), torch.ones(D, dtype=torch.float64), training=True
    )
    .mean(0)
    .abs()
    .max()
    < 1e-12
)

# float32 module in train vs eval mode
torch.manual_seed(0)
bn32 = nn.BatchNorm1d(3)
batch = torch.randn(16, 3) * 2 + 1
for _ in range(3):
    bn32(batch)
print(bn32.running_mean, bn32.running_var, bn32.num_batches_tracked)
bn32.eval()
print(bn32(batch[:2]))
bn_nomom = nn.BatchNorm1d(3, momentum=None)
bn_nomom(batch)
bn_nomom(batch * 2)
print(bn_nomom.running_mean)
bn_notrack = nn.BatchNorm1d(3, track_running_stats=False, affine=False)
print(
    bn_notrack.running_mean,
    bn_notrack(batch).mean(0).abs().max() < 1e-6,
    list(bn_notrack.parameters()),
)
try:
    nn.BatchNorm1d(3)(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
bn2d = nn.BatchNorm2d(2)
img = torch.randn(4, 2, 3, 3)
o2 = bn2d(img)
print(o2.mean(dim=(0, 2, 3)).abs().max() < 1e-6, o2.var(dim=(0, 2, 3), unbiased=False))


# layer norm from scratch
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) / torch.sqrt(var + eps) + beta


torch.manual_seed(1)
xl = torch.randn(3, 6, dtype=torch.float64) * 3 + 2
ln = nn.LayerNorm(6).double()
with torch.no_grad():
    ln.weight.uniform_(0.5, 1.5)
    ln.bias.normal_()
mine = layernorm_forward(xl, ln.weight, ln.bias)
print(torch.allclose(mine, ln(xl)), mine.mean(-1))
print(ln, ln.normalized_shape, ln.eps, ln.elementwise_affine)
ln2 = nn.LayerNorm([2, 3], elementwise_affine=False)
xx = torch.arange(12.0).view(2, 2, 3)
print(ln2(xx))
print(F.layer_norm(xx, (3,)))
print(nn.GroupNorm(2, 4)(torch.arange(16.0).view(2, 4, 2)))
print(nn.InstanceNorm1d(2)(torch.arange(12.0).view(2, 2, 3)))
try:
    ln(torch.randn(3, 5, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)


# dropout from scratch (inverted dropout)
def dropout_forward(x, p, mode, seed=None):
    if seed is not None:
        torch.manual_seed(seed)
    if mode == "train":
        mask = (torch.rand(*x.shape) < (1 - p)) / (1 - p)
        return x * mask, mask
    return x, None


xd = torch.randn(500, 500) + 10
for p in [0.25, 0.4, 0.7]:
    out, _ = dropout_forward(xd, p, "train", seed=123)
    out_test, _ = dropout_forward(xd, p, "test")
    print("Running tests with p = ", p)
    print("Mean of input: %.4f" % xd.mean().item())
    print("Mean of train-time output: %.4f" % out.mean().item())
    print("Mean of test-time output: %.4f" % out_test.mean().item())
    print("Fraction of train-time output set to zero: %.6f" % (out == 0).float().mean().item())
    print("Fraction of test-time output set to zero: %.6f" % (out_test == 0).float().mean().item())

drop = nn.Dropout(p=0.5)
torch.manual_seed(5)
a = drop(torch.ones(2, 8))
print(a)
drop.eval()
print(drop(torch.ones(2, 8)))
torch.manual_seed(5)
print(F.dropout(torch.ones(2, 8), 0.5, training=True))
print(F.dropout(torch.ones(3), 0.0), F.dropout(torch.ones(3), 1.0))
torch.manual_seed(6)
print(nn.Dropout1d(0.5)(torch.ones(2, 3, 4)))
print(nn.AlphaDropout(0.3)(torch.ones(2, 5)))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)
torch.manual_seed(7)
y = torch.ones(4, 4, requires_grad=True)
z = F.dropout(y, 0.5)
z.sum().backward()
print(y.grad, z.grad_fn)

# weight initialisation section of the homework
torch.manual_seed(9)
lin = nn.Linear(64, 32)
for name, fn in [
    ("xavier_uniform", lambda w: nn.init.xavier_uniform_(w)),
    ("xavier_normal", lambda w: nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh"))),
    ("kaiming_uniform", lambda w: nn.init.kaiming_uniform_(w, a=0.1)),
    ("kaiming_normal", lambda w: nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")),
    ("orthogonal", lambda w: nn.init.orthogonal_(w)),
    ("trunc_normal", lambda w: nn.init.trunc_normal_(w, std=0.02)),
    ("uniform", lambda w: nn.init.uniform_(w, -0.1, 0.1)),
    ("constant", lambda w: nn.init.constant_(w, 0.3)),
    ("sparse", lambda w: nn.init.sparse_(w, 0.5)),
]:
    with torch.no_grad():
        fn(lin.weight)
    w = lin.weight.detach()
    print(
        f"{name:16s} mean {w.mean().item():+.5f} std {w.std().item():.5f} max {w.abs().max().item():.5f}"
    )
print(
    nn.init.calculate_gain("leaky_relu", 0.2),
    nn.init.calculate_gain("selu"),
    nn.init.calculate_gain("sigmoid"),
)
W = nn.init.orthogonal_(torch.empty(4, 4))
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
print(
    nn.init.eye_(torch.empty(2, 3)),
    nn.init.dirac_(torch.empty(2, 1, 3)).squeeze(1),
    nn.init.zeros_(torch.empty(2)),
    nn.init.ones_(torch.empty(2)),
)
print(nn.init.normal_(torch.empty(3), mean=1.0, std=0.0))


# activations through a deep tanh/relu stack: the classic "watch the std collapse" experiment
def forward_stats(init, act, depth=6):
    torch.manual_seed(0)
    h = torch.randn(256, 100)
    stds = []
    for _ in range(depth):
        W = torch.empty(100, 100)
        init(W)
        h = act(h @ W)
        stds.append(round(h.std().item(), 4))
    return stds


print(forward_stats(lambda W: nn.init.normal_(W, std=0.01), torch.tanh))
print(forward_stats(lambda W: nn.init.xavier_normal_(W), torch.tanh))
print(forward_stats(lambda W: nn.init.kaiming_normal_(W, nonlinearity="relu"), torch.relu))
print(forward_stats(lambda W: nn.init.kaiming_normal_(W), F.selu))
