"""Real Python / DigitalOcean style: linear regression from scratch, then custom Dataset + collate_fn"""

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(2024)

# ---- Part 1: linear regression from scratch ----
n = 100
X = torch.linspace(0, 10, n).unsqueeze(1)
y = 2.5 * X + 1.0 + torch.randn(n, 1) * 0.8
print("X:", X.shape, X.dtype, "first rows:", X[:3].squeeze())
print("y[:5]:", y[:5].squeeze())

# closed form with lstsq / normal equations
Xb = torch.cat([X, torch.ones(n, 1)], dim=1)
theta = torch.linalg.lstsq(Xb, y).solution
print("lstsq solution:", theta.squeeze())
theta_ne = torch.linalg.solve(Xb.T @ Xb, Xb.T @ y)
print("normal eq solution:", theta_ne.squeeze())
print("pinv solution:", (torch.linalg.pinv(Xb) @ y).squeeze())

# gradient descent by hand
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.01
for epoch in range(301):
    y_hat = X * w + b
    loss = ((y_hat - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if epoch % 50 == 0:
        print(f"epoch {epoch:3d} loss {loss.item():.5f} w {w.item():.5f} b {b.item():.5f}")

# manual gradients vs autograd
with torch.no_grad():
    resid = X * w + b - y
    gw = 2 * (resid * X).mean()
    gb = 2 * resid.mean()
print("manual grads:", gw.item(), gb.item())
loss = ((X * w + b - y) ** 2).mean()
loss.backward()
print("autograd grads:", w.grad.item(), b.grad.item())

ss_res = ((y - (X * w + b)) ** 2).sum()
ss_tot = ((y - y.mean()) ** 2).sum()
print("R^2:", (1 - ss_res / ss_tot).item())

# nn.Linear version with SGD
model = torch.nn.Linear(1, 1)
print("initial params:", model.weight.data, model.bias.data)
opt = torch.optim.SGD(model.parameters(), lr=0.02)
Xn = (X - X.mean()) / X.std()
for epoch in range(200):
    opt.zero_grad()
    l = torch.nn.functional.mse_loss(model(Xn), y)
    l.backward()
    opt.step()
print("nn.Linear trained:", model.weight.item(), model.bias.item(), "loss", l.item())
print("converted slope:", (model.weight / X.std()).item())


# ---- Part 2: custom Dataset ----
class SentenceDataset(Dataset):
    vocab = {"<pad>": 0, "<unk>": 1}

    def __init__(self, sentences, labels):
        self.samples = []
        for s, lab in zip(sentences, labels):
            ids = []
            for tok in s.lower().split():
                if tok not in self.vocab:
                    self.vocab[tok] = len(self.vocab)
                ids.append(self.vocab[tok])
            self.samples.append((torch.tensor(ids, dtype=torch.long), lab))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        ids, lab = self.samples[i]
        return {"ids": ids, "label": torch.tensor(lab, dtype=torch.float32), "length": len(ids)}


sents = [
    "the movie was great",
    "terrible plot",
    "I loved every minute of it",
    "not good",
    "what a fantastic film",
    "boring and way too long",
    "great cast",
    "meh",
]
labels = [1, 0, 1, 0, 1, 0, 1, 0]
ds = SentenceDataset(sents, labels)
print("vocab size:", len(ds.vocab))
print("item 2:", ds[2])
print("lengths:", [ds[i]["length"] for i in range(len(ds))])


def collate_fn(batch):
    batch = sorted(batch, key=lambda d: d["length"], reverse=True)
    ids = [d["ids"] for d in batch]
    lengths = torch.tensor([d["length"] for d in batch])
    padded = pad_sequence(ids, batch_first=True, padding_value=0)
    labels = torch.stack([d["label"] for d in batch])
    mask = padded != 0
    return padded, lengths, labels, mask


loader = DataLoader(
    ds,
    batch_size=3,
    shuffle=True,
    collate_fn=collate_fn,
    generator=torch.Generator().manual_seed(5),
)
for i, (padded, lengths, labs, mask) in enumerate(loader):
    print(
        f"batch {i}: padded {tuple(padded.shape)} lengths {lengths.tolist()} labels {labs.tolist()}"
    )
    print(padded)
    print("mask row sums:", mask.sum(1))

# packed sequences through an RNN
emb = torch.nn.Embedding(len(ds.vocab), 4, padding_idx=0)
rnn = torch.nn.GRU(4, 5, batch_first=True)
padded, lengths, labs, mask = collate_fn([ds[i] for i in range(4)])
packed = pack_padded_sequence(emb(padded), lengths, batch_first=True)
print("packed batch_sizes:", packed.batch_sizes)
print("packed data shape:", packed.data.shape)
out, h = rnn(packed)
unpacked, out_lens = pad_packed_sequence(out, batch_first=True)
print("unpacked:", unpacked.shape, out_lens)
print("padding positions are zero:", bool((unpacked[~mask] == 0).all()))
print("h_n equals last valid output:", torch.allclose(h[0], unpacked[torch.arange(4), lengths - 1]))
print("embedding padding row:", emb.weight[0])

# default collate behaviour on dicts / tuples
from torch.utils.data import default_collate

print(
    "default_collate dicts:",
    default_collate([{"a": torch.tensor(1.0), "b": 2}, {"a": torch.tensor(3.0), "b": 4}]),
)
print("default_collate tuples:", default_collate([(torch.zeros(2), 1), (torch.ones(2), 0)]))
try:
    default_collate([ds[0], ds[2]])
except RuntimeError as e:
    print("default collate error:", str(e)[:90])

# TensorDataset + drop_last + sampler
tds = TensorDataset(torch.arange(10).float(), torch.arange(10) % 2)
dl = DataLoader(tds, batch_size=4, drop_last=True)
print("drop_last batches:", [xb.tolist() for xb, _ in dl])
sampler = torch.utils.data.WeightedRandomSampler(
    weights=[0.1] * 5 + [1.0] * 5,
    num_samples=8,
    replacement=True,
    generator=torch.Generator().manual_seed(0),
)
print("weighted sample idx:", list(sampler))
dl2 = DataLoader(tds, batch_size=5, sampler=torch.utils.data.SequentialSampler(tds))
print("sequential:", [yb.tolist() for _, yb in dl2])
bs = torch.utils.data.BatchSampler(
    torch.utils.data.SequentialSampler(range(7)), batch_size=3, drop_last=False
)
print("batch sampler:", list(bs))
cd = torch.utils.data.ConcatDataset([tds, tds])
print("concat len:", len(cd), cd[12])

# ---- IterableDataset, random_split with fractions, Subset, namedtuple collate ----
import collections

from torch.utils.data import IterableDataset, Subset, random_split


class Countdown(IterableDataset):
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        for i in range(self.start, 0, -1):
            yield torch.tensor([float(i), float(i) ** 2])


print("iterable batches:", [b.tolist() for b in DataLoader(Countdown(5), batch_size=2)])
parts = random_split(range(10), [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(1))
print("random_split fractions:", [len(p) for p in parts], [list(p) for p in parts])
try:
    random_split(range(10), [5, 6])
except ValueError as e:
    print("random_split error:", e)
sub = Subset(tds, [9, 0, 4])
print("Subset:", [sub[i] for i in range(len(sub))])
Point = collections.namedtuple("Point", ["x", "y"])
print(
    "namedtuple collate:",
    default_collate([Point(torch.tensor(1.0), 2), Point(torch.tensor(3.0), 4)]),
)
print(
    "numpy collate:",
    default_collate([__import__("numpy").array([1.0, 2.0]), __import__("numpy").array([3.0, 4.0])]),
)
print("string collate:", default_collate(["a", "b"]))
g = torch.Generator().manual_seed(3)
print("generator randperm:", torch.randperm(6, generator=g), "rand:", torch.rand(2, generator=g))
g2 = torch.Generator()
g2.set_state(torch.Generator().manual_seed(3).get_state())
print("generator state roundtrip:", torch.randperm(6, generator=g2))
st = torch.get_rng_state()
a1 = torch.rand(3)
torch.set_rng_state(st)
print("rng state restore equal:", torch.equal(a1, torch.rand(3)))
print("initial_seed:", torch.Generator().manual_seed(77).initial_seed())
loader = DataLoader(tds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
print("shuffled epoch 1:", [yb.tolist() for _, yb in loader])
print("shuffled epoch 2:", [xb.tolist() for xb, _ in loader])
it = iter(loader)
print("next(iter):", next(it)[0])
print("len(loader):", len(loader), "dataset type:", type(loader.dataset).__name__)
