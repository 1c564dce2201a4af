"""Softmax regression from scratch (d2l.ai style): softmax by exp and a row sum, the
cross-entropy picked out with fancy indexing, accuracy by argmax."""

import torch


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # broadcasting


def net(X, W, b):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


torch.manual_seed(1)
X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
print(cross_entropy(y_hat, y))
print(accuracy(y_hat, y) / len(y))

num_inputs, num_outputs = 16, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
images = torch.rand(30, 4, 4)
labels = torch.randint(0, 3, (30,))
lr = 0.5
for epoch in range(3):
    for i in range(0, 30, 10):
        Xb, yb = images[i : i + 10], labels[i : i + 10]
        l = cross_entropy(net(Xb, W, b), yb)
        l.mean().backward()
        with torch.no_grad():
            W -= lr * W.grad
            b -= lr * b.grad
            W.grad.zero_()
            b.grad.zero_()
    with torch.no_grad():
        out = net(images, W, b)
        print(
            f"epoch {epoch + 1}: loss {cross_entropy(out, labels).mean():.4f}, "
            f"train acc {accuracy(out, labels) / len(labels):.3f}"
        )
