# Dataset and DataLoader in depth: a map-style Dataset with a transform, Subset, ConcatDataset,
# random_split with a generator, samplers (Sequential, Random, SubsetRandom, WeightedRandom,
# BatchSampler), drop_last, a padding collate_fn, and an IterableDataset.
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    random_split,
)
from torch.utils.data.dataloader import default_collate


class SquaresDataset(Dataset):
    def __init__(self, n, transform=None):
        self.x = torch.arange(n, dtype=torch.float32)
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        x = self.x[idx]
        y = x**2
        if self.transform is not None:
            x = self.transform(x)
        return {"x": x, "y": y, "idx": idx}


ds = SquaresDataset(10, transform=lambda v: v / 10)
print(len(ds), ds[3])
batch = next(iter(DataLoader(ds, batch_size=4)))
print(batch)
print(default_collate([(torch.tensor([1.0, 2.0]), 0), (torch.tensor([3.0, 4.0]), 1)]))

sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[0]["y"], sub.indices)
both = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 14))])
print(len(both), both[4], both.cumulative_sizes)
train, val, test = random_split(range(10), [6, 2, 2], generator=torch.Generator().manual_seed(42))
print(list(train), list(val), list(test))
parts = random_split(
    TensorDataset(torch.arange(10)), [0.7, 0.3], generator=torch.Generator().manual_seed(0)
)
print([len(p) for p in parts], parts[1].indices)

print(list(SequentialSampler(range(5))))
torch.manual_seed(0)
print(list(RandomSampler(range(5))))
print(list(RandomSampler(range(5), replacement=True, num_samples=7)))
print(list(SubsetRandomSampler([10, 20, 30, 40])))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], num_samples=8, replacement=True)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(10), batch_size=3, drop_last=True)))

g = torch.Generator()
g.manual_seed(7)
loader = DataLoader(
    TensorDataset(torch.arange(10), torch.arange(10) * 2),
    batch_size=4,
    shuffle=True,
    drop_last=True,
    generator=g,
)
print(len(loader))
for xb, yb in loader:
    print(xb, yb)

# class imbalance: weights inverse to class frequency
labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 0])
class_counts = torch.bincount(labels)
weights = 1.0 / class_counts[labels].float()
torch.manual_seed(3)
sampler = WeightedRandomSampler(weights, num_samples=20, replacement=True)
drawn = labels[list(sampler)]
print(class_counts, weights, torch.bincount(drawn, minlength=3))

# variable-length sequences padded by a collate_fn
seqs = [
    torch.tensor([1, 2, 3]),
    torch.tensor([4, 5]),
    torch.tensor([6]),
    torch.tensor([7, 8, 9, 10]),
]


def pad_collate(batch):
    lengths = torch.tensor([len(s) for s in batch])
    padded = pad_sequence(batch, batch_first=True, padding_value=0)
    return padded, lengths


for padded, lengths in DataLoader(seqs, batch_size=2, collate_fn=pad_collate):
    print(padded, lengths)
print(pad_sequence(seqs).shape)


class CountStream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


print(list(DataLoader(CountStream(3, 10), batch_size=3)))
print([b.tolist() for b in DataLoader(CountStream(0, 5), batch_size=2, drop_last=True)])
print(DataLoader(ds, batch_size=3).batch_size, type(DataLoader(ds).sampler).__name__)
