"""Linear regression on synthetic data, as a textbook builds it: torch.normal noise, a
minibatch iterator over shuffled indices, then the same with nn and DataLoader (seeded)."""

import torch
from torch.utils import data


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


torch.manual_seed(8)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 100)
print(features[0], labels[0])


def data_iter(batch_size, features, labels):
    indices = torch.randperm(len(features))
    for i in range(0, len(features), batch_size):
        batch = indices[i : i + batch_size]
        yield features[batch], labels[batch]


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(3):
    for X, y in data_iter(10, features, labels):
        loss = ((X @ w + b - y) ** 2 / 2).sum()
        loss.backward()
        with torch.no_grad():
            for param in (w, b):
                param -= 0.03 * param.grad / 10
                param.grad.zero_()
    with torch.no_grad():
        print(epoch, f"{((features @ w + b - labels) ** 2 / 2).mean():.6f}")

loader = data.DataLoader(data.TensorDataset(features, labels), batch_size=10, shuffle=True)
net = torch.nn.Sequential(torch.nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(3):
    for X, y in loader:
        loss = torch.nn.MSELoss()(net(X), y)
        trainer.zero_grad()
        loss.backward()
        trainer.step()
    print(epoch, f"{torch.nn.MSELoss()(net(features), labels):.6f}")
print(net[0].weight.data, net[0].bias.data)
