"""Raschka's 'Machine Learning with PyTorch' early chapters: a perceptron and an Adaline
neuron trained with plain tensor code, the learning rule and the mean squared error
gradient written out, then the same Adaline with autograd."""

import torch

torch.manual_seed(123)
X = torch.cat([torch.randn(20, 2) + torch.tensor([2.0, 2.0]), torch.randn(20, 2) - 2.0])
y = torch.cat([torch.ones(20), torch.zeros(20)])
perm = torch.randperm(40)
X, y = X[perm], y[perm]


class Perceptron:
    def __init__(self, num_features):
        self.weights = torch.zeros(num_features, 1, dtype=torch.float32)
        self.bias = torch.zeros(1, dtype=torch.float32)

    def forward(self, x):
        linear = torch.mm(x, self.weights) + self.bias
        return torch.where(linear > 0.0, 1.0, 0.0)

    def backward(self, x, y):
        return y - self.forward(x)

    def train(self, x, y, epochs):
        for e in range(epochs):
            errors = 0
            for i in range(y.shape[0]):
                errors_i = self.backward(x[i].reshape(1, -1), y[i]).reshape(-1)
                self.weights += (errors_i * x[i]).reshape(-1, 1)
                self.bias += errors_i
                errors += int(errors_i.abs().item())
            print(f"epoch {e + 1}: {errors} errors")

    def evaluate(self, x, y):
        predictions = self.forward(x).reshape(-1)
        return torch.sum(predictions == y).float() / y.shape[0]


ppn = Perceptron(num_features=2)
ppn.train(X, y, epochs=3)
print("weights", ppn.weights.reshape(-1), "bias", ppn.bias)
print("accuracy", ppn.evaluate(X, y).item())


class Adaline:
    def __init__(self, num_features):
        self.weight = torch.zeros(num_features, 1, dtype=torch.float)
        self.bias = torch.zeros(1, dtype=torch.float)

    def forward(self, x):
        return torch.add(torch.mm(x, self.weight), self.bias).view(-1)

    def backward(self, x, yhat, y):
        grad_loss_yhat = 2 * (yhat - y)
        grad_yhat_weights = x
        grad_loss_weights = torch.mm(grad_yhat_weights.t(), grad_loss_yhat.view(-1, 1)) / y.size(0)
        grad_loss_bias = torch.sum(grad_loss_yhat) / y.size(0)
        return -grad_loss_weights, -grad_loss_bias


def loss_func(yhat, y):
    return torch.mean((yhat - y) ** 2)


model = Adaline(num_features=2)
for e in range(5):
    for i in range(0, 40, 10):
        xb, yb = X[i : i + 10], y[i : i + 10]
        yhat = model.forward(xb)
        neg_grad_w, neg_grad_b = model.backward(xb, yhat, yb)
        model.weight += 0.1 * neg_grad_w
        model.bias += 0.1 * neg_grad_b
    print(f"epoch {e + 1}: MSE {loss_func(model.forward(X), y):.4f}")

w = torch.zeros(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for e in range(5):
    for i in range(0, 40, 10):
        xb, yb = X[i : i + 10], y[i : i + 10]
        loss = loss_func((xb @ w + b).view(-1), yb)
        gw, gb = torch.autograd.grad(loss, [w, b])
        with torch.no_grad():
            w -= 0.1 * gw
            b -= 0.1 * gb
print(torch.allclose(w, model.weight, atol=1e-6), torch.allclose(b, model.bias, atol=1e-6))
