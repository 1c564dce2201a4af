"""Multiclass classification with k-fold cross-validation written by hand."""

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)

# synthetic "iris-like" data: three classes, four features
n_per, n_classes = 30, 3
centers = torch.tensor([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
X = torch.cat([centers[c] + 0.35 * torch.randn(n_per, 4) for c in range(n_classes)])
labels = torch.arange(n_classes).repeat_interleave(n_per)
print("X", X.shape, "labels", labels.shape, labels.dtype)
print("bincount:", torch.bincount(labels))
print("unique:", torch.unique(labels, return_counts=True))

# one-hot encoding like the tutorial's OneHotEncoder
y_onehot = F.one_hot(labels, num_classes=n_classes).float()
print("one hot rows:\n", y_onehot[::29])
print("argmax back:", y_onehot.argmax(dim=1)[::29])

# shuffle once
g = torch.Generator().manual_seed(0)
order = torch.randperm(len(X), generator=g)
X, labels, y_onehot = X[order], labels[order], y_onehot[order]


class Multiclass(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.output = nn.Linear(8, 3)

    def forward(self, x):
        return self.output(self.act(self.hidden(x)))


def model_train(model, X_tr, y_tr, X_val, y_val, n_epochs=40, batch_size=5):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    best_acc, best_weights = -1.0, None
    for epoch in range(n_epochs):
        model.train()
        for start in range(0, len(X_tr), batch_size):
            xb, yb = X_tr[start : start + batch_size], y_tr[start : start + batch_size]
            loss = loss_fn(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            y_pred = model(X_val)
            ce = loss_fn(y_pred, y_val)
            acc = (torch.argmax(y_pred, 1) == torch.argmax(y_val, 1)).float().mean()
        if acc > best_acc:
            best_acc = float(acc)
            best_weights = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_weights)
    return best_acc, float(ce)


k = 5
folds = torch.chunk(torch.arange(len(X)), k)
print("fold sizes:", [len(f) for f in folds])
scores = []
for i, val_idx in enumerate(folds):
    train_idx = torch.cat([f for j, f in enumerate(folds) if j != i])
    model = Multiclass()
    acc, ce = model_train(model, X[train_idx], y_onehot[train_idx], X[val_idx], y_onehot[val_idx])
    scores.append(acc)
    print(
        f"fold {i}: train={len(train_idx)} val={len(val_idx)} best acc={acc:.4f} last ce={ce:.4f}"
    )
scores_t = torch.tensor(scores)
print("scores:", scores_t)
print("mean acc %.4f (+/- %.4f)" % (scores_t.mean().item(), scores_t.std().item()))

# tensor_split with uneven sizes (what np.array_split does)
print("tensor_split:", [t.tolist() for t in torch.tensor_split(torch.arange(11), 3)])
print("split sizes:", [t.shape for t in torch.split(torch.arange(11), [5, 3, 3])])

# cross entropy with class-index targets vs probabilities
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [0.1, 0.2, 3.0]])
idx = torch.tensor([0, 1, 2])
print("CE index targets:", F.cross_entropy(logits, idx))
print("CE prob targets:", F.cross_entropy(logits, F.one_hot(idx, 3).float()))
print("CE label smoothing:", F.cross_entropy(logits, idx, label_smoothing=0.1))
print("log_softmax:", F.log_softmax(logits, dim=1))
print("nll:", F.nll_loss(F.log_softmax(logits, dim=1), idx, reduction="none"))
print("softmax rows sum:", F.softmax(logits, dim=-1).sum(-1))

# final model predictions with probabilities
final = Multiclass()
acc, _ = model_train(final, X[:72], y_onehot[:72], X[72:], y_onehot[72:])
final.eval()
with torch.no_grad():
    probs = F.softmax(final(X[72:77]), dim=1)
print("final holdout acc:", round(acc, 4))
print("probs:\n", probs)
print("max prob / class:", probs.max(dim=1))
print("topk:", probs.topk(2, dim=1))

try:
    F.cross_entropy(logits, torch.tensor([0, 1, 3]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, ":", e)
try:
    F.cross_entropy(logits, torch.tensor([0.0, 1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
