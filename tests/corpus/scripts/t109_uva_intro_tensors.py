"""UvA DL tutorial 2: tensor ops, permute, matmul variants, indexing, a tiny XOR module with custom
Dataset and DataLoader."""

import torch
import torch.nn as nn
import torch.utils.data as data

torch.manual_seed(42)
x = torch.Tensor(2, 3, 4).zero_()
print(x.shape, x.size(), x.dim())
x = torch.arange(6).view(2, 3)
print(x.permute(1, 0), x.T.contiguous().view(-1))
W = torch.arange(9).view(3, 3)
print(torch.matmul(x, W), x @ W, torch.mm(x, W))
x = torch.arange(12).view(3, 4)
print(x[:, 1], x[0], x[:2, -1], x[1:3, :])
x = torch.arange(3, dtype=torch.float32, requires_grad=True)
a = x + 2
b = a**2
c = b + 3
y = c.mean()
y.backward()
print(x.grad)


class XORDataset(data.Dataset):
    def __init__(self, size, std=0.1):
        super().__init__()
        self.size = size
        self.std = std
        self.generate_continuous_xor()

    def generate_continuous_xor(self):
        d = torch.randint(low=0, high=2, size=(self.size, 2), dtype=torch.float32)
        label = (d.sum(dim=1) == 1).to(torch.long)
        d += self.std * torch.randn(d.shape)
        self.data = d
        self.label = label

    def __len__(self):
        return self.size

    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


dataset = XORDataset(size=200)
print("Size of dataset:", len(dataset))
print("Data point 0:", dataset[0])
loader = data.DataLoader(dataset, batch_size=8, shuffle=True)
di, dl = next(iter(loader))
print(di.shape, dl)


class SimpleClassifier(nn.Module):
    def __init__(self, ni, nh, no):
        super().__init__()
        self.linear1 = nn.Linear(ni, nh)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(nh, no)

    def forward(self, x):
        return self.linear2(self.act_fn(self.linear1(x)))


model = SimpleClassifier(2, 4, 1)
loss_module = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
for epoch in range(20):
    for xb, yb in loader:
        preds = model(xb).squeeze(dim=1)
        loss = loss_module(preds, yb.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(loss.item(), model.state_dict()["linear2.bias"])
model.eval()
tp = 0
with torch.no_grad():
    for xb, yb in data.DataLoader(XORDataset(size=100), batch_size=32):
        preds = (torch.sigmoid(model(xb).squeeze(1)) >= 0.5).long()
        tp += (preds == yb).sum()
print(tp, tp.dtype)
