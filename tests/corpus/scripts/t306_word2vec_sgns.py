"""Word2vec skip-gram with negative sampling, from scratch"""

import collections
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)

corpus = """the king rules the kingdom the queen rules the kingdom
the king and the queen live in the castle a man works in the field
a woman works in the field the man and the woman walk to the castle
the prince is the son of the king the princess is the daughter of the queen""".split()
print("tokens:", len(corpus))
counts = collections.Counter(corpus)
vocab = sorted(counts, key=lambda w: (-counts[w], w))
w2i = {w: i for i, w in enumerate(vocab)}
i2w = {i: w for w, i in w2i.items()}
V = len(vocab)
print("vocab size:", V, "top-5:", vocab[:5])
ids = torch.tensor([w2i[w] for w in corpus])
print("ids[:12]:", ids[:12])

# subsampling probabilities (Mikolov) and unigram^0.75 noise distribution
freq = torch.tensor([counts[w] for w in vocab], dtype=torch.float32)
f = freq / freq.sum()
t = 1e-2
p_keep = ((t / f).sqrt() + t / f).clamp(max=1.0)
print(
    "keep prob for 'the':", p_keep[w2i["the"]].item(), "for 'castle':", p_keep[w2i["castle"]].item()
)
noise = freq.pow(0.75)
noise = noise / noise.sum()
print("noise dist top-3:", noise[:3], "sum:", noise.sum().item())


def make_pairs(ids, window=2):
    centers, contexts = [], []
    n = len(ids)
    for i in range(n):
        for j in range(max(0, i - window), min(n, i + window + 1)):
            if j != i:
                centers.append(ids[i])
                contexts.append(ids[j])
    return torch.stack(centers), torch.stack(contexts)


centers, contexts = make_pairs(ids)
print("pairs:", centers.shape, "first 6:", list(zip(centers[:6].tolist(), contexts[:6].tolist())))


class SkipGramNS(nn.Module):
    def __init__(self, V, D):
        super().__init__()
        self.in_embed = nn.Embedding(V, D)
        self.out_embed = nn.Embedding(V, D)
        r = 0.5 / D
        self.in_embed.weight.data.uniform_(-r, r)
        self.out_embed.weight.data.zero_()

    def forward(self, center, context, negatives):
        v = self.in_embed(center)  # (B, D)
        u = self.out_embed(context)  # (B, D)
        u_neg = self.out_embed(negatives)  # (B, K, D)
        pos_score = torch.sum(v * u, dim=1)
        pos_loss = F.logsigmoid(pos_score)
        neg_score = torch.bmm(u_neg, v.unsqueeze(2)).squeeze(2)  # (B, K)
        neg_loss = F.logsigmoid(-neg_score).sum(1)
        return -(pos_loss + neg_loss).mean()


D, K, B = 16, 4, 32
model = SkipGramNS(V, D)
print(model)
print(
    "in_embed weight range:", model.in_embed.weight.min().item(), model.in_embed.weight.max().item()
)

negs = torch.multinomial(noise, B * K, replacement=True).view(B, K)
print("negatives sample:", negs[:2])
l0 = model(centers[:B], contexts[:B], negs)
print("initial loss:", l0.item(), "expected (K+1)*log2:", (K + 1) * math.log(2))

# shapes of the bmm trick
v = model.in_embed(centers[:3])
un = model.out_embed(negs[:3])
print("bmm shapes:", un.shape, v.unsqueeze(2).shape, torch.bmm(un, v.unsqueeze(2)).shape)
print(
    "einsum equals bmm:",
    torch.allclose(torch.einsum("bkd,bd->bk", un, v), torch.bmm(un, v.unsqueeze(2)).squeeze(2)),
)
print(
    "logsigmoid vs log(sigmoid):",
    F.logsigmoid(torch.tensor([-20.0, 0.0, 20.0])),
    torch.log(torch.sigmoid(torch.tensor([-20.0, 0.0, 20.0]))),
)
print("nn.LogSigmoid module:", nn.LogSigmoid()(torch.tensor([1.0])))

opt = torch.optim.Adam(model.parameters(), lr=0.02)
num_pairs = centers.numel()
for epoch in range(25):
    perm = torch.randperm(num_pairs)
    total = 0.0
    nb = 0
    for i in range(0, num_pairs, B):
        idx = perm[i : i + B]
        c, o = centers[idx], contexts[idx]
        keep = torch.rand(len(idx)) < p_keep[c]
        if keep.sum() == 0:
            continue
        c, o = c[keep], o[keep]
        ng = torch.multinomial(noise, c.numel() * K, replacement=True).view(-1, K)
        loss = model(c, o, ng)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        nb += 1
    if epoch % 5 == 0 or epoch == 24:
        print(f"epoch {epoch:2d} avg loss {total / nb:.5f} batches {nb}")

emb = F.normalize(model.in_embed.weight.detach(), dim=1)


def most_similar(word, k=3):
    sims = emb @ emb[w2i[word]]
    sims[w2i[word]] = -1
    vals, inds = sims.topk(k)
    return [(i2w[i], round(v, 3)) for i, v in zip(inds.tolist(), vals.tolist())]


for w in ["king", "queen", "man", "field"]:
    print(f"most similar to {w!r}:", most_similar(w))
print("sim(king, queen):", torch.dot(emb[w2i["king"]], emb[w2i["queen"]]).item())
analogy = emb[w2i["king"]] - emb[w2i["man"]] + emb[w2i["woman"]]
sims = F.cosine_similarity(analogy.unsqueeze(0), emb)
print("analogy king-man+woman top-3:", [i2w[i] for i in sims.topk(3).indices.tolist()])

# Embedding features: padding_idx, max_norm, from_pretrained, EmbeddingBag
e = nn.Embedding(5, 3, padding_idx=0)
print("padding row zero:", e.weight[0])
out = e(torch.tensor([[0, 2, 0]]))
out.sum().backward()
print("padding grad:", e.weight.grad[0], "row2 grad:", e.weight.grad[2])
pre = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=True)
print("from_pretrained:", pre(torch.tensor([3, 1])), "requires_grad:", pre.weight.requires_grad)
mn = nn.Embedding(4, 3, max_norm=1.0)
with torch.no_grad():
    mn.weight.mul_(10)
_ = mn(torch.tensor([1, 2]))
print("max_norm renorm:", mn.weight.norm(dim=1))
bag = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="mean")
print("EmbeddingBag mean:", bag(torch.tensor([0, 1, 2, 3]), torch.tensor([0, 1])))
bag_sum = nn.EmbeddingBag(4, 3, mode="sum")
print("EmbeddingBag 2D input:", bag_sum(torch.tensor([[0, 1], [2, 3]])).shape)
print("F.embedding:", F.embedding(torch.tensor([1]), torch.eye(3)))
print("one_hot:", F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))
try:
    e(torch.tensor([5]))
except IndexError as err:
    print("embedding index error:", err)
try:
    print("embedding with -1 (pad marker bug):", e(torch.tensor([2, -1])))
except IndexError as err:
    print("embedding negative index error:", err)
try:
    e(torch.tensor([1.0]))
except RuntimeError as err:
    print("embedding float index error:", str(err)[:100])
