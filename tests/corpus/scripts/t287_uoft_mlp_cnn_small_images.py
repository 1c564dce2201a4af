"""UofT CSC413 style lab: MLP vs CNN on small synthetic images, with Dataset / DataLoader utilities."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(42)


# 10x10 grayscale images of 4 shapes: plus, x, square outline, filled disc
def draw(kind, jitter):
    img = torch.zeros(10, 10)
    r, c = 5 + jitter[0], 5 + jitter[1]
    if kind == 0:
        img[r - 3 : r + 2, c - 1] = 1
        img[r - 1, c - 3 : c + 2] = 1
    elif kind == 1:
        for k in range(-2, 3):
            img[r - 1 + k, c - 1 + k] = 1
            img[r - 1 + k, c - 1 - k] = 1
    elif kind == 2:
        img[r - 3 : r + 1, c - 3] = 1
        img[r - 3 : r + 1, c] = 1
        img[r - 3, c - 3 : c + 1] = 1
        img[r, c - 3 : c + 1] = 1
    else:
        yy, xx = torch.meshgrid(torch.arange(10.0), torch.arange(10.0), indexing="ij")
        img[((yy - r + 1) ** 2 + (xx - c + 1) ** 2) <= 4] = 1
    return img


class ShapesDataset(Dataset):
    def __init__(self, n, noise=0.15):
        self.labels = torch.randint(0, 4, (n,))
        jit = torch.randint(-1, 2, (n, 2))
        imgs = torch.stack([draw(int(k), j.tolist()) for k, j in zip(self.labels, jit)])
        self.images = (imgs + noise * torch.randn_like(imgs)).unsqueeze(1)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


full = ShapesDataset(400)
print(len(full), full[0][0].shape, full[0][1], full[0][1].dtype)
train_set, val_set, test_set = torch.utils.data.random_split(
    full, [280, 60, 60], generator=torch.Generator().manual_seed(0)
)
print(len(train_set), len(val_set), len(test_set), train_set.indices[:8])
print(type(train_set).__name__)
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
val_loader = DataLoader(val_set, batch_size=64)
xb, yb = next(iter(train_loader))
print(xb.shape, yb.shape, yb[:8], len(train_loader), len(val_loader))
print(xb.mean().item(), xb.std().item())
td = TensorDataset(full.images[:10], full.labels[:10])
print(td[3][1], len(td), td.tensors[0].shape)
dl = DataLoader(td, batch_size=4, drop_last=True)
print([b[1].tolist() for b in dl])


class MLP(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(), nn.Linear(100, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, 4)
        )

    def forward(self, x):
        return self.net(x)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.drop = nn.Dropout2d(0.1)
        self.fc = nn.Linear(16 * 2 * 2, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.conv2(self.drop(x))))
        x = x.view(x.size(0), -1)
        return self.fc(x)


def get_accuracy(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for imgs, labels in loader:
            output = model(imgs)
            pred = output.max(1, keepdim=True)[1]
            correct += pred.eq(labels.view_as(pred)).sum().item()
            total += imgs.shape[0]
    return correct / total


def train(model, epochs=6, lr=0.01):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    iters, losses, train_acc, val_acc = [], [], [], []
    n = 0
    for epoch in range(epochs):
        model.train()
        for imgs, labels in train_loader:
            out = model(imgs)
            loss = criterion(out, labels)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            iters.append(n)
            losses.append(float(loss) / imgs.shape[0])
            n += 1
        train_acc.append(get_accuracy(model, train_loader))
        val_acc.append(get_accuracy(model, val_loader))
        print(
            f"epoch {epoch} loss {losses[-1]:.6f} train acc {train_acc[-1]:.4f} val acc {val_acc[-1]:.4f}"
        )
    return iters, losses, train_acc, val_acc


torch.manual_seed(1)
mlp = MLP()
print(mlp)
print(sum(p.numel() for p in mlp.parameters() if p.requires_grad))
train(mlp)

torch.manual_seed(1)
cnn = CNN()
print(cnn)
print(cnn.bn1.running_mean, cnn.bn1.num_batches_tracked)
hist = train(cnn, epochs=6, lr=0.02)
print(len(hist[0]), hist[1][:3])
print(cnn.bn1.running_mean, cnn.bn1.running_var, cnn.bn1.num_batches_tracked)
test_loader = DataLoader(test_set, batch_size=60)
print("test acc", get_accuracy(cnn, test_loader))

# confusion matrix with bincount
cnn.eval()
with torch.no_grad():
    xs, ys = next(iter(test_loader))
    preds = cnn(xs).argmax(dim=1)
conf = torch.bincount(ys * 4 + preds, minlength=16).view(4, 4)
print(conf)
print(conf.diag() / conf.sum(1).clamp(min=1))

# feature maps of the first layer for one image
with torch.no_grad():
    fm = cnn.conv1(xs[:1])
print(fm.shape, fm.amax(dim=(2, 3)), fm.flatten(2).argmax(-1))
print(cnn.state_dict().keys())

# ---- more data utilities from the lab handout ----
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    WeightedRandomSampler,
    default_collate,
)

sub = Subset(full, [0, 5, 9])
print(len(sub), sub[1][1], sub.indices)
cat = ConcatDataset([sub, td])
print(len(cat), cat.cumulative_sizes, cat[4][1])
print(
    list(SequentialSampler(range(5))),
    list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)),
)
g = torch.Generator().manual_seed(3)
print(list(RandomSampler(range(6), generator=g)))
counts = torch.bincount(full.labels)
weights = 1.0 / counts[full.labels].float()
print(counts, weights[:5])
sampler = WeightedRandomSampler(
    weights, num_samples=200, replacement=True, generator=torch.Generator().manual_seed(4)
)
wl = DataLoader(full, batch_size=50, sampler=sampler)
seen = torch.cat([yb for _, yb in wl])
print(torch.bincount(seen, minlength=4), len(wl))
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))
print(
    default_collate([{"x": torch.tensor(1.0), "name": "a"}, {"x": torch.tensor(2.0), "name": "b"}])
)


def pad_collate(batch):
    seqs, ys = zip(*batch)
    lens = torch.tensor([len(s) for s in seqs])
    out = torch.zeros(len(seqs), int(lens.max()))
    for i, s in enumerate(seqs):
        out[i, : len(s)] = s
    return out, lens, torch.tensor(ys)


var_data = [(torch.arange(1.0, n + 1), n % 2) for n in [3, 1, 4, 2, 5]]
for batch in DataLoader(var_data, batch_size=2, collate_fn=pad_collate):
    print(batch)
torch.manual_seed(9)
print([b[1].tolist() for b in DataLoader(td, batch_size=3, shuffle=True)])
gen = torch.Generator()
gen.manual_seed(11)
print([b[1].tolist() for b in DataLoader(td, batch_size=5, shuffle=True, generator=gen)])
try:
    next(iter(DataLoader(var_data, batch_size=2)))
except RuntimeError as e:
    print("RuntimeError:", e)


class Squares(torch.utils.data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([float(i) ** 2])


print([b.view(-1).tolist() for b in DataLoader(Squares(5), batch_size=2)])


# ---- "common errors" section of the lab handout ----
def show(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split("\n")[0][:200])


lin = nn.Linear(3, 5)
show(lambda: lin(torch.randn(4, 2)))
show(lambda: lin(torch.randn(4, 3, dtype=torch.float64)))
show(lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 5, 2])))
show(lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0.0, 1.0, 2.0, 1.0])))
show(lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([[0], [1], [2], [1]])))
show(lambda: F.nll_loss(torch.randn(4, 3), torch.tensor([0, 1, 2])))
show(lambda: F.binary_cross_entropy(torch.rand(4, 1), torch.rand(4)))
show(lambda: F.binary_cross_entropy_with_logits(torch.rand(4, 1), torch.rand(4)))
show(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
show(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
show(lambda: torch.optim.SGD([], lr=0.1))
show(lambda: torch.optim.SGD(lin.parameters(), lr=-1))
show(lambda: torch.ones(2, requires_grad=True).numpy())
show(lambda: torch.ones(4).item())
show(lambda: nn.Conv2d(1, 2, 3)(torch.randn(5, 5)))
show(lambda: nn.Conv2d(1, 2, 3)(torch.randn(1, 1, 1, 5, 5)))
show(lambda: nn.MaxPool2d(2)(torch.randn(1, 1, 1, 1)))
show(lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 6)))
show(lambda: bool(torch.tensor([1, 0])))
show(lambda: nn.Module()(torch.ones(1)))
show(lambda: torch.load("does_not_exist.pt"))
show(lambda: nn.BatchNorm2d(3)(torch.randn(2, 4, 5, 5)))
show(lambda: nn.Flatten()(torch.randn(3)).shape)
show(lambda: F.softmax(torch.randn(3)))
show(lambda: torch.randn(2, 3).view(4, 2))
show(lambda: torch.randn(2, 3)[:, [0, 5]])
show(lambda: torch.randn(2, 3).sum(dim=2))
show(lambda: torch.randn(3).unsqueeze(3))
show(lambda: torch.zeros(3).index_select(0, torch.tensor([0.0])))
show(lambda: torch.gather(torch.zeros(2, 2), 1, torch.tensor([[0, 3]])))
show(lambda: torch.arange(5).float().reshape(2, -1))
show(lambda: nn.Sequential(nn.Linear(2, 3), nn.Linear(4, 1))(torch.ones(1, 2)))
show(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.zeros(2, 2)}))
show(lambda: F.mse_loss(torch.zeros(3), torch.zeros(3, dtype=torch.long)))
show(lambda: torch.tensor([1, 2]) / torch.tensor([0, 0]))
show(lambda: torch.tensor([1, 2]) // torch.tensor([0, 1]))
