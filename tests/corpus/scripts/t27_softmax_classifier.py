"""A three-class softmax classifier: cross_entropy, one_hot, argmax accuracy."""

import torch
import torch.nn.functional as F

features = torch.tensor(
    [[1.0, 0.2], [0.9, 0.1], [0.1, 1.0], [0.2, 0.8], [-1.0, -0.9], [-0.8, -1.1]]
)
target = torch.tensor([0, 0, 1, 1, 2, 2])
print(F.one_hot(target), F.one_hot(target, num_classes=4).shape)
W = torch.zeros(2, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
for step in range(60):
    logits = features @ W + b
    loss = F.cross_entropy(logits, target)
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
    W.grad.zero_()
    b.grad.zero_()
    if step % 15 == 14:
        print(step, f"{loss.item():.4f}")
probs = F.softmax(features @ W + b, dim=1)
print(probs)
print(probs.argmax(dim=1), (probs.argmax(dim=1) == target).float().mean())
manual = -(F.one_hot(target, 3) * F.log_softmax(features @ W + b, dim=1)).sum(dim=1).mean()
print(manual, F.nll_loss(torch.log(probs), target))
