"""UofT CSC413 style lab: linear regression (closed form vs gradient descent) and logistic regression."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(413)

# ---------- linear regression ----------
N, D = 50, 3
X = torch.randn(N, D)
w_true = torch.tensor([2.0, -3.0, 0.5])
b_true = 1.25
t = X @ w_true + b_true + 0.1 * torch.randn(N)
print(X.shape, t.shape, t[:5])

# closed form with a bias column
Xb = torch.cat([X, torch.ones(N, 1)], dim=1)
w_cf = torch.linalg.solve(Xb.T @ Xb, Xb.T @ t)
print("normal equations:", w_cf)
w_ls = torch.linalg.lstsq(Xb, t.unsqueeze(1)).solution.squeeze(1)
print("lstsq:", w_ls)
w_pinv = torch.linalg.pinv(Xb) @ t
print("pinv:", w_pinv)
w_inv = torch.inverse(Xb.T @ Xb) @ Xb.T @ t
print(torch.allclose(w_cf, w_inv, atol=1e-5), torch.allclose(w_cf, w_ls, atol=1e-5))
print("residual", ((Xb @ w_cf - t) ** 2).mean())

# gradient descent by hand
w = torch.zeros(D, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
alpha = 0.1
for it in range(100):
    y = X @ w + b
    cost = ((y - t) ** 2).mean() / 2
    cost.backward()
    with torch.no_grad():
        w -= alpha * w.grad
        b -= alpha * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if it % 25 == 0:
        print(
            f"iter {it:3d} cost {cost.item():.6f} w {w.detach().numpy().round(4)} b {b.item():.4f}"
        )
print(w, b)

# the same with nn.Linear + optim
model = nn.Linear(D, 1)
print(model.weight, model.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.MSELoss()
for it in range(100):
    opt.zero_grad()
    loss = crit(model(X).squeeze(-1), t)
    loss.backward()
    opt.step()
print("nn.Linear:", model.weight.data, model.bias.data, loss.item())
try:
    crit(model(X), t)
except Exception as e:
    print(type(e).__name__, e)
print(crit(model(X), t.unsqueeze(1)).item())
print(
    F.l1_loss(model(X).squeeze(), t),
    F.smooth_l1_loss(model(X).squeeze(), t, beta=0.5),
    F.huber_loss(model(X).squeeze(), t, delta=0.5),
)

# ---------- logistic regression ----------
torch.manual_seed(2516)
n = 100
x0 = torch.randn(n, 2) + torch.tensor([1.5, 1.5])
x1 = torch.randn(n, 2) - torch.tensor([1.5, 1.5])
Xc = torch.cat([x0, x1])
yc = torch.cat([torch.zeros(n), torch.ones(n)])
print(Xc.shape, yc.shape, yc.dtype)

w = torch.randn(2, 1) * 0.01
w.requires_grad_()
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.5)
for epoch in range(60):
    z = (Xc @ w + b).squeeze(1)
    p = torch.sigmoid(z)
    loss = -(yc * torch.log(p) + (1 - yc) * torch.log(1 - p)).mean()
    loss2 = F.binary_cross_entropy_with_logits(z, yc)
    loss3 = F.binary_cross_entropy(p, yc)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        acc = ((p > 0.5).float() == yc).float().mean()
        print(
            f"epoch {epoch} loss {loss.item():.5f} {loss2.item():.5f} {loss3.item():.5f} acc {acc.item():.3f}"
        )
print(w.detach().T, b.detach())


class LogReg(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, 1)

    def forward(self, x):
        return self.lin(x).squeeze(-1)


lr_model = LogReg(2)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))
opt = torch.optim.Adam(lr_model.parameters(), lr=0.05, weight_decay=1e-3)
for epoch in range(50):
    opt.zero_grad()
    loss = crit(lr_model(Xc), yc)
    loss.backward()
    opt.step()
print(lr_model.state_dict())
with torch.no_grad():
    logits = lr_model(Xc)
    pred = (logits > 0).long()
    tp = ((pred == 1) & (yc == 1)).sum().item()
    fp = ((pred == 1) & (yc == 0)).sum().item()
    fn = ((pred == 0) & (yc == 1)).sum().item()
    print("tp fp fn", tp, fp, fn, "precision %.4f recall %.4f" % (tp / (tp + fp), tp / (tp + fn)))
    print(torch.sigmoid(logits[:5]), logits.dtype, pred.dtype)
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.binary_cross_entropy_with_logits(logits, yc.long())
except RuntimeError as e:
    print("RuntimeError:", e)

# multiclass softmax regression with nll_loss on log_softmax
torch.manual_seed(0)
Xm = torch.randn(90, 2) + torch.tensor([[3.0, 0.0], [0.0, 3.0], [-3.0, -3.0]]).repeat(30, 1)
ym = torch.arange(3).repeat(30)
W = torch.zeros(2, 3, requires_grad=True)
bb = torch.zeros(3, requires_grad=True)
for epoch in range(30):
    out = F.log_softmax(Xm @ W + bb, dim=1)
    loss = F.nll_loss(out, ym)
    loss.backward()
    with torch.no_grad():
        W.sub_(0.5 * W.grad)
        bb.sub_(0.5 * bb.grad)
        W.grad = None
        bb.grad = None
print(loss, W, bb, sep="\n")
print((out.argmax(1) == ym).float().mean(), F.cross_entropy(Xm @ W + bb, ym, label_smoothing=0.1))
