"""A map-style Dataset subclass, samples as dicts and tuples, the default collate."""

import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        x = torch.tensor([float(idx)])
        return {"x": x, "y": x**2, "idx": idx, "name": f"item{idx}"}


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, idx):
        return torch.full((2,), float(idx)), idx * 0.5


ds = Squares(7)
print(len(ds), ds[2])
for batch in DataLoader(ds, batch_size=3):
    print(batch["x"].shape, batch["y"].flatten(), batch["idx"], batch["name"])
for features, value in DataLoader(Pairs(), batch_size=2):
    print(features, value)
print(next(iter(DataLoader([1, 2, 3, 4], batch_size=3))))
print(next(iter(DataLoader([[1.0, 2.0], [3.0, 4.0]], batch_size=2))))
