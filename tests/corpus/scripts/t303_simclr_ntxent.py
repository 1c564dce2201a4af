"""Contrastive learning tutorial: SimCLR NT-Xent loss from scratch on synthetic 'images'"""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def augment(x):
    """Cheap augmentations on (B, C, H, W): random flip, random crop-resize, noise, colour jitter."""
    B = x.shape[0]
    flip = torch.rand(B) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    # random translation via roll
    shifts = torch.randint(-2, 3, (2,))
    x = torch.roll(x, shifts=(int(shifts[0]), int(shifts[1])), dims=(2, 3))
    jitter = 1 + 0.2 * (torch.rand(B, x.shape[1], 1, 1) - 0.5)
    x = x * jitter + 0.05 * torch.randn_like(x)
    # crop then resize back
    crop = x[:, :, 1:-1, 1:-1]
    return F.interpolate(crop, size=x.shape[-2:], mode="bilinear", align_corners=False)


class Encoder(nn.Module):
    def __init__(self, feat=32, proj=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=1, padding=1),
            nn.GroupNorm(2, 8),
            nn.GELU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.GroupNorm(4, 16),
            nn.GELU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(16, feat),
        )
        self.projector = nn.Sequential(nn.Linear(feat, feat), nn.ReLU(), nn.Linear(feat, proj))

    def forward(self, x):
        h = self.conv(x)
        return h, self.projector(h)


def nt_xent(z1, z2, temperature=0.5, verbose=False):
    N = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    z = F.normalize(z, dim=1)
    sim = z @ z.T / temperature
    if verbose:
        print("  z norms:", z.norm(dim=1)[:4])
        print("  sim matrix shape:", sim.shape, "diag[:3]:", sim.diag()[:3])
    mask = torch.eye(2 * N, dtype=torch.bool)
    sim = sim.masked_fill(mask, float("-inf"))
    targets = torch.cat([torch.arange(N, 2 * N), torch.arange(0, N)])
    if verbose:
        print("  targets:", targets)
        print("  row 0 after masking:", sim[0])
    return F.cross_entropy(sim, targets)


def nt_xent_explicit(z1, z2, temperature=0.5):
    """Same loss written with logsumexp over the negatives, as many blog posts do."""
    N = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = F.cosine_similarity(z.unsqueeze(1), z.unsqueeze(0), dim=2) / temperature
    pos = torch.cat([torch.diag(sim, N), torch.diag(sim, -N)])
    neg_mask = ~torch.eye(2 * N, dtype=torch.bool)
    denom = torch.logsumexp(sim.masked_select(neg_mask).view(2 * N, 2 * N - 1), dim=1)
    return (denom - pos).mean()


# toy data: 4 "classes" of coloured blobs
def make_batch(n):
    cls = torch.randint(0, 4, (n,))
    base = torch.zeros(n, 3, 12, 12)
    for i in range(n):
        c = int(cls[i])
        base[i, c % 3, 2 + c : 8 + c, 2:10] = 1.0
    return base, cls


x, cls = make_batch(8)
print("batch:", x.shape, "classes:", cls)
v1, v2 = augment(x), augment(x)
print("views:", v1.shape, v2.dtype, "view diff mean:", (v1 - v2).abs().mean().item())

enc = Encoder()
h1, z1 = enc(v1)
h2, z2 = enc(v2)
print("h:", h1.shape, "z:", z1.shape)
loss = nt_xent(z1, z2, verbose=True)
loss2 = nt_xent_explicit(z1, z2)
print(
    "NT-Xent:",
    loss.item(),
    "explicit:",
    loss2.item(),
    "close:",
    torch.allclose(loss, loss2, atol=1e-5),
)
print("lower bound check  log(2N-1):", torch.log(torch.tensor(15.0)).item())

# identical views -> low loss, random views -> around log(2N-1)
zr = torch.randn(8, 16)
print("identical embeddings loss:", nt_xent(zr, zr, temperature=0.1).item())
print("random embeddings loss:", nt_xent(zr, torch.randn(8, 16), temperature=0.1).item())
for t in [0.05, 0.1, 0.5, 1.0]:
    print(f"temperature {t}: loss {nt_xent(z1, z2, temperature=t).item():.5f}")

# training loop
opt = torch.optim.AdamW(enc.parameters(), lr=3e-3, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=15, eta_min=1e-4)
for step in range(15):
    xb, _ = make_batch(16)
    a, b = augment(xb), augment(xb)
    _, za = enc(a)
    _, zb = enc(b)
    l = nt_xent(za, zb, temperature=0.2)
    opt.zero_grad()
    l.backward()
    opt.step()
    sched.step()
    if step % 3 == 0:
        with torch.no_grad():
            zn = F.normalize(torch.cat([za, zb]), dim=1)
            pos_sim = (zn[:16] * zn[16:]).sum(1).mean()
        print(
            f"step {step:2d} loss {l.item():.5f} pos cos-sim {pos_sim.item():.4f} lr {sched.get_last_lr()[0]:.6f}"
        )

# linear probe style evaluation: kNN accuracy on features
enc.eval()
with torch.no_grad():
    xs, ys = make_batch(40)
    feats, _ = enc(xs)
    feats = F.normalize(feats, dim=1)
    sim = feats @ feats.T
    sim.fill_diagonal_(-2.0)
    nn_idx = sim.argmax(dim=1)
    knn_acc = (ys[nn_idx] == ys).float().mean()
    print("1-NN accuracy on features:", knn_acc.item())
    print("feature std per dim (first 5):", feats.std(0)[:5])
    print(
        "alignment/uniformity:",
        (2 - 2 * (feats[:20] * feats[20:]).sum(1)).mean().item(),
        torch.pdist(feats, p=2).pow(2).mul(-2).exp().mean().log().item(),
    )

# F.normalize edge cases
print("normalize zero vector:", F.normalize(torch.zeros(1, 3), dim=1))
print("normalize p=1:", F.normalize(torch.tensor([[1.0, -3.0]]), p=1, dim=1))
print(
    "cosine_similarity broadcast:",
    F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0], [0.0, 1.0]])),
)
try:
    nt_xent(torch.randn(4, 16), torch.randn(5, 16))
except Exception as e:
    print("mismatched batch error:", type(e).__name__, e)
