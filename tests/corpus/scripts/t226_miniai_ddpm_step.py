"""miniai style: a tiny DDPM -- linear beta schedule, noisify, a small conv U-Net with a timestep embedding, EMA, and sampling."""

import copy
import io
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(2023)

n_steps = 50
beta_min, beta_max = 1e-4, 0.02
beta = torch.linspace(beta_min, beta_max, n_steps)
alpha = 1.0 - beta
alphabar = alpha.cumprod(dim=0)
sigma = beta.sqrt()
print("beta:", beta[:3], beta[-1])
print("alphabar first/last:", alphabar[0], alphabar[-1], alphabar.dtype, alphabar.shape)
print("sqrt(1-abar) at 0,25,49:", (1 - alphabar)[[0, 25, 49]].sqrt())


def abar_cos(t, T):
    return (t / T * math.pi / 2).cos() ** 2


print("cosine schedule:", abar_cos(torch.tensor([0.0, 0.25, 0.5, 1.0]), 1.0))


def noisify(x0, ᾱ):
    device = x0.device
    n = len(x0)
    t = torch.randint(0, n_steps, (n,), dtype=torch.long)
    ε = torch.randn(x0.shape, device=device)
    ᾱ_t = ᾱ[t].reshape(-1, 1, 1, 1).to(device)
    xt = ᾱ_t.sqrt() * x0 + (1 - ᾱ_t).sqrt() * ε
    return (xt, t.to(device)), ε


# toy data: bright squares on a dark background in [-1, 1]
def make_images(n, size=8):
    imgs = -torch.ones(n, 1, size, size)
    pos = torch.randint(0, size - 3, (n, 2))
    for i, (r, c) in enumerate(pos.tolist()):
        imgs[i, 0, r : r + 3, c : c + 3] = 1.0
    return imgs


x0 = make_images(64)
print("x0 stats:", x0.min(), x0.max(), x0.mean())
(xt, t), eps = noisify(x0[:8], alphabar)
print("t:", t)
print("xt shape", xt.shape, "eps std", eps.std(), "xt[0,0,0]", xt[0, 0, 0])


def timestep_embedding(tsteps, emb_dim, max_period=10000):
    exponent = -math.log(max_period) * torch.linspace(0, 1, emb_dim // 2, device=tsteps.device)
    emb = tsteps[:, None].float() * exponent.exp()[None, :]
    return torch.cat([emb.sin(), emb.cos()], dim=-1)


emb = timestep_embedding(torch.tensor([0, 1, 10, 49]), 8)
print("timestep emb:", emb.shape)
print(emb)


def pre_conv(ni, nf, ks=3, stride=1, act=nn.SiLU, norm=None, bias=True):
    layers = nn.Sequential()
    if norm:
        layers.append(norm(ni))
    if act:
        layers.append(act())
    layers.append(nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2, bias=bias))
    return layers


class EmbResBlock(nn.Module):
    def __init__(self, n_emb, ni, nf=None, ks=3, act=nn.SiLU, norm=nn.BatchNorm2d):
        super().__init__()
        if nf is None:
            nf = ni
        self.emb_proj = nn.Linear(n_emb, nf * 2)
        self.conv1 = pre_conv(ni, nf, ks, act=act, norm=norm)
        self.conv2 = pre_conv(nf, nf, ks, act=act, norm=norm)
        self.idconv = nn.Identity() if ni == nf else nn.Conv2d(ni, nf, 1)

    def forward(self, x, t):
        inp = x
        x = self.conv1(x)
        emb = self.emb_proj(F.silu(t))[:, :, None, None]
        scale, shift = torch.chunk(emb, 2, dim=1)
        x = x * (1 + scale) + shift
        x = self.conv2(x)
        return x + self.idconv(inp)


class TinyUnet(nn.Module):
    def __init__(self, nfs=(8, 16), n_temb=8):
        super().__init__()
        self.n_temb = n_temb
        n_emb = n_temb * 2
        self.emb_mlp = nn.Sequential(nn.Linear(n_temb, n_emb), nn.SiLU(), nn.Linear(n_emb, n_emb))
        self.conv_in = nn.Conv2d(1, nfs[0], 3, padding=1)
        self.down = EmbResBlock(n_emb, nfs[0], nfs[1])
        self.pool = nn.Conv2d(nfs[1], nfs[1], 3, stride=2, padding=1)
        self.mid = EmbResBlock(n_emb, nfs[1])
        self.up = nn.Upsample(scale_factor=2.0)
        self.up_block = EmbResBlock(n_emb, nfs[1] * 2, nfs[0])
        self.conv_out = pre_conv(nfs[0], 1, act=nn.SiLU, norm=nn.BatchNorm2d, bias=False)

    def forward(self, inp):
        x, t = inp
        temb = timestep_embedding(t, self.n_temb)
        emb = self.emb_mlp(temb)
        x = self.conv_in(x)
        skip = self.down(x, emb)
        x = self.pool(skip)
        x = self.mid(x, emb)
        x = self.up(x)
        x = torch.cat([x, skip], dim=1)
        x = self.up_block(x, emb)
        return self.conv_out(x)


model = TinyUnet()
print(model.up, model.pool)
print("n params:", sum(p.numel() for p in model.parameters()))
out = model((xt, t))
print("model out:", out.shape, out.dtype)
print(
    "interpolate nearest == Upsample:",
    torch.equal(F.interpolate(xt, scale_factor=2, mode="nearest"), nn.Upsample(scale_factor=2)(xt)),
)
print(
    "bilinear:",
    F.interpolate(x0[:1, :, :2, :2], size=(3, 3), mode="bilinear", align_corners=False)[0, 0],
)

ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)


@torch.no_grad()
def ema_update(ema, model, decay=0.9):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.lerp_(pm, 1 - decay)
    for be, bm in zip(ema.buffers(), model.buffers()):
        be.copy_(bm)


opt = torch.optim.Adam(model.parameters(), lr=3e-3, eps=1e-5)
model.train()
for step in range(12):
    idx = torch.randint(0, 64, (16,))
    (xt, t), eps = noisify(x0[idx], alphabar)
    pred = model((xt, t))
    loss = F.mse_loss(pred, eps)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(ema, model)
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
d = sum((pe - pm).abs().sum() for pe, pm in zip(ema.parameters(), model.parameters()))
print(
    "ema differs from model by", d > 0, "ema requires_grad:", next(ema.parameters()).requires_grad
)

# save / load weights into a fresh model via an in-memory buffer
buf = io.BytesIO()
torch.save(ema.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
print("saved keys:", len(sd), list(sd)[:4])
fresh = TinyUnet()
res = fresh.load_state_dict(sd, strict=True)
print(res)


@torch.no_grad()
def sample(model, sz, n_steps=n_steps):
    model.eval()
    x_t = torch.randn(sz)
    preds = []
    for t in reversed(range(n_steps)):
        t_batch = torch.full((x_t.shape[0],), t, dtype=torch.long)
        z = torch.randn(x_t.shape) if t > 0 else torch.zeros(x_t.shape)
        ᾱ_t1 = alphabar[t - 1] if t > 0 else torch.tensor(1.0)
        b̄_t = 1 - alphabar[t]
        b̄_t1 = 1 - ᾱ_t1
        noise = model((x_t, t_batch))
        x_0_hat = ((x_t - b̄_t.sqrt() * noise) / alphabar[t].sqrt()).clamp(-1, 1)
        x_t = (
            x_0_hat * ᾱ_t1.sqrt() * (1 - alpha[t]) / b̄_t
            + x_t * alpha[t].sqrt() * b̄_t1 / b̄_t
            + sigma[t] * z
        )
        preds.append(x_t.cpu())
    return preds


torch.manual_seed(7)
samples = sample(fresh, (4, 1, 8, 8))
print("n sample steps:", len(samples), "final shape:", samples[-1].shape)
final = samples[-1]
print("final range:", final.min(), final.max())
print("final[0]:", final[0, 0, :3].round(decimals=3))
print("fraction bright pixels:", (final > 0).float().mean(dim=(1, 2, 3)))
print(
    "any nan:", torch.isnan(final).any().item(), "all finite:", torch.isfinite(final).all().item()
)
