"""fast.ai lesson 4 style: MNIST '3 vs 7' from scratch on random data: init_params, linear1,
mnist_loss, sigmoid, batch accuracy."""

import torch

torch.manual_seed(0)
train_x = torch.rand(64, 28 * 28)
train_y = torch.randint(0, 2, (64,)).float().unsqueeze(1)
dset = list(zip(train_x, train_y))
x, y = dset[0]
print(x.shape, y)


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


weights = init_params((28 * 28, 1))
bias = init_params(1)
print((train_x[0] * weights.T).sum() + bias)


def linear1(xb):
    return xb @ weights + bias


preds = linear1(train_x)
print(preds[:4])
corrects = (preds > 0.0).float() == train_y
print(corrects.float().mean().item())


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


lr = 1.0
params = weights, bias
for epoch in range(5):
    for i in range(0, 64, 16):
        calc_grad(train_x[i : i + 16], train_y[i : i + 16], linear1)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()
    print(
        epoch,
        round(batch_accuracy(linear1(train_x), train_y).item(), 4),
        mnist_loss(linear1(train_x), train_y),
    )
print(weights.grad.mean(), bias.grad)


def simple_net(xb):
    res = xb @ w1 + b1
    res = res.max(torch.tensor(0.0))
    res = res @ w2 + b2
    return res


w1 = init_params((28 * 28, 30))
b1 = init_params(30)
w2 = init_params((30, 1))
b2 = init_params(1)
calc_grad(train_x, train_y, simple_net)
print(w2.grad[:3].T, b2.grad)
print(torch.stack([train_x[0], train_x[1]]).shape, train_x.view(-1, 28, 28).shape)
