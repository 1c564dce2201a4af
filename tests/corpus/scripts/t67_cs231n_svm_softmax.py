"""CS231n's linear classification notes: the multiclass SVM loss with margins and the
softmax loss, vectorised over a batch, their analytic gradients checked against autograd,
and against nn.MultiMarginLoss and cross_entropy; the numerical-stability shift."""

import torch
import torch.nn.functional as F

torch.manual_seed(231)
N, D, C = 6, 5, 4
X = torch.randn(N, D)
y = torch.tensor([0, 3, 1, 2, 3, 0])
W = (0.01 * torch.randn(D, C)).requires_grad_()
reg = 0.1


def svm_loss_vectorized(W, X, y, reg):
    scores = X @ W
    correct = scores[torch.arange(N), y].unsqueeze(1)
    margins = torch.clamp(scores - correct + 1.0, min=0)
    margins[torch.arange(N), y] = 0
    loss = margins.sum() / N + reg * torch.sum(W * W)
    binary = (margins > 0).float()
    binary[torch.arange(N), y] = -binary.sum(dim=1)
    dW = X.t() @ binary / N + 2 * reg * W
    return loss, dW.detach()


def softmax_loss_vectorized(W, X, y, reg):
    scores = X @ W
    scores = scores - scores.max(dim=1, keepdim=True).values
    probs = scores.exp() / scores.exp().sum(dim=1, keepdim=True)
    loss = -probs[torch.arange(N), y].log().mean() + reg * torch.sum(W * W)
    dscores = probs.detach().clone()
    dscores[torch.arange(N), y] -= 1
    dW = X.t() @ dscores / N + 2 * reg * W.detach()
    return loss, dW


loss, dW = svm_loss_vectorized(W, X, y, reg)
loss.backward()
print(f"svm loss {loss.item():.6f}", torch.allclose(dW, W.grad, atol=1e-6))
scores = (X @ W).detach()
print(
    f"{F.multi_margin_loss(scores, y).item() * C:.6f}", f"{(loss - reg * (W * W).sum()).item():.6f}"
)
W.grad = None
loss, dW = softmax_loss_vectorized(W, X, y, reg)
loss.backward()
print(f"softmax loss {loss.item():.6f}", torch.allclose(dW, W.grad, atol=1e-6))
print(f"{(F.cross_entropy(X @ W, y) + reg * (W * W).sum()).item():.6f}")
f = torch.tensor([123.0, 456.0, 789.0])
p = torch.exp(f) / torch.sum(torch.exp(f))
print(p)
f -= torch.max(f)
p = torch.exp(f) / torch.sum(torch.exp(f))
print(p)
hinge = torch.nn.MultiMarginLoss(margin=1.0)
sq = torch.nn.MultiMarginLoss(p=2, margin=0.5)
print(hinge(scores, y), sq(scores, y), F.multi_margin_loss(scores, y, reduction="none"))
for lr in (1e-1, 1e-2):
    W2 = 0.01 * torch.randn(D, C)
    for it in range(50):
        loss, dW = svm_loss_vectorized(W2, X, y, reg)
        W2 -= lr * dW
    print(lr, f"{loss.item():.4f}", (torch.argmax(X @ W2, dim=1) == y).float().mean())
