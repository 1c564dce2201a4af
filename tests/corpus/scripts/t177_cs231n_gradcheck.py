# CS231n-style two-layer net: manual backprop vs autograd, numeric gradient check,
# torch.autograd.grad and higher-order derivatives
import torch

torch.manual_seed(231)
dtype = torch.float64

N, D, H, C = 5, 4, 10, 3
X = torch.randn(N, D, dtype=dtype)
y = torch.tensor([0, 1, 2, 2, 1])
W1 = (torch.randn(D, H, dtype=dtype) * 0.1).requires_grad_()
b1 = torch.zeros(H, dtype=dtype, requires_grad=True)
W2 = (torch.randn(H, C, dtype=dtype) * 0.1).requires_grad_()
b2 = torch.zeros(C, dtype=dtype, requires_grad=True)


def loss_fn(W1, b1, W2, b2, reg=0.05):
    h = torch.clamp(X @ W1 + b1, min=0)
    scores = h @ W2 + b2
    scores = scores - scores.max(dim=1, keepdim=True).values
    logp = scores - scores.exp().sum(1, keepdim=True).log()
    return -logp[range(N), y].mean() + reg * ((W1**2).sum() + (W2**2).sum())


loss = loss_fn(W1, b1, W2, b2)
loss.backward()
print("loss:", loss.item())

# manual backward pass
with torch.no_grad():
    h_pre = X @ W1 + b1
    h = h_pre.clamp(min=0)
    s = h @ W2 + b2
    p = torch.softmax(s, dim=1)
    ds = p.clone()
    ds[range(N), y] -= 1
    ds /= N
    dW2 = h.T @ ds + 2 * 0.05 * W2
    db2 = ds.sum(0)
    dh = ds @ W2.T
    dh[h_pre <= 0] = 0
    dW1 = X.T @ dh + 2 * 0.05 * W1
for name, a, m in [
    ("W1", W1.grad, dW1),
    ("b1", b1.grad, dh.sum(0)),
    ("W2", W2.grad, dW2),
    ("b2", b2.grad, db2),
]:
    rel = ((a - m).abs().max() / (a.abs().max() + m.abs().max())).item()
    print(f"{name} rel error {rel:.2e} ok={rel < 1e-8}")

# numeric gradient on a few entries
h_ = 1e-5
for i, j in [(0, 0), (1, 3), (3, 7)]:
    with torch.no_grad():
        old = W1[i, j].item()
        W1[i, j] = old + h_
        fp = loss_fn(W1, b1, W2, b2).item()
        W1[i, j] = old - h_
        fm = loss_fn(W1, b1, W2, b2).item()
        W1[i, j] = old
    num = (fp - fm) / (2 * h_)
    print(f"W1[{i},{j}] numeric {num:.8f} analytic {W1.grad[i, j].item():.8f}")

# torch.autograd.grad without touching .grad
(gW2,) = torch.autograd.grad(loss_fn(W1, b1, W2, b2), [W2])
print("autograd.grad matches .grad:", torch.allclose(gW2, W2.grad))

# higher-order: d/dx and d2/dx2 of x^3 * sin(x)
x = torch.tensor(1.3, dtype=dtype, requires_grad=True)
f = x**3 * torch.sin(x)
(df,) = torch.autograd.grad(f, x, create_graph=True)
(d2f,) = torch.autograd.grad(df, x)
print("f:", f.item(), "f':", df.item(), "f'':", d2f.item())
print(
    "jacobian:",
    torch.autograd.functional.jacobian(lambda v: v**2 + v.sum(), torch.tensor([1.0, 2.0])),
)
print("gradcheck loss:", torch.autograd.gradcheck(lambda w: loss_fn(w, b1, W2, b2), (W1,)))
