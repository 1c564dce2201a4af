# torch.utils.data: Dataset, DataLoader, TensorDataset, random_split
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

torch.manual_seed(0)


class SquaresDataset(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        self.y = self.x**2

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


ds = SquaresDataset(10)
print("len:", len(ds), "item 3:", ds[3])

loader = DataLoader(ds, batch_size=4, shuffle=False)
for i, (xb, yb) in enumerate(loader):
    print(f"batch {i}: x={xb.flatten().tolist()} y={yb.flatten().tolist()}")
print("num batches:", len(loader))

g = torch.Generator().manual_seed(123)
loader = DataLoader(ds, batch_size=3, shuffle=True, drop_last=True, generator=g)
for epoch in range(2):
    print("epoch", epoch, [xb.flatten().int().tolist() for xb, _ in loader])

X = torch.randn(20, 3)
Y = (X.sum(1) > 0).long()
tds = TensorDataset(X, Y)
train, val = random_split(tds, [15, 5], generator=torch.Generator().manual_seed(42))
print("split sizes:", len(train), len(val), "val indices:", list(val.indices))


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys)


model = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
train_loader = DataLoader(train, batch_size=5, shuffle=True, collate_fn=collate)
for epoch in range(4):
    total = 0.0
    for xb, yb in train_loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} avg loss {total / len(train):.4f}")

with torch.no_grad():
    vx = torch.stack([val[i][0] for i in range(len(val))])
    vy = torch.stack([val[i][1] for i in range(len(val))])
    acc = (model(vx).argmax(1) == vy).float().mean()
print("val acc:", acc.item())
first = next(iter(DataLoader(tds, batch_size=4)))
print("default collate types:", type(first).__name__, first[0].shape, first[1].dtype)
