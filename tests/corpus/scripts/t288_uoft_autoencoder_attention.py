"""UofT CSC413/2516 style: autoencoders (MLP and convolutional) and attention from scratch."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2516)

# data: 8x8 images of a blurred blob at a random place
yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
centres = torch.rand(200, 2) * 6 + 1
imgs = torch.exp(
    -((yy - centres[:, 0, None, None]) ** 2 + (xx - centres[:, 1, None, None]) ** 2) / 2.0
)
imgs = imgs.unsqueeze(1)
print(imgs.shape, imgs.max().item(), imgs.min().item())
print(imgs[0, 0, 2:5, 2:5])


class Autoencoder(nn.Module):
    def __init__(self, code=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, code)
        )
        self.decoder = nn.Sequential(
            nn.Linear(code, 32),
            nn.ReLU(),
            nn.Linear(32, 64),
            nn.Sigmoid(),
            nn.Unflatten(1, (1, 8, 8)),
        )

    def forward(self, x):
        return self.decoder(self.encoder(x))


class ConvAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 8, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(8, 1, 3, stride=2, padding=1, output_padding=1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z)


def train_ae(model, epochs=10, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        perm = torch.randperm(200)
        for i in range(0, 200, 50):
            x = imgs[perm[i : i + 50]]
            recon = model(x)
            loss = F.mse_loss(recon, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 3 == 0 or epoch == epochs - 1:
            print(f"Epoch:{epoch + 1}, Loss:{loss.item():.4f}")
    return model


torch.manual_seed(0)
ae = train_ae(Autoencoder())
print(ae.encoder(imgs[:3]))
torch.manual_seed(0)
cae = ConvAutoencoder()
print(cae)
print(cae.encoder(imgs[:2]).shape, cae(imgs[:2]).shape)
train_ae(cae, epochs=7)
with torch.no_grad():
    r = cae(imgs[:1])
print(r[0, 0, 3].round(decimals=3), F.mse_loss(r, imgs[:1], reduction="sum"))

# denoising: corrupt with masks
torch.manual_seed(3)
mask = torch.bernoulli(torch.full_like(imgs[:4], 0.8))
print(mask.mean(), mask.dtype)
noisy = imgs[:4] * mask
with torch.no_grad():
    print(F.mse_loss(ae(noisy), imgs[:4]).item(), F.mse_loss(noisy, imgs[:4]).item())

# ---- attention ----
torch.manual_seed(10)
B, T, Dm = 2, 5, 8
q = torch.randn(B, T, Dm)
k = torch.randn(B, T, Dm)
v = torch.randn(B, T, Dm)


def attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    w = F.softmax(scores, dim=-1)
    return w @ v, w


out, w = attention(q, k, v)
print(out.shape, w.shape)
print(w[0])
print(w.sum(-1))
causal = torch.tril(torch.ones(T, T))
out_c, w_c = attention(q, k, v, causal)
print(w_c[1])
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(torch.allclose(ref, out_c, atol=1e-6), (ref - out_c).abs().max())
ref2 = F.scaled_dot_product_attention(q, k, v, attn_mask=causal.bool())
print(torch.allclose(ref2, out_c, atol=1e-6))

# nn.MultiheadAttention
torch.manual_seed(11)
mha = nn.MultiheadAttention(embed_dim=Dm, num_heads=2, batch_first=True)
print(mha)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
o, aw = mha(q, k, v)
print(o.shape, aw.shape)
print(aw[0])
o2, aw2 = mha(q, q, q, average_attn_weights=False)
print(aw2.shape)
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
o3, aw3 = mha(q, k, v, key_padding_mask=kpm)
print(aw3[0, :, 3:])
o4, _ = mha(
    q, q, q, attn_mask=torch.triu(torch.ones(T, T, dtype=torch.bool), 1), need_weights=False
)
print(o4[0, 0], _)


# additive (Bahdanau) attention over encoder states
class Additive(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)
        self.U = nn.Linear(d, d)
        self.v = nn.Linear(d, 1, bias=False)

    def forward(self, s, H):
        e = self.v(torch.tanh(self.W(s).unsqueeze(1) + self.U(H))).squeeze(-1)
        a = F.softmax(e, dim=1)
        ctx = torch.bmm(a.unsqueeze(1), H).squeeze(1)
        return ctx, a


torch.manual_seed(12)
add = Additive(Dm)
ctx, a = add(q[:, 0], k)
print(ctx.shape, a)
loss = ctx.pow(2).sum()
loss.backward()
print(add.v.weight.grad)

# similarity-based attention and embedding helpers from the lab
torch.manual_seed(13)
emb = nn.Embedding(10, 4, max_norm=1.0)
ids = torch.tensor([[1, 2, 3], [3, 4, 0]])
e = emb(ids)
print(e.shape, e.norm(dim=-1))
print(F.one_hot(ids, num_classes=6))
print(F.one_hot(torch.tensor([2, 0])).float() @ torch.arange(9.0).view(3, 3))
bag = nn.EmbeddingBag(10, 3, mode="mean")
print(bag(torch.tensor([1, 2, 4, 5, 4]), torch.tensor([0, 2])))
pre = nn.Embedding.from_pretrained(torch.eye(3), freeze=True)
print(pre(torch.tensor([2, 0])), pre.weight.requires_grad)
a_ = torch.randn(3, 4)
b_ = torch.randn(3, 4)
print(F.cosine_similarity(a_, b_), F.cosine_similarity(a_[:, None], b_[None], dim=-1))
print(
    F.pairwise_distance(a_, b_),
    F.normalize(a_, dim=1).norm(dim=1),
    F.normalize(a_, p=1, dim=0).abs().sum(0),
)
print(nn.CosineSimilarity(dim=0)(a_, b_), nn.PairwiseDistance(p=1)(a_, b_))
bil = nn.Bilinear(4, 4, 2)
print(bil(a_, b_).shape, bil.weight.shape)
print(
    F.cosine_embedding_loss(a_, b_, torch.tensor([1, -1, 1])),
    F.triplet_margin_loss(a_, b_, b_.flip(0)),
)
print(
    F.margin_ranking_loss(a_[:, 0], b_[:, 0], torch.tensor([1.0, -1.0, 1.0])),
    F.hinge_embedding_loss(a_, torch.ones(3, 4)),
)
print(
    F.kl_div(F.log_softmax(a_, 1), F.softmax(b_, 1), reduction="batchmean"),
    F.poisson_nll_loss(a_, b_.abs()),
)
print(
    F.gaussian_nll_loss(a_, b_, torch.ones(3, 4)),
    F.soft_margin_loss(a_, torch.ones(3, 4).sign()),
    F.multilabel_soft_margin_loss(a_, (b_ > 0).float()),
)
t_ = torch.tensor([[0.1, 0.9], [0.8, 0.2]])
print(
    F.softmin(t_, dim=1), F.log_softmax(t_, dim=0), F.gumbel_softmax(t_.log(), tau=0.5, hard=True)
)
print(
    F.glu(torch.arange(4.0).view(1, 4)),
    F.hardtanh(torch.tensor([-2.0, 0.5, 2.0])),
    F.softsign(torch.tensor([1.0])),
    F.tanhshrink(torch.tensor([1.0])),
)
