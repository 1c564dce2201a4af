"""The two-layer network with autograd computing the gradients (fixed data, no randomness)."""

import torch

x = torch.linspace(-1, 1, 40).reshape(8, 5)
y = torch.sin(3 * x[:, :2])
w1 = (torch.arange(30.0).reshape(5, 6) / 30 - 0.5).requires_grad_()
w2 = (torch.arange(12.0).reshape(6, 2) / 12 - 0.4).requires_grad_()
learning_rate = 1e-2
for t in range(200):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 40 == 39:
        print(t, f"{loss.item():.4f}")
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(w1.grad, w2)
print(loss)
