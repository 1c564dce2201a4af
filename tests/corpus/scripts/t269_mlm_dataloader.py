""" "How to use a PyTorch DataLoader": datasets, samplers, collate functions."""

import torch
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    random_split,
)

torch.manual_seed(11)

X = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.tensor([0, 1, 0, 1, 1, 0, 0, 1, 0, 0])
ds = TensorDataset(X, y)
print("len:", len(ds), "item 3:", ds[3])
print("tensors:", [t.shape for t in ds.tensors])
print("slice item:", ds[2:4])

loader = DataLoader(ds, batch_size=4)
print("num batches:", len(loader))
for i, (xb, yb) in enumerate(loader):
    print(" batch", i, xb.shape, yb.tolist())

loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(1))
for epoch in range(2):
    print(" epoch", epoch, [yb.tolist() for _, yb in loader])
print("drop_last batches:", len(DataLoader(ds, batch_size=4, drop_last=True)))

# default shuffle uses the global generator
for xb, yb in DataLoader(ds, batch_size=5, shuffle=True):
    print(" global-shuffled first column:", xb[:, 0].tolist())


class CSVLikeDataset(Dataset):
    """Rows of (features..., label) as if read from a CSV."""

    def __init__(self, n=12):
        self.rows = [[float(i), float(i % 3), float(i * i % 5), i % 2] for i in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, idx):
        *feat, label = self.rows[idx]
        return torch.tensor(feat), torch.tensor(label)


cds = CSVLikeDataset()
print("custom item:", cds[5])
xb, yb = next(iter(DataLoader(cds, batch_size=3)))
print("custom batch:", xb, yb, yb.dtype)


# dict samples collate into a dict of batched tensors
class DictDataset(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "id": i, "name": f"s{i}"}


batch = next(iter(DataLoader(DictDataset(), batch_size=3)))
print("dict batch:", batch)
print("default_collate tuples:", default_collate([(1, 2.0), (3, 4.0)]))

# variable-length sequences need a custom collate_fn
seqs = [torch.arange(n) for n in [3, 1, 4, 2, 5]]


def pad_collate(batch):
    lengths = torch.tensor([len(s) for s in batch])
    padded = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=-1)
    return padded, lengths


for padded, lengths in DataLoader(seqs, batch_size=2, collate_fn=pad_collate):
    print(" padded:", padded.tolist(), "lengths", lengths.tolist())
try:
    next(iter(DataLoader(seqs, batch_size=2)))
except RuntimeError as e:
    print("RuntimeError:", e)

# random_split / Subset / ConcatDataset
train_ds, val_ds = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print("split sizes:", len(train_ds), len(val_ds), "val indices:", val_ds.indices)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print("fractional split:", list(a), list(b), list(c))
sub = Subset(ds, [0, 2, 4])
print("subset:", [sub[i][1].item() for i in range(len(sub))])
cat = ConcatDataset([sub, cds])
print("concat len:", len(cat), "cumulative:", cat.cumulative_sizes, "item 4:", cat[4])

# samplers
print("sequential:", list(SequentialSampler(range(5))))
print("random:", list(RandomSampler(range(6), generator=torch.Generator().manual_seed(3))))
print(
    "random w/ replacement:",
    list(
        RandomSampler(
            range(6), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(3)
        )
    ),
)
print(
    "subset random:",
    list(SubsetRandomSampler([10, 20, 30, 40], generator=torch.Generator().manual_seed(5))),
)
print(
    "batch sampler:", list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
)

# class imbalance: WeightedRandomSampler
counts = torch.bincount(y)
class_w = 1.0 / counts.float()
sample_w = class_w[y]
print("class counts:", counts, "sample weights:", sample_w)
sampler = WeightedRandomSampler(
    sample_w, num_samples=20, replacement=True, generator=torch.Generator().manual_seed(9)
)
drawn = torch.tensor(list(sampler))
print("drawn:", drawn.tolist())
print("drawn label balance:", torch.bincount(y[drawn]).tolist())
wl = DataLoader(ds, batch_size=5, sampler=sampler)
print("weighted loader labels:", [yb.tolist() for _, yb in wl])

try:
    DataLoader(ds, batch_size=2, shuffle=True, sampler=sampler)
except ValueError as e:
    print("ValueError:", e)

# a training loop over the loader
model = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
lossf = torch.nn.CrossEntropyLoss()
for epoch in range(3):
    total, n = 0.0, 0
    for xb, yb in DataLoader(
        ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(epoch)
    ):
        loss = lossf(model(xb / 20), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        n += len(xb)
    print(f"epoch {epoch} mean loss {total / n:.6f}")
