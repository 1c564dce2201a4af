"""D2L 3.5: concise linear regression with nn.LazyLinear-free Sequential, MSELoss, SGD and
TensorDataset."""

import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


features, labels = synthetic_data(true_w, true_b, 100)
print("features:", features[0], "\nlabel:", labels[0])


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


data_iter = load_array((features, labels), 10)
print(next(iter(data_iter)))
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(3):
    for X, y in data_iter:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f"epoch {epoch + 1}, loss {l:f}")
w = net[0].weight.data
print("error in w:", true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print("error in b:", true_b - b)
print(net[0].weight.grad, net[0].bias.grad)
print(net)
print(trainer)
