"""miniai style: forward hooks that record activation means, stds and histograms of a small CNN."""

from functools import partial

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(64, 1, 16, 16)
y = torch.randint(0, 5, (64,))


def conv(ni, nf, ks=3, act=True):
    res = nn.Conv2d(ni, nf, stride=2, kernel_size=ks, padding=ks // 2)
    if act:
        res = nn.Sequential(res, nn.ReLU())
    return res


def cnn_layers():
    return [conv(1, 8, ks=5), conv(8, 16), conv(16, 32), conv(32, 5, act=False), nn.Flatten()]


model = nn.Sequential(*cnn_layers())
print(model)
print("output shape:", model(x).shape)


# --- the simplest version: a Sequential subclass that stores stats in forward
class SequentialModel(nn.Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.act_means = [[] for _ in layers]
        self.act_stds = [[] for _ in layers]

    def __call__(self, x):
        for i, l in enumerate(self.layers):
            x = l(x)
            self.act_means[i].append(x.data.mean().item())
            self.act_stds[i].append(x.data.std().item())
        return x

    def __iter__(self):
        return iter(self.layers)


torch.manual_seed(1)
smodel = SequentialModel(*cnn_layers())
opt = torch.optim.SGD(smodel.parameters(), lr=0.6)
for i in range(4):
    xb, yb = x[i * 16 : (i + 1) * 16], y[i * 16 : (i + 1) * 16]
    loss = F.cross_entropy(smodel(xb), yb)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {i} loss {loss.item():.4f}")
for i, (m, s) in enumerate(zip(smodel.act_means, smodel.act_stds)):
    print(f"layer {i}: means {[round(v, 4) for v in m]} stds {[round(v, 4) for v in s]}")

# --- register_forward_hook version
torch.manual_seed(1)
model = nn.Sequential(*cnn_layers())
act_means = [[] for _ in model]
act_stds = [[] for _ in model]


def append_stats(i, mod, inp, outp):
    act_means[i].append(outp.detach().cpu().mean().item())
    act_stds[i].append(outp.detach().cpu().std().item())


handles = [m.register_forward_hook(partial(append_stats, i)) for i, m in enumerate(model)]
print("handle type:", type(handles[0]).__name__)
model(x[:16])
model(x[16:32])
print("hooked means:", [[round(v, 4) for v in m] for m in act_means])
for h in handles:
    h.remove()
model(x[:16])
print("after remove, counts:", [len(m) for m in act_means])


# --- a Hook class and a Hooks context manager
class Hook:
    def __init__(self, m, f):
        self.hook = m.register_forward_hook(partial(f, self))

    def remove(self):
        self.hook.remove()

    def __del__(self):
        self.remove()


class Hooks(list):
    def __init__(self, ms, f):
        super().__init__([Hook(m, f) for m in ms])

    def __enter__(self, *args):
        return self

    def __exit__(self, *args):
        self.remove()

    def __del__(self):
        self.remove()

    def __delitem__(self, i):
        self[i].remove()
        super().__delitem__(i)

    def remove(self):
        for h in self:
            h.remove()


def append_stats_hist(hook, mod, inp, outp):
    if not hasattr(hook, "stats"):
        hook.stats = ([], [], [])
    acts = outp.detach().cpu()
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())
    hook.stats[2].append(acts.abs().histc(40, 0, 10))


def get_min(h):
    h1 = torch.stack(h.stats[2]).t().float()
    return h1[0] / h1.sum(0)


torch.manual_seed(2)
model = nn.Sequential(*cnn_layers())
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
with Hooks(model, append_stats_hist) as hooks:
    for i in range(4):
        xb, yb = x[i * 16 : (i + 1) * 16], y[i * 16 : (i + 1) * 16]
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    for j, h in enumerate(hooks):
        ms, ss, hi = h.stats
        print(f"hook {j}: mean {torch.stack(ms)} std {torch.stack(ss)}")
        print(
            "   hist shape",
            torch.stack(hi).shape,
            "first bins",
            hi[-1][:6],
            "dead frac",
            get_min(h),
        )
print("hooks list len after exit:", len(hooks))

h = torch.histc(torch.tensor([1.0, 2, 1, 4, 2.5, 0.1]), bins=4, min=0, max=4)
print("histc:", h, h.dtype)
print("histogram:", torch.histogram(torch.tensor([1.0, 2, 1, 4, 2.5]), bins=4, range=(0.0, 4.0)))
hist_out = torch.histogram(
    torch.tensor([1.0, 2, 1, 4, 2.5]), bins=torch.tensor([0.0, 1.0, 2.5, 5.0])
)
print("hist counts", hist_out.hist, "edges", hist_out.bin_edges)

# --- backward hooks on modules and tensors
grads = {}


def save_grad(name):
    def hook(mod, grad_input, grad_output):
        grads[name] = grad_output[0].detach().norm().item()

    return hook


bh = [m.register_full_backward_hook(save_grad(f"layer{i}")) for i, m in enumerate(model[:4])]
loss = F.cross_entropy(model(x[:8]), y[:8])
loss.backward()
print("grad_output norms:", {k: round(v, 5) for k, v in grads.items()})
for h in bh:
    h.remove()

t = torch.randn(3, requires_grad=True)
t.register_hook(lambda g: print("tensor hook sees grad", g))
(t * torch.tensor([1.0, 2.0, 3.0])).sum().backward()

# forward pre-hook that rescales the input
pre = model[0].register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
out = model(x[:2])
print("with zero-input pre hook:", out)
pre.remove()

# module.apply and named_modules
counts = {}
model.apply(lambda m: counts.__setitem__(type(m).__name__, counts.get(type(m).__name__, 0) + 1))
print("module counts:", counts)
print([n for n, _ in model.named_modules()])
print(
    "grad norms per param:", [f"{n}: {p.grad.norm():.4f}" for n, p in model.named_parameters()][:3]
)


# a global hook: every module's forward, for a quick shape trace
trace = []
gh = nn.modules.module.register_module_forward_hook(
    lambda m, i, o: trace.append((type(m).__name__, tuple(o.shape)))
)
model(x[:2])
gh.remove()
print("global hook trace:", trace)
