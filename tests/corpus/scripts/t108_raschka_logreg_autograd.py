"""Raschka STAT453 style: logistic regression with manual grads vs autograd, binary_cross_entropy,
accuracy, torch.where."""

import torch
import torch.nn.functional as F

torch.manual_seed(123)
X = torch.randn(100, 2)
y = (X[:, 0] + 0.5 * X[:, 1] > 0).float()


class LogisticRegression1:
    def __init__(self, num_features):
        self.weights = torch.zeros(1, num_features, dtype=torch.float32)
        self.bias = torch.zeros(1, dtype=torch.float32)

    def forward(self, x):
        return torch.sigmoid(torch.add(torch.mm(x, self.weights.t()), self.bias))

    def backward(self, x, y, probas):
        grad_loss_wrt_z = probas.view(-1) - y
        grad_loss_wrt_w = torch.mm(x.t(), grad_loss_wrt_z.view(-1, 1)).t()
        return grad_loss_wrt_w, torch.sum(grad_loss_wrt_z)


m = LogisticRegression1(2)
for e in range(10):
    probas = m.forward(X)
    gw, gb = m.backward(X, y, probas)
    m.weights -= 0.1 * gw / y.size(0)
    m.bias -= 0.1 * gb / y.size(0)
    loss = F.binary_cross_entropy(probas.view(-1), y)
    acc = ((probas.view(-1) > 0.5).float() == y).float().mean()
    print(f"Epoch: {e + 1:03d} | Train ACC: {acc:.3f} | Cost: {loss:.3f}")
print(m.weights, m.bias)
model = torch.nn.Linear(2, 1)
torch.nn.init.zeros_(model.weight)
torch.nn.init.zeros_(model.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for e in range(10):
    logits = model(X).view(-1)
    cost = F.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    cost.backward()
    opt.step()
print(model.weight, model.bias, cost)
pred = torch.where(torch.sigmoid(model(X)).view(-1) > 0.5, 1, 0)
print(pred[:10], (pred == y).sum().item())
print(torch.nn.BCELoss()(torch.tensor([0.9, 0.2]), torch.tensor([1.0, 0.0])))
