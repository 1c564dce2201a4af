"""Raschka-style logistic regression and a small classifier: a TensorDataset and
DataLoader with a seeded shuffle, BCEWithLogitsLoss, predicted probabilities, and the
accuracy computed in eval mode under no_grad."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split


class LogisticRegression(torch.nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.linear = torch.nn.Linear(num_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


def compute_accuracy(model, dataloader):
    model = model.eval()
    correct, total = 0.0, 0
    for features, class_labels in dataloader:
        with torch.no_grad():
            probas = model(features)
        pred = torch.where(probas > 0.5, 1, 0)
        lab = class_labels.view(pred.shape).to(pred.dtype)
        correct += torch.sum(lab == pred)
        total += len(class_labels)
    return correct / total


torch.manual_seed(1)
X = torch.randn(50, 2)
y = ((X[:, 0] - X[:, 1]) > 0.2).float()
ds = TensorDataset(X, y)
train_ds, val_ds = random_split(ds, [40, 10], generator=torch.Generator().manual_seed(1))
print(len(train_ds), len(val_ds), train_ds.indices[:5])
train_loader = DataLoader(train_ds, batch_size=10, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=10, shuffle=False)
model = LogisticRegression(num_features=2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(5):
    model = model.train()
    for batch_idx, (features, class_labels) in enumerate(train_loader):
        probas = model(features)
        loss = F.binary_cross_entropy(probas, class_labels.view(probas.shape))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(
        f"Epoch: {epoch + 1:03d} | Loss: {loss:.2f} | "
        f"Train acc {compute_accuracy(model, train_loader) * 100:.2f}%"
    )
print(f"Val acc {compute_accuracy(model, val_loader) * 100:.2f}%")
print(model.linear.weight, model.linear.bias)
logits_model = torch.nn.Linear(2, 1)
with torch.no_grad():
    logits_model.weight.copy_(model.linear.weight)
    logits_model.bias.copy_(model.linear.bias)
logits = logits_model(X).view(-1)
print(
    torch.allclose(
        F.binary_cross_entropy_with_logits(logits, y),
        F.binary_cross_entropy(torch.sigmoid(logits), y),
        atol=1e-6,
    )
)
print(torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))(logits, y))
