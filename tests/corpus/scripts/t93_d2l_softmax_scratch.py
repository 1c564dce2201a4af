"""D2L 4.4: softmax regression from scratch on random 'images'."""

import torch

torch.manual_seed(1)
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))
num_inputs, num_outputs = 784, 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))
imgs = torch.rand(64, 1, 28, 28)
labels = torch.randint(0, 10, (64,))
for epoch in range(3):
    for i in range(0, 64, 16):
        Xb, yb = imgs[i : i + 16], labels[i : i + 16]
        l = cross_entropy(net(Xb), yb)
        l.sum().backward()
        with torch.no_grad():
            for param in [W, b]:
                param -= 0.1 * param.grad / 16
                param.grad.zero_()
    print(epoch, float(cross_entropy(net(imgs), labels).mean()), accuracy(net(imgs), labels) / 64)
print(b)
print(W[:3, :4])
