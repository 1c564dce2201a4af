"""DeepLearning.AI-style lab: regularisation (L1/L2, weight decay, dropout) and batch normalisation."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)

# noisy polynomial data, easy to overfit
x = torch.linspace(-1, 1, 40).unsqueeze(1)
y = x**3 - 0.5 * x + 0.15 * torch.randn_like(x)
x_val = torch.linspace(-0.95, 0.95, 15).unsqueeze(1)
y_val = x_val**3 - 0.5 * x_val


def make_net(p_drop=0.0, bn=False):
    torch.manual_seed(100)
    layers = [nn.Linear(1, 32)]
    if bn:
        layers.append(nn.BatchNorm1d(32))
    layers += [nn.ReLU(), nn.Dropout(p_drop), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)]
    return nn.Sequential(*layers)


def fit(net, opt, l1=0.0, l2=0.0, epochs=150, tag=""):
    for epoch in range(epochs):
        net.train()
        pred = net(x)
        loss = F.mse_loss(pred, y)
        if l1:
            loss = loss + l1 * sum(
                p.abs().sum() for n, p in net.named_parameters() if "weight" in n
            )
        if l2:
            loss = loss + l2 * sum((p**2).sum() for n, p in net.named_parameters() if "weight" in n)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    with torch.no_grad():
        tr = F.mse_loss(net(x), y).item()
        va = F.mse_loss(net(x_val), y_val).item()
    wnorm = sum(p.norm() ** 2 for n, p in net.named_parameters() if "weight" in n).sqrt().item()
    print(f"{tag:14s} train {tr:.5f} val {va:.5f} weight norm {wnorm:.4f}")
    return net


net = make_net()
fit(net, torch.optim.Adam(net.parameters(), lr=0.01), tag="plain")
net = make_net()
fit(net, torch.optim.Adam(net.parameters(), lr=0.01), l2=1e-3, tag="L2 penalty")
net = make_net()
fit(net, torch.optim.Adam(net.parameters(), lr=0.01), l1=1e-4, tag="L1 penalty")
net = make_net()
fit(net, torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-3), tag="Adam wd")
net = make_net()
fit(net, torch.optim.AdamW(net.parameters(), lr=0.01, weight_decay=0.1), tag="AdamW")
net = make_net()
fit(
    net,
    torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3, nesterov=True),
    tag="SGD nesterov",
)
net = make_net(p_drop=0.3)
fit(net, torch.optim.Adam(net.parameters(), lr=0.01), tag="dropout 0.3")
net = make_net(bn=True)
fit(net, torch.optim.Adam(net.parameters(), lr=0.01), tag="batchnorm")

# weight decay in SGD is exactly grad + wd * w
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, weight_decay=0.5)
w0 = w.detach().clone()
(w.sum()).backward()
opt.step()
print("sgd wd step:", w.detach(), "by hand:", w0 - 0.1 * (torch.ones(3) + 0.5 * w0))

# dropout behaviour
drop = nn.Dropout(p=0.5)
inp = torch.ones(2, 8)
print("train mode:", drop(inp))
drop.eval()
print("eval mode:", drop(inp))
print("F.dropout training=False:", F.dropout(inp, 0.5, training=False).sum())
print("dropout2d:", nn.Dropout2d(0.5)(torch.ones(1, 4, 2, 2))[0, :, 0, 0])
print("alpha dropout mean:", nn.AlphaDropout(0.2)(torch.randn(1000)).mean().item())
try:
    nn.Dropout(p=1.5)
except ValueError as e:
    print("ValueError:", e)

# batchnorm internals
bn = nn.BatchNorm1d(3, momentum=0.1)
print(bn, "affine:", bn.affine, "track:", bn.track_running_stats)
print("initial running mean/var:", bn.running_mean, bn.running_var, bn.num_batches_tracked)
batch = torch.randn(16, 3) * torch.tensor([1.0, 2.0, 0.5]) + torch.tensor([0.0, 5.0, -1.0])
out = bn(batch)
print("out mean:", out.mean(0).abs().max().item() < 1e-5, "out std:", out.std(0, unbiased=False))
print("running mean:", bn.running_mean)
print("running var:", bn.running_var)
print("by hand running mean:", 0.9 * 0 + 0.1 * batch.mean(0))
print("by hand running var:", 0.9 * 1 + 0.1 * batch.var(0, unbiased=True))
print("num_batches_tracked:", bn.num_batches_tracked)
manual = (batch - batch.mean(0)) / torch.sqrt(batch.var(0, unbiased=False) + bn.eps)
print("matches manual:", torch.allclose(out, manual, atol=1e-5))
bn.eval()
e = bn(batch[:2])
print("eval output:", e)
print("eval by hand:", (batch[:2] - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps))
print("state_dict keys:", list(bn.state_dict().keys()))
print("buffers:", [n for n, _ in bn.named_buffers()])
bn_cum = nn.BatchNorm1d(2, momentum=None)
for k in range(3):
    bn_cum(torch.full((4, 2), float(k)) + torch.arange(4.0).unsqueeze(1))
print("cumulative average:", bn_cum.running_mean, bn_cum.num_batches_tracked)
bn2 = nn.BatchNorm2d(2)
im = torch.randn(4, 2, 3, 3)
print("bn2d:", bn2(im).mean(dim=(0, 2, 3)).abs().max().item() < 1e-5, bn2.running_var)
try:
    nn.BatchNorm1d(3)(torch.randn(1, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.BatchNorm1d(4)(torch.randn(5, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
ln = nn.LayerNorm(3)
print("layernorm:", ln(batch[:2]), ln.weight.shape)
print("F.batch_norm:", F.batch_norm(batch[:4], torch.zeros(3), torch.ones(3), training=False))
print("clip_grad_norm_:", nn.utils.clip_grad_norm_(net.parameters(), 0.5))

# activation functions side by side (the lab's table)
z = torch.linspace(-5, 5, 11)
for name, act in [
    ("relu", nn.ReLU()),
    ("leaky", nn.LeakyReLU(0.1)),
    ("elu", nn.ELU()),
    ("gelu", nn.GELU()),
    ("gelu_tanh", nn.GELU(approximate="tanh")),
    ("silu", nn.SiLU()),
    ("sigmoid", nn.Sigmoid()),
    ("tanh", nn.Tanh()),
    ("softplus", nn.Softplus()),
]:
    print(f"{name:9s}", act(z))
zg = z.clone().requires_grad_()
nn.GELU()(zg).sum().backward()
print("gelu grad:", zg.grad)
