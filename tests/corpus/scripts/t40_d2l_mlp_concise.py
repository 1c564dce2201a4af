"""A multilayer perceptron the concise way (d2l.ai style): Flatten, Linear, ReLU, a
weight-init function applied with net.apply, CrossEntropyLoss(reduction='none')."""

import torch
from torch import nn

torch.manual_seed(2)
net = nn.Sequential(nn.Flatten(), nn.Linear(36, 32), nn.ReLU(), nn.Linear(32, 4))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
batch_size, lr, num_epochs = 8, 0.1, 4
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=lr)
X = torch.randn(32, 1, 6, 6)
y = (X.sum(dim=(1, 2, 3)) > 0).long() + 2 * (X[:, 0, 0, 0] > 0).long()
for epoch in range(num_epochs):
    total = 0.0
    for i in range(0, len(X), batch_size):
        trainer.zero_grad()
        l = loss(net(X[i : i + batch_size]), y[i : i + batch_size])
        l.mean().backward()
        trainer.step()
        total += l.sum().item()
    correct = (net(X).argmax(dim=1) == y).sum().item()
    print(f"epoch {epoch + 1}, loss {total / len(X):.4f}, acc {correct / len(X):.3f}")
print(net[1].weight.shape, net[1].weight.grad.norm() > 0)
print([name for name, _ in net.named_parameters()])
print(net.state_dict()["3.bias"])
