"""D2L 3.7: weight decay from scratch (l2_penalty) and concise via optimizer param groups."""

import torch
from torch import nn

torch.manual_seed(7)
n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X = torch.normal(0, 1, (n_train, num_inputs))
y = X @ true_w + true_b + torch.normal(0, 0.01, (n_train, 1))


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for epoch in range(10):
        for i in range(0, n_train, batch_size):
            Xb, yb = X[i : i + batch_size], y[i : i + batch_size]
            l = (Xb @ w + b - yb) ** 2 / 2 + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                w -= 0.003 * w.grad / batch_size
                b -= 0.003 * b.grad / batch_size
                w.grad.zero_()
                b.grad.zero_()
    print("L2 norm of w:", torch.norm(w).item())


train(0)
train(3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    trainer = torch.optim.SGD(
        [{"params": net[0].weight, "weight_decay": wd}, {"params": net[0].bias}], lr=0.003
    )
    for epoch in range(10):
        for i in range(0, n_train, batch_size):
            trainer.zero_grad()
            l = loss(net(X[i : i + batch_size]), y[i : i + batch_size])
            l.mean().backward()
            trainer.step()
    print("L2 norm of w:", net[0].weight.norm().item())
    print(trainer.param_groups[0]["weight_decay"], len(trainer.param_groups))


train_concise(0)
train_concise(3)
