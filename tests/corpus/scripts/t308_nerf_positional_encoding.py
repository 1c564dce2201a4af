"""Tiny NeRF-style tutorial: Fourier positional encoding + MLP fitting a 2-D image and 1-D volume rendering"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)


def positional_encoding(x, num_freqs=6, include_input=True, log_sampling=True):
    if log_sampling:
        freqs = 2.0 ** torch.linspace(0.0, num_freqs - 1, num_freqs)
    else:
        freqs = torch.linspace(1.0, 2.0 ** (num_freqs - 1), num_freqs)
    out = [x] if include_input else []
    for f in freqs:
        out.append(torch.sin(x * f * math.pi))
        out.append(torch.cos(x * f * math.pi))
    return torch.cat(out, dim=-1)


x = torch.tensor([[0.0, 0.5], [0.25, -1.0]])
pe = positional_encoding(x, num_freqs=3)
print("PE shape:", pe.shape)
print("PE:", pe)
print("freqs:", 2.0 ** torch.linspace(0.0, 5, 6))
print("linear freqs:", torch.linspace(1.0, 32.0, 6))


# vectorised version with broadcasting
def pe_vec(x, L):
    freqs = (2.0 ** torch.arange(L, dtype=x.dtype)) * math.pi
    xb = x[..., None] * freqs  # (..., D, L)
    enc = torch.cat([xb.sin(), xb.cos()], dim=-1)  # (..., D, 2L)
    return enc.flatten(-2)


print(
    "vectorised PE shape:",
    pe_vec(x, 3).shape,
    "sum match:",
    torch.allclose(pe_vec(x, 3).sum(), pe[:, 2:].sum(), atol=1e-5),
)


class GaussianFourierFeatures(nn.Module):
    def __init__(self, in_dim, mapping_size=16, scale=5.0):
        super().__init__()
        self.register_buffer("B", torch.randn(in_dim, mapping_size) * scale)

    def forward(self, x):
        proj = 2 * math.pi * x @ self.B
        return torch.cat([proj.sin(), proj.cos()], dim=-1)


gff = GaussianFourierFeatures(2)
print("gaussian features:", gff(x).shape, "buffer in state_dict:", list(gff.state_dict().keys()))

# target "image": 24x24 with a checker pattern and a circle
H = W = 24
ys, xs = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
coords = torch.stack([xs, ys], dim=-1).reshape(-1, 2)
checker = (torch.floor(xs * 4) + torch.floor(ys * 4)) % 2
circle = ((xs**2 + ys**2) < 0.4).float()
img = torch.stack([checker, circle, 0.5 * (checker + circle)], dim=-1).reshape(-1, 3)
print("coords:", coords.shape, "img:", img.shape, "img mean:", img.mean(0))


class CoordMLP(nn.Module):
    def __init__(self, in_dim, hidden=64, out_dim=3, depth=3):
        super().__init__()
        layers = [nn.Linear(in_dim, hidden), nn.ReLU()]
        for _ in range(depth - 1):
            layers += [nn.Linear(hidden, hidden), nn.ReLU()]
        layers += [nn.Linear(hidden, out_dim)]
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return torch.sigmoid(self.net(x))


def psnr(mse):
    return -10.0 * torch.log10(mse)


results = {}
for name, enc in [
    ("raw xy", lambda c: c),
    ("posenc L=6", lambda c: positional_encoding(c, 6)),
    ("gaussian ff", gff),
]:
    torch.manual_seed(0)
    feats = enc(coords)
    model = CoordMLP(feats.shape[-1])
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for it in range(150):
        pred = model(feats)
        loss = F.mse_loss(pred, img)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        final = F.mse_loss(model(feats), img)
    results[name] = final.item()
    print(
        f"{name:12s} in_dim={feats.shape[-1]:3d} final mse {final.item():.6f} psnr {psnr(final).item():.3f} dB"
    )
print("best encoding:", min(results, key=results.get))


# ---- 1-D volume rendering along rays (the NeRF quadrature) ----
def render_rays(sigma, rgb, z_vals, white_bkgd=False):
    deltas = z_vals[..., 1:] - z_vals[..., :-1]
    deltas = torch.cat([deltas, torch.full_like(deltas[..., :1], 1e10)], dim=-1)
    alpha = 1.0 - torch.exp(-F.relu(sigma) * deltas)
    trans = torch.cumprod(
        torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], dim=-1), dim=-1
    )[..., :-1]
    weights = alpha * trans
    rgb_map = (weights[..., None] * rgb).sum(dim=-2)
    depth_map = (weights * z_vals).sum(dim=-1)
    acc_map = weights.sum(-1)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc_map[..., None])
    return rgb_map, depth_map, acc_map, weights


N_rays, N_samples = 4, 16
near, far = 2.0, 6.0
t_vals = torch.linspace(0.0, 1.0, N_samples)
z_vals = (near * (1.0 - t_vals) + far * t_vals).expand(N_rays, N_samples).clone()
# stratified sampling
mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
upper = torch.cat([mids, z_vals[..., -1:]], -1)
lower = torch.cat([z_vals[..., :1], mids], -1)
z_strat = lower + (upper - lower) * torch.rand(z_vals.shape)
print("stratified z (ray 0):", z_strat[0])
print("monotonic:", bool((z_strat[:, 1:] >= z_strat[:, :-1]).all()))

rays_o = torch.zeros(N_rays, 3)
rays_d = F.normalize(0.3 * torch.randn(N_rays, 3) + torch.tensor([0.0, 0.0, 1.0]), dim=-1)
pts = rays_o[:, None, :] + rays_d[:, None, :] * z_strat[..., None]
print("sample points:", pts.shape)
# a synthetic density: a sphere of radius 1 centred at distance 4 along +z
centre = torch.tensor([0.0, 0.0, 4.0])
dist = (pts - centre).norm(dim=-1)
sigma = 10.0 * (dist < 1.5).float()
rgb = torch.sigmoid(pts)
rgb_map, depth_map, acc_map, weights = render_rays(sigma, rgb, z_strat)
print("rgb_map:", rgb_map)
print("depth_map:", depth_map)
print("acc_map:", acc_map)
print("weights sum <= 1:", bool((weights.sum(-1) <= 1 + 1e-5).all()))
print("white background:", render_rays(sigma, rgb, z_strat, white_bkgd=True)[0])


# hierarchical sampling: inverse transform sampling from weights (sample_pdf)
def sample_pdf(bins, weights, N, det=True):
    weights = weights + 1e-5
    pdf = weights / weights.sum(-1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    u = (
        torch.linspace(0.0, 1.0, N).expand(list(cdf.shape[:-1]) + [N]).contiguous()
        if det
        else torch.rand(list(cdf.shape[:-1]) + [N])
    )
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    matched = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(1).expand(matched), 2, inds_g)
    bins_g = torch.gather(bins.unsqueeze(1).expand(matched), 2, inds_g)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    return bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])


z_mid = 0.5 * (z_strat[..., 1:] + z_strat[..., :-1])
z_fine = sample_pdf(z_mid, weights[..., 1:-1], 8)
print("fine samples ray 0:", z_fine[0])
z_all, _ = torch.sort(torch.cat([z_strat, z_fine], -1), -1)
print("combined samples:", z_all.shape, "sorted:", bool((z_all[:, 1:] >= z_all[:, :-1]).all()))
