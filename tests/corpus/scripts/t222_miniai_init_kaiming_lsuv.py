"""miniai style: why initialisation matters -- std through deep nets, Kaiming init, GeneralRelu, LSUV."""

import math
from functools import partial

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(7)

# std of activations explodes / vanishes through 50 matmuls
x = torch.randn(200, 100)
for scale in (1.0, 0.01, 0.1):
    z = x
    for i in range(50):
        z = z @ (torch.randn(100, 100) * scale)
        if z.isnan().any():
            break
    print(f"scale {scale}: stopped at {i}, std {z.std():.4e}, nan={z.isnan().any().item()}")

z = x
for i in range(50):
    z = z @ (torch.randn(100, 100) * (1 / math.sqrt(100)))
print("xavier-like std:", z.std())
z = x
for i in range(50):
    z = (z @ (torch.randn(100, 100) * math.sqrt(2 / 100))).relu()
print("kaiming + relu std:", z.std(), "mean:", z.mean())

# nn.init functions
w = torch.empty(16, 8, 3, 3)
nn.init.kaiming_normal_(w, nonlinearity="relu")
print("kaiming_normal_ std:", w.std(), "expected:", math.sqrt(2 / (8 * 9)))
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
print("kaiming_uniform_(a=sqrt5) bounds:", w.min(), w.max())
nn.init.xavier_uniform_(w)
print("xavier_uniform_ max:", w.abs().max())
nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh"))
print(
    "gain tanh:",
    nn.init.calculate_gain("tanh"),
    "gain leaky 0.1:",
    nn.init.calculate_gain("leaky_relu", 0.1),
)
nn.init.constant_(w, 0.5)
print("constant_:", w.unique())
b = torch.empty(5)
nn.init.zeros_(b)
print(b)
nn.init.ones_(b)
print(b)
nn.init.normal_(b, mean=2.0, std=0.1)
print("normal_:", b)
nn.init.uniform_(b, -1, 1)
print("uniform_:", b)
nn.init.trunc_normal_(b, std=0.02)
print("trunc_normal_:", b)
e = torch.empty(3, 4)
nn.init.eye_(e)
print(e)
nn.init.orthogonal_(e)
print("orthogonal:", e, torch.allclose(e @ e.T, torch.eye(3), atol=1e-5))


class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak, self.sub, self.maxv = leak, sub, maxv

    def forward(self, x):
        x = F.leaky_relu(x, self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None:
            x -= self.sub
        if self.maxv is not None:
            x.clamp_max_(self.maxv)
        return x

    def extra_repr(self):
        return f"leak={self.leak}, sub={self.sub}, maxv={self.maxv}"


gr = GeneralRelu(leak=0.1, sub=0.4)
print(gr)
print(gr(torch.linspace(-2, 2, 9)))
print(GeneralRelu(maxv=1.0)(torch.linspace(-2, 2, 9)))


def conv(ni, nf, ks=3, stride=2, act=nn.ReLU):
    res = nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2)
    if act:
        res = nn.Sequential(res, act())
    return res


def get_model(act=nn.ReLU, nfs=None):
    if nfs is None:
        nfs = [1, 8, 16, 32, 64]
    layers = [conv(nfs[i], nfs[i + 1], act=act) for i in range(len(nfs) - 1)]
    return nn.Sequential(*layers, conv(nfs[-1], 10, act=None), nn.Flatten()).to("cpu")


def init_weights(m, leaky=0.0):
    if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Linear)):
        nn.init.kaiming_normal_(m.weight, a=leaky)


xb = torch.randn(32, 1, 28, 28)
act_gr = partial(GeneralRelu, leak=0.1, sub=0.4)
torch.manual_seed(0)
model = get_model(act_gr)
print(model[0])


def layer_stats(model, xb):
    stats = []
    hooks = []
    for m in model:
        hooks.append(
            m.register_forward_hook(
                lambda mod, i, o: stats.append((o.mean().item(), o.std().item()))
            )
        )
    with torch.no_grad():
        model(xb)
    for h in hooks:
        h.remove()
    return stats


print("default init:", [(round(a, 3), round(b, 3)) for a, b in layer_stats(model, xb)])
model.apply(partial(init_weights, leaky=0.1))
print("kaiming init:", [(round(a, 3), round(b, 3)) for a, b in layer_stats(model, xb)])

# input normalisation
xb2 = xb * 3 + 1
xmean, xstd = xb2.mean(), xb2.std()
print(f"raw mean {xmean:.3f} std {xstd:.3f}")
xn = (xb2 - xmean) / xstd
print(f"normed mean {xn.mean():.3f} std {xn.std():.3f}")


# LSUV: scale each layer's weights until its output has unit std and zero mean
def lsuv_stats(hook, mod, inp, outp):
    acts = outp.detach().cpu()
    hook.mean = acts.mean()
    hook.std = acts.std()


class H:
    pass


def lsuv_init(model, m, m_in, xb, tol=1e-3, max_iter=20):
    h = H()
    handle = m.register_forward_hook(partial(lsuv_stats, h))
    it = 0
    with torch.no_grad():
        while model(xb) is not None and (abs(h.std - 1) > tol or abs(h.mean) > tol):
            m_in.bias -= h.mean
            m_in.weight.data /= h.std
            it += 1
            if it >= max_iter:
                break
    handle.remove()
    return it, h.mean.item(), h.std.item()


torch.manual_seed(0)
model = get_model(act_gr)
relus = [o for o in model.modules() if isinstance(o, GeneralRelu)]
convs = [o for o in model.modules() if isinstance(o, nn.Conv2d)]
print("n relus", len(relus), "n convs", len(convs))
for ms, mc in zip(relus, convs):
    it, mean, std = lsuv_init(model, ms, mc, xb)
    print(f"LSUV {tuple(mc.weight.shape)}: {it} iters, mean {mean:.4f} std {std:.4f}")
print("after LSUV:", [(round(a, 2), round(b, 2)) for a, b in layer_stats(model, xb)])

# parameter counts, fan in / out
for name, p in model.named_parameters():
    if p.dim() > 1:
        fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(p)
        print(f"{name:12} {tuple(p.shape)!s:16} fan_in={fan_in} fan_out={fan_out}")
print("total params:", sum(p.numel() for p in model.parameters()))
