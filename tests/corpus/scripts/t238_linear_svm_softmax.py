"""EECS 498 A2 style: linear classifier with SVM and softmax loss, naive vs vectorised"""

import random

import torch

torch.manual_seed(0)
random.seed(0)
N, D, C = 40, 10, 3
X = torch.randn(N, D, dtype=torch.float64)
X = torch.cat([X, torch.ones(N, 1, dtype=torch.float64)], dim=1)  # bias trick
Wtrue = torch.randn(D + 1, C, dtype=torch.float64)
y = (X @ Wtrue + 0.5 * torch.randn(N, C, dtype=torch.float64)).argmax(dim=1)
print("X", X.shape, X.dtype, "y", y, torch.bincount(y))


def svm_loss_naive(W, X, y, reg):
    dW = torch.zeros_like(W)
    num_classes = W.shape[1]
    num_train = X.shape[0]
    loss = 0.0
    for i in range(num_train):
        scores = W.t().mv(X[i])
        correct_class_score = scores[y[i]]
        for j in range(num_classes):
            if j == y[i]:
                continue
            margin = scores[j] - correct_class_score + 1
            if margin > 0:
                loss += margin
                dW[:, j] += X[i]
                dW[:, y[i]] -= X[i]
    loss /= num_train
    dW /= num_train
    loss += reg * torch.sum(W * W)
    dW += 2 * reg * W
    return loss, dW


def svm_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.mm(W)
    correct = scores[torch.arange(num_train), y].view(-1, 1)
    margins = (scores - correct + 1).clamp(min=0)
    margins[torch.arange(num_train), y] = 0
    loss = margins.sum() / num_train + reg * torch.sum(W * W)
    binary = (margins > 0).to(X.dtype)
    binary[torch.arange(num_train), y] = -binary.sum(dim=1)
    dW = X.t().mm(binary) / num_train + 2 * reg * W
    return loss, dW


def softmax_loss_naive(W, X, y, reg):
    loss = 0.0
    dW = torch.zeros_like(W)
    num_train, num_classes = X.shape[0], W.shape[1]
    for i in range(num_train):
        s = W.t().mv(X[i])
        s = s - s.max()
        p = s.exp() / s.exp().sum()
        loss += -torch.log(p[y[i]])
        for j in range(num_classes):
            dW[:, j] += (p[j] - int(j == y[i])) * X[i]
    loss = loss / num_train + reg * torch.sum(W * W)
    dW = dW / num_train + 2 * reg * W
    return loss, dW


def softmax_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    s = X.mm(W)
    s = s - s.max(dim=1, keepdim=True).values
    p = s.exp() / s.exp().sum(dim=1, keepdim=True)
    loss = -p[torch.arange(num_train), y].log().sum() / num_train + reg * torch.sum(W * W)
    p[torch.arange(num_train), y] -= 1
    dW = X.t().mm(p) / num_train + 2 * reg * W
    return loss, dW


W = 0.001 * torch.randn(D + 1, C, dtype=torch.float64)
try:
    torch.tensor(0.3) - (torch.tensor(1) == 1)
except RuntimeError as e:
    print("RuntimeError:", e)
for name, naive, vec in [
    ("svm", svm_loss_naive, svm_loss_vectorized),
    ("softmax", softmax_loss_naive, softmax_loss_vectorized),
]:
    l1, g1 = naive(W, X, y, 1e-3)
    l2, g2 = vec(W, X, y, 1e-3)
    print(name, "loss naive %.8f vectorised %.8f" % (l1.item(), l2.item()))
    print(name, "grad diff", torch.norm(g1 - g2, p="fro").item() < 1e-12)
    # check with autograd
    Wa = W.clone().requires_grad_(True)
    if name == "svm":
        sc = X @ Wa
        corr = sc.gather(1, y[:, None])
        mg = torch.nn.functional.relu(sc - corr + 1)
        la = (mg.sum() - N) / N + 1e-3 * (Wa**2).sum()
    else:
        la = torch.nn.functional.cross_entropy(X @ Wa, y) + 1e-3 * Wa.pow(2).sum()
    la.backward()
    print(
        name,
        "autograd loss %.8f" % la.item(),
        "grad close",
        torch.allclose(Wa.grad, g2),
        la.grad_fn,
    )
    print(
        name,
        "multi_margin_loss",
        torch.nn.functional.multi_margin_loss(X @ W, y).item() * (C),
        l2.item() - 1e-3 * (W * W).sum().item(),
    )


def grad_check_sparse(f, x, analytic_grad, num_checks=4, h=1e-7):
    for i in range(num_checks):
        ix = tuple(random.randrange(m) for m in x.shape)
        oldval = x[ix].item()
        x[ix] = oldval + h
        fxph = f(x).item()
        x[ix] = oldval - h
        fxmh = f(x).item()
        x[ix] = oldval
        grad_numerical = (fxph - fxmh) / (2 * h)
        grad_analytic = analytic_grad[ix].item()
        rel_error = abs(grad_numerical - grad_analytic) / (
            abs(grad_numerical) + abs(grad_analytic) + 1e-12
        )
        print(
            "numerical: %f analytic: %f, relative error < 1e-5: %s"
            % (grad_numerical, grad_analytic, rel_error < 1e-5)
        )


_, grad = softmax_loss_vectorized(W, X, y, 0.0)
grad_check_sparse(lambda w: softmax_loss_vectorized(w, X, y, 0.0)[0], W, grad)


class LinearClassifier:
    def __init__(self, loss_fn):
        self.W = None
        self.loss_fn = loss_fn

    def train(
        self, X, y, learning_rate=1e-3, reg=1e-5, num_iters=100, batch_size=16, verbose=False
    ):
        num_train, dim = X.shape
        num_classes = int(torch.max(y)) + 1
        if self.W is None:
            self.W = 0.000001 * torch.randn(dim, num_classes, device=X.device, dtype=X.dtype)
        loss_history = []
        for it in range(num_iters):
            idx = torch.randint(num_train, (batch_size,))
            loss, grad = self.loss_fn(self.W, X[idx], y[idx], reg)
            loss_history.append(loss.item())
            self.W -= learning_rate * grad
            if verbose and it % 25 == 0:
                print("iteration %d / %d: loss %f" % (it, num_iters, loss))
        return loss_history

    def predict(self, X):
        return torch.argmax(X.mm(self.W), dim=1)


for loss_fn in (svm_loss_vectorized, softmax_loss_vectorized):
    torch.manual_seed(1)
    clf = LinearClassifier(loss_fn)
    hist = clf.train(X, y, learning_rate=5e-1, reg=1e-3, num_iters=100, verbose=True)
    acc = (clf.predict(X) == y).double().mean().item()
    print(loss_fn.__name__, "final loss %.6f" % hist[-1], "train acc %.4f" % acc)

# hyper-parameter search grid, float32 this time
Xf, yf = X.float(), y
results = {}
for lr in [1e-2, 1e-1]:
    for reg in [1e-4, 1e-1]:
        torch.manual_seed(2)
        c = LinearClassifier(softmax_loss_vectorized)
        c.train(Xf, yf, learning_rate=lr, reg=reg, num_iters=60)
        results[(lr, reg)] = (c.predict(Xf) == yf).float().mean().item()
for (lr, reg), acc in sorted(results.items()):
    print("lr %e reg %e train accuracy: %f" % (lr, reg, acc))
print(c.W.dtype, c.W.shape, c.W[:2])
