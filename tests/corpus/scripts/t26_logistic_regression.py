"""Logistic regression on separable points: BCEWithLogitsLoss, then Sigmoid + BCELoss."""

import torch
import torch.nn as nn

x = torch.linspace(-3, 3, 20).reshape(10, 2)
labels = (x[:, 0] + 0.5 * x[:, 1] > 0).float().unsqueeze(1)
print(labels.flatten())
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(0.1)
    model.bias.zero_()
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(100):
    logits = model(x)
    loss = loss_fn(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 20 == 19:
        accuracy = ((logits > 0).float() == labels).float().mean()
        print(epoch, f"{loss.item():.4f}", accuracy.item())
print(model.weight, model.bias)
probs = torch.sigmoid(model(x))
print(nn.BCELoss()(probs, labels), nn.functional.binary_cross_entropy_with_logits(model(x), labels))
print(
    nn.functional.binary_cross_entropy_with_logits(model(x), labels, pos_weight=torch.tensor([2.0]))
)
