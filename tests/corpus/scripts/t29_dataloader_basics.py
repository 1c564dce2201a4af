"""TensorDataset and DataLoader without shuffling: batches, drop_last, an epoch loop."""

import torch
from torch.utils.data import DataLoader, TensorDataset

X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10) % 3
dataset = TensorDataset(X, y)
print(len(dataset), dataset[3])
loader = DataLoader(dataset, batch_size=4)
print(len(loader), len(DataLoader(dataset, batch_size=4, drop_last=True)))
for i, (xb, yb) in enumerate(loader):
    print(i, xb.shape, yb)

model = torch.nn.Linear(2, 3)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.1], [0.0, 0.05], [-0.05, 0.1]]))
    model.bias.zero_()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = torch.nn.CrossEntropyLoss()
for epoch in range(3):
    total = 0.0
    for xb, yb in DataLoader(dataset, batch_size=3, drop_last=True):
        loss = loss_fn(model(xb / 20), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(epoch, f"{total:.5f}")
print(next(iter(DataLoader(dataset, batch_size=None))))
