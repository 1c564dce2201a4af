"""Rao & McMahan style: CBOW word embeddings on a tiny synthetic corpus, then skip-gram with negative sampling,
EmbeddingBag, pretrained embeddings and nearest neighbours."""

import collections
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

random.seed(0)
torch.manual_seed(0)

animals = ["cat", "dog", "horse", "cow", "sheep"]
foods = ["bread", "apple", "cheese", "rice", "soup"]
verbs_a = ["runs", "sleeps", "jumps"]
verbs_f = ["tastes", "smells", "cooks"]
adj = ["good", "fast", "warm", "fresh"]
sentences = []
for _ in range(300):
    if random.random() < 0.5:
        sentences.append(
            f"the {random.choice(animals)} {random.choice(verbs_a)} very {random.choice(adj)}"
        )
    else:
        sentences.append(
            f"this {random.choice(foods)} {random.choice(verbs_f)} so {random.choice(adj)}"
        )
print(sentences[:3])

tokens = [s.split() for s in sentences]
counter = collections.Counter(w for s in tokens for w in s)
print("most common:", counter.most_common(5))
itos = ["<MASK>", "<UNK>"] + sorted(counter)
stoi = {w: i for i, w in enumerate(itos)}
print("vocab size:", len(itos))

WINDOW = 2


def make_cbow(tokens, window=WINDOW):
    ctx, tgt = [], []
    for s in tokens:
        idx = [stoi[w] for w in s]
        for i in range(len(idx)):
            c = idx[max(0, i - window) : i] + idx[i + 1 : i + 1 + window]
            c = c + [stoi["<MASK>"]] * (2 * window - len(c))
            ctx.append(c)
            tgt.append(idx[i])
    return torch.tensor(ctx), torch.tensor(tgt)


X, Y = make_cbow(tokens)
print("cbow X", X.shape, X.dtype, "Y", Y.shape)
print("first context:", [itos[i] for i in X[1]], "->", itos[Y[1]])


class CBOWClassifier(nn.Module):
    def __init__(self, vocabulary_size, embedding_size, padding_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(
            num_embeddings=vocabulary_size, embedding_dim=embedding_size, padding_idx=padding_idx
        )
        self.fc1 = nn.Linear(in_features=embedding_size, out_features=vocabulary_size)

    def forward(self, x_in, apply_softmax=False):
        x_embedded_sum = F.dropout(self.embedding(x_in).sum(dim=1), 0.3, training=self.training)
        y_out = self.fc1(x_embedded_sum)
        if apply_softmax:
            y_out = F.softmax(y_out, dim=1)
        return y_out


model = CBOWClassifier(len(itos), 16)
print(model)
print(
    "embedding weight:", model.embedding.weight.shape, "padding row:", model.embedding.weight[0, :4]
)
loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    model.train()
    tot, n = 0.0, 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(xb)
        n += len(xb)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == Y).float().mean()
    print(f"epoch {epoch}: loss {tot / n:.4f} acc {acc:.4f}")

emb = model.embedding.weight.detach()
print("padding row still zero:", emb[0].abs().sum().item())


def nearest(word, emb, k=3):
    v = emb[stoi[word]]
    sims = F.cosine_similarity(v.unsqueeze(0), emb, dim=1)
    sims[stoi[word]] = -2
    sims[:2] = -2
    vals, idx = sims.topk(k)
    return [(itos[i], round(s, 3)) for i, s in zip(idx.tolist(), vals.tolist())]


for w in ["cat", "bread", "runs"]:
    print(w, "->", nearest(w, emb))

normed = F.normalize(emb[2:], p=2, dim=1)
sim = normed @ normed.T
print(
    "sim matrix:",
    sim.shape,
    "diag ~1:",
    torch.allclose(sim.diag(), torch.ones(len(itos) - 2), atol=1e-5),
)
print("cdist:", torch.cdist(emb[stoi["cat"]][None], emb[[stoi["dog"], stoi["soup"]]]))
print("pairwise_distance:", F.pairwise_distance(emb[stoi["cat"]][None], emb[stoi["dog"]][None]))
order = torch.argsort(sim[stoi["cat"] - 2], descending=True)
print("argsort top:", [itos[i + 2] for i in order[:4].tolist()])
sv, si = torch.sort(emb[stoi["cat"]], stable=True)
print("sort:", sv[:3], si[:3])


# analogy: cat - runs + tastes ~ some food?
def analogy(a, b, c):
    v = emb[stoi[b]] - emb[stoi[a]] + emb[stoi[c]]
    d = F.cosine_similarity(v[None], emb[2:]).argsort(descending=True)
    return [itos[i + 2] for i in d[:3].tolist() if itos[i + 2] not in (a, b, c)]


print("analogy:", analogy("runs", "cat", "tastes"))

# --- skip-gram with negative sampling
pairs = []
for s in tokens:
    idx = [stoi[w] for w in s]
    for i, c in enumerate(idx):
        for j in range(max(0, i - 2), min(len(idx), i + 3)):
            if i != j:
                pairs.append((c, idx[j]))
pairs = torch.tensor(pairs)
print("skipgram pairs:", pairs.shape)
freq = torch.zeros(len(itos))
for w, c in counter.items():
    freq[stoi[w]] = c
noise = freq**0.75
noise = noise / noise.sum()
print("noise dist (first 6):", noise[:6])
negs = torch.multinomial(noise, num_samples=5 * 4, replacement=True).view(4, 5)
print("negatives:", negs)


class SGNS(nn.Module):
    def __init__(self, V, D):
        super().__init__()
        self.inp = nn.Embedding(V, D)
        self.out = nn.Embedding(V, D)
        self.inp.weight.data.uniform_(-0.5 / D, 0.5 / D)
        self.out.weight.data.zero_()

    def forward(self, center, ctx, neg):
        v = self.inp(center)
        u = self.out(ctx)
        un = self.out(neg)
        pos = F.logsigmoid((v * u).sum(-1))
        ng = F.logsigmoid(-torch.bmm(un, v.unsqueeze(2)).squeeze(2)).sum(-1)
        return -(pos + ng).mean()


sg = SGNS(len(itos), 12)
opt = torch.optim.SGD(sg.parameters(), lr=0.5)
for step in range(30):
    b = pairs[torch.randint(0, len(pairs), (128,))]
    neg = torch.multinomial(noise, 128 * 5, replacement=True).view(128, 5)
    loss = sg(b[:, 0], b[:, 1], neg)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"sgns step {step} loss {loss.item():.4f}")

# binary cross entropy view of the same objective
logits = torch.tensor([2.0, -1.0, 0.5])
labels = torch.tensor([1.0, 0.0, 1.0])
print(
    "bce_with_logits:",
    F.binary_cross_entropy_with_logits(logits, labels),
    "manual:",
    -(F.logsigmoid(logits) * labels + F.logsigmoid(-logits) * (1 - labels)).mean(),
)
print("pos_weight:", nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0]))(logits, labels))

# --- EmbeddingBag: mean of a bag of word ids, with offsets
bag = nn.EmbeddingBag(len(itos), 4, mode="mean")
ids = torch.tensor([stoi["the"], stoi["cat"], stoi["runs"], stoi["this"], stoi["soup"]])
offsets = torch.tensor([0, 3])
out = bag(ids, offsets)
print("EmbeddingBag:", out.shape)
print(
    torch.allclose(out[0], bag.weight[ids[:3]].mean(0)),
    torch.allclose(out[1], bag.weight[ids[3:]].mean(0)),
)
print(
    "bag sum 2d:", nn.EmbeddingBag(len(itos), 3, mode="sum")(torch.tensor([[2, 3], [4, 5]])).shape
)

# --- pretrained, frozen embeddings
pre = nn.Embedding.from_pretrained(emb, freeze=True, padding_idx=0)
print("from_pretrained requires_grad:", pre.weight.requires_grad, pre)
print("lookup equal:", torch.equal(pre(torch.tensor([stoi["cat"]])), emb[stoi["cat"]][None]))
mn = nn.Embedding(5, 3, max_norm=1.0)
looked = mn(torch.tensor([0, 1]))
print("max_norm renorm:", looked.norm(dim=1) <= 1.0 + 1e-6)
print("F.embedding:", F.embedding(torch.tensor([[1, 2]]), torch.arange(12.0).view(4, 3)))
try:
    model.embedding(torch.tensor([len(itos) + 5]))
except IndexError as e:
    print("IndexError:", e)
print("one_hot:", F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))

# word counts with torch
ids_all = torch.tensor([stoi[w] for s in tokens for w in s])
u, c = torch.unique(ids_all, return_counts=True)
print("unique:", u[:5], c[:5])
bc = torch.zeros(len(itos), dtype=torch.long).scatter_add_(0, ids_all, torch.ones_like(ids_all))
print(
    "scatter_add matches bincount:", torch.equal(bc, torch.bincount(ids_all, minlength=len(itos)))
)
ia = torch.zeros(len(itos)).index_add_(0, ids_all[:10], torch.ones(10))
print("index_add_:", ia.nonzero().flatten(), ia[ia > 0])
