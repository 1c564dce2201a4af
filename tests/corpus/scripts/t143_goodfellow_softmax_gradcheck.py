# Backprop written out for an affine layer, softmax cross-entropy and L2 weight decay, checked
# against autograd and against centred finite differences (a textbook exercise).
import numpy as np
import torch

torch.manual_seed(0)
N, D, C = 5, 4, 3
X = torch.randn(N, D, dtype=torch.float64)
y = torch.tensor([0, 2, 1, 2, 0])
W = (0.1 * torch.randn(D, C, dtype=torch.float64)).requires_grad_()
b = torch.zeros(C, dtype=torch.float64, requires_grad=True)
reg = 0.05


def loss_fn(W, b):
    scores = X @ W + b
    shifted = scores - scores.max(dim=1, keepdim=True).values
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    data_loss = -log_probs[torch.arange(N), y].mean()
    return data_loss + 0.5 * reg * (W * W).sum()


loss = loss_fn(W, b)
loss.backward()
print(f"loss = {loss.item():.10f}")

with torch.no_grad():
    scores = X @ W + b
    probs = torch.softmax(scores, dim=1)
    dscores = probs.clone()
    dscores[range(N), y] -= 1
    dscores /= N
    dW = X.T @ dscores + reg * W
    db = dscores.sum(dim=0)
print("dW max abs diff:", (dW - W.grad).abs().max().item() < 1e-12)
print("db max abs diff:", (db - b.grad).abs().max().item() < 1e-12)
print(dW)
print(db)


def numerical_gradient(f, x, h=1e-5):
    grad = torch.zeros_like(x)
    it = np.nditer(x.detach().numpy(), flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        old = x[ix].item()
        with torch.no_grad():
            x[ix] = old + h
            fxph = f().item()
            x[ix] = old - h
            fxmh = f().item()
            x[ix] = old
        grad[ix] = (fxph - fxmh) / (2 * h)
        it.iternext()
    return grad


num_dW = numerical_gradient(lambda: loss_fn(W, b), W)
rel_error = ((num_dW - W.grad).abs() / torch.clamp(num_dW.abs() + W.grad.abs(), min=1e-8)).max()
print("relative error of dW below 1e-7:", rel_error.item() < 1e-7)
print(torch.allclose(num_dW, W.grad, atol=1e-8))
print(torch.autograd.gradcheck(lambda W, b: loss_fn(W, b), (W, b)))
print(torch.autograd.gradgradcheck(lambda W: (X @ W).tanh().sum(), (W,)))

# the same cross-entropy in float32 with F.cross_entropy, compared to the float64 one
Wf, bf = W.detach().float().requires_grad_(), b.detach().float().requires_grad_()
lf = torch.nn.functional.cross_entropy(X.float() @ Wf + bf, y) + 0.5 * reg * (Wf**2).sum()
lf.backward()
print(lf, torch.allclose(Wf.grad.double(), W.grad, atol=1e-6))
print(Wf.grad.dtype, Wf.grad.shape)

# a two-layer ReLU net's backward by hand, with the ReLU mask
torch.manual_seed(1)
W1 = torch.randn(D, 6, dtype=torch.float64, requires_grad=True)
W2 = torch.randn(6, C, dtype=torch.float64, requires_grad=True)
h = (X @ W1).clamp(min=0)
out = h @ W2
l2 = torch.nn.functional.cross_entropy(out, y)
l2.backward()
with torch.no_grad():
    p = torch.softmax(out, 1)
    p[torch.arange(N), y] -= 1
    p /= N
    dW2 = h.T @ p
    dh = p @ W2.T
    dh[h <= 0] = 0
    dW1 = X.T @ dh
print(torch.allclose(dW1, W1.grad), torch.allclose(dW2, W2.grad), l2.item())
