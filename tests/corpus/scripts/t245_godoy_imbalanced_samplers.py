"""Step-by-Step ch.4/5 style: imbalanced data, WeightedRandomSampler, SubsetRandomSampler, index splitter, BCEWithLogitsLoss(pos_weight), Normalize-like standardisation"""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
)

torch.manual_seed(17)
n = 60
labels = (torch.rand(n) < 0.25).long()  # imbalanced: ~25% positive
images = torch.randn(n, 1, 5, 5) + labels.view(-1, 1, 1, 1).float() * torch.linspace(0, 1, 25).view(
    1, 1, 5, 5
)
print("labels", labels.sum().item(), "of", n, labels[:15])


def index_splitter(n, splits, seed=13):
    idx = torch.arange(n)
    splits_tensor = torch.as_tensor(splits)
    multiplier = n / splits_tensor.sum()
    splits_tensor = (multiplier * splits_tensor).long()
    diff = n - splits_tensor.sum()
    splits_tensor[0] += diff
    torch.manual_seed(seed)
    return torch.utils.data.random_split(idx, splits_tensor)


train_idx, val_idx = index_splitter(len(images), [80, 20])
print(
    type(train_idx).__name__,
    len(train_idx),
    len(val_idx),
    val_idx.indices if isinstance(val_idx.indices, list) else val_idx.indices.tolist(),
)
train_sampler = SubsetRandomSampler(train_idx)
val_sampler = SubsetRandomSampler(val_idx)


def make_balanced_sampler(y):
    classes, counts = y.unique(return_counts=True)
    weights = 1.0 / counts.float()
    sample_weights = weights[y.squeeze().long()]
    generator = torch.Generator()
    sampler = WeightedRandomSampler(
        weights=sample_weights,
        num_samples=len(sample_weights),
        generator=generator,
        replacement=True,
    )
    return sampler, classes, counts, weights


x_train = (
    images[train_idx.indices] if isinstance(train_idx.indices, list) else images[train_idx.indices]
)
y_train = labels[train_idx.indices]
print("train counts", torch.bincount(y_train))
sampler, classes, counts, weights = make_balanced_sampler(y_train)
print(classes, counts, weights)
sampler.generator.manual_seed(42)
ds = TensorDataset(x_train, y_train.float().view(-1, 1))
loader = DataLoader(ds, batch_size=16, sampler=sampler)
tot = torch.tensor([t[1].sum().item() for t in iter(loader)])
print("positives per batch", tot, "total", tot.sum())
sampler.generator.manual_seed(42)
print("sampler indices", list(iter(sampler))[:12])
print(
    list(
        WeightedRandomSampler(
            [0.1, 0.9, 0.4, 0.7, 3.0, 0.6],
            5,
            replacement=False,
            generator=torch.Generator().manual_seed(0),
        )
    )
)
print(
    list(SequentialSampler(range(5))),
    list(RandomSampler(range(5), generator=torch.Generator().manual_seed(3))),
)
print(
    list(
        RandomSampler(
            range(5), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(3)
        )
    )
)
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(10), batch_size=4, drop_last=True)))

# standardise with train statistics (Normalize-like per channel)
mean = x_train.mean(dim=(0, 2, 3))
std = x_train.std(dim=(0, 2, 3))
print("mean", mean, "std", std)


def normalize(t):
    return (t - mean.view(1, -1, 1, 1)) / std.view(1, -1, 1, 1)


full_ds = TensorDataset(normalize(images), labels.float().view(-1, 1))
torch.manual_seed(0)
train_loader = DataLoader(full_ds, batch_size=16, sampler=train_sampler)
val_loader = DataLoader(full_ds, batch_size=16, sampler=val_sampler)
print(len(train_loader), len(val_loader), len(train_sampler))
sub = Subset(full_ds, [0, 5, 7])
cat = ConcatDataset([sub, sub])
print(len(sub), len(cat), cat[4][1])

# pos_weight for BCEWithLogitsLoss
n_pos = y_train.sum()
n_neg = len(y_train) - n_pos
pos_weight = (n_neg / n_pos).view(
    1,
)
print("pos_weight", pos_weight, pos_weight.dtype)
logits = torch.tensor([[1.5], [-0.5], [0.2], [-2.0]])
targets = torch.tensor([[1.0], [0.0], [1.0], [0.0]])
print(
    nn.BCEWithLogitsLoss()(logits, targets),
    nn.BCEWithLogitsLoss(pos_weight=pos_weight)(logits, targets),
)
print(
    nn.BCEWithLogitsLoss(reduction="sum")(logits, targets),
    nn.BCEWithLogitsLoss(reduction="none")(logits, targets).view(-1),
)
print(
    nn.BCELoss()(torch.sigmoid(logits), targets),
    F.binary_cross_entropy(
        torch.sigmoid(logits), targets, weight=torch.tensor([[1.0], [2.0], [1.0], [2.0]])
    ),
)
print(F.logsigmoid(logits).view(-1), torch.log(torch.sigmoid(logits)).view(-1))
try:
    nn.BCELoss()(logits, targets)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.BCEWithLogitsLoss()(logits, targets.long())  # labels left as integers
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.BCEWithLogitsLoss()(logits.view(-1), targets)
except ValueError as e:
    print("ValueError:", e)

torch.manual_seed(42)
model = nn.Sequential(nn.Flatten(), nn.Linear(25, 10), nn.ReLU(), nn.Linear(10, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
for epoch in range(15):
    model.train()
    tl = []
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        tl.append(loss.item())
    model.eval()
    with torch.no_grad():
        vl = [loss_fn(model(xb), yb).item() for xb, yb in val_loader]
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d} train {np.mean(tl):.6f} val {np.mean(vl):.6f}")


def confusion(model, loader, threshold=0.5):
    tp = fp = tn = fn = 0
    model.eval()
    with torch.no_grad():
        for xb, yb in loader:
            prob = torch.sigmoid(model(xb))
            pred = (prob >= threshold).float()
            tp += ((pred == 1) & (yb == 1)).sum().item()
            fp += ((pred == 1) & (yb == 0)).sum().item()
            tn += ((pred == 0) & (yb == 0)).sum().item()
            fn += ((pred == 0) & (yb == 1)).sum().item()
    return tp, fp, tn, fn


all_loader = DataLoader(full_ds, batch_size=64)
for th in (0.3, 0.5, 0.7):
    tp, fp, tn, fn = confusion(model, all_loader, th)
    tpr = tp / (tp + fn) if tp + fn else 0.0
    fpr = fp / (fp + tn) if fp + tn else 0.0
    print(f"threshold {th}: tp={tp} fp={fp} tn={tn} fn={fn} tpr={tpr:.3f} fpr={fpr:.3f}")
probs = torch.sigmoid(model(normalize(images))).detach().view(-1)
print(probs[:6], probs.dtype)
order = probs.argsort(descending=True)
print("top-5 scored labels", labels[order[:5]])
