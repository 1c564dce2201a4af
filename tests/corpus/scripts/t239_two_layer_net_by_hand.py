"""EECS 498 A2 style: two-layer net forward/backward written with torch ops, checked by autograd"""

import math

import torch

torch.manual_seed(0)


def get_toy_data(num_inputs=5, input_size=4, num_classes=3, dtype=torch.float32):
    N, D, C = num_inputs, input_size, num_classes
    torch.manual_seed(0)
    params = {}
    params["W1"] = 1e-4 * torch.randn(D, 10, dtype=dtype)
    params["b1"] = torch.zeros(10, dtype=dtype)
    params["W2"] = 1e-4 * torch.randn(10, C, dtype=dtype)
    params["b2"] = torch.zeros(C, dtype=dtype)
    toy_X = 10.0 * torch.randn(N, D, dtype=dtype)
    toy_y = torch.tensor([0, 1, 2, 2, 1], dtype=torch.int64)
    return toy_X, toy_y, params


def nn_forward_pass(params, X):
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    h1 = (X.mm(W1) + b1).clamp(min=0)
    scores = h1.mm(W2) + b2
    return scores, h1


def nn_forward_backward(params, X, y=None, reg=0.0):
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    N, D = X.shape
    scores, h1 = nn_forward_pass(params, X)
    if y is None:
        return scores
    shifted = scores - scores.max(dim=1, keepdim=True).values
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    probs = log_probs.exp()
    loss = -log_probs[torch.arange(N), y].mean() + reg * (torch.sum(W1 * W1) + torch.sum(W2 * W2))
    grads = {}
    dscores = probs.clone()
    dscores[torch.arange(N), y] -= 1
    dscores /= N
    grads["W2"] = h1.t().mm(dscores) + 2 * reg * W2
    grads["b2"] = dscores.sum(dim=0)
    dh1 = dscores.mm(W2.t())
    dh1[h1 <= 0] = 0
    grads["W1"] = X.t().mm(dh1) + 2 * reg * W1
    grads["b1"] = dh1.sum(dim=0)
    return loss, grads


toy_X, toy_y, params = get_toy_data()
print("W1 shape", params["W1"].shape, params["W1"].dtype)
scores = nn_forward_backward(params, toy_X)
print("scores:\n", scores)
print("scores * 1e8 :\n", scores * 1e8)
loss, grads = nn_forward_backward(params, toy_X, toy_y, reg=0.05)
print("loss %.10f" % loss.item())
for k, g in grads.items():
    print(k, g.shape, g.abs().max().item())

# check with autograd in float64
toy_X64, toy_y64, p64 = get_toy_data(dtype=torch.float64)
loss64, grads64 = nn_forward_backward(p64, toy_X64, toy_y64, reg=0.05)
pa = {k: v.clone().requires_grad_() for k, v in p64.items()}
s, _ = nn_forward_pass(pa, toy_X64)
la = torch.nn.functional.cross_entropy(s, toy_y64) + 0.05 * (
    pa["W1"].pow(2).sum() + pa["W2"].pow(2).sum()
)
la.backward()
for k in pa:
    err = (pa[k].grad - grads64[k]).abs().max() / (pa[k].grad.abs().max() + 1e-12)
    print("autograd check", k, err.item() < 1e-8, pa[k].grad.dtype)


# numerical gradient with gradcheck
def f(W1, b1, W2, b2):
    s, _ = nn_forward_pass({"W1": W1, "b1": b1, "W2": W2, "b2": b2}, toy_X64)
    return torch.nn.functional.cross_entropy(s, toy_y64)


inputs = tuple((torch.randn_like(p64[k]) * 0.1).requires_grad_() for k in ("W1", "b1", "W2", "b2"))
print("gradcheck:", torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-4))


def sample_batch(X, y, num_train, batch_size):
    idx = torch.randint(num_train, (batch_size,))
    return X[idx], y[idx]


def nn_train(
    params,
    loss_func,
    pred_func,
    X,
    y,
    X_val,
    y_val,
    learning_rate=1e-3,
    learning_rate_decay=0.95,
    reg=5e-6,
    num_iters=100,
    batch_size=20,
    verbose=False,
):
    num_train = X.shape[0]
    iterations_per_epoch = max(num_train // batch_size, 1)
    loss_history, train_acc_history, val_acc_history = [], [], []
    for it in range(num_iters):
        X_batch, y_batch = sample_batch(X, y, num_train, batch_size)
        loss, grads = loss_func(params, X_batch, y=y_batch, reg=reg)
        loss_history.append(loss.item())
        for k in params:
            params[k] -= learning_rate * grads[k]
        if verbose and it % 20 == 0:
            print("iteration %d / %d: loss %f" % (it, num_iters, loss.item()))
        if it % iterations_per_epoch == 0:
            train_acc = (pred_func(params, X_batch) == y_batch).float().mean().item()
            val_acc = (pred_func(params, X_val) == y_val).float().mean().item()
            train_acc_history.append(train_acc)
            val_acc_history.append(val_acc)
            learning_rate *= learning_rate_decay
    return {
        "loss_history": loss_history,
        "train_acc_history": train_acc_history,
        "val_acc_history": val_acc_history,
    }


def nn_predict(params, X):
    return nn_forward_pass(params, X)[0].argmax(dim=1)


class TwoLayerNet:
    def __init__(self, input_size, hidden_size, output_size, dtype=torch.float32, std=1e-4):
        torch.manual_seed(0)
        self.params = {
            "W1": std * torch.randn(input_size, hidden_size, dtype=dtype),
            "b1": torch.zeros(hidden_size, dtype=dtype),
            "W2": std * torch.randn(hidden_size, output_size, dtype=dtype),
            "b2": torch.zeros(output_size, dtype=dtype),
        }

    def loss(self, X, y=None, reg=0.0):
        return nn_forward_backward(self.params, X, y, reg)

    def train(self, *args, **kw):
        return nn_train(self.params, nn_forward_backward, nn_predict, *args, **kw)

    def predict(self, X):
        return nn_predict(self.params, X)

    def save(self, path):
        torch.save(self.params, path)
        print("Saved in {}".format(path))

    def load(self, path):
        self.params = torch.load(path)
        print("load checkpoint file: {}".format(path))


# synthetic spiral data
torch.manual_seed(1)
K, per = 3, 40
Xs, ys = [], []
for j in range(K):
    r = torch.linspace(0.0, 1, per)
    t = torch.linspace(j * 4, (j + 1) * 4, per) + torch.randn(per) * 0.2
    Xs.append(torch.stack([r * torch.sin(t), r * torch.cos(t)], dim=1))
    ys.append(torch.full((per,), j, dtype=torch.long))
Xall, yall = torch.cat(Xs), torch.cat(ys)
perm = torch.randperm(len(yall))
Xall, yall = Xall[perm], yall[perm]
Xtr, ytr, Xva, yva = Xall[:90], yall[:90], Xall[90:], yall[90:]
print(Xtr.shape, Xva.shape, ytr[:12])
net = TwoLayerNet(2, 32, 3, std=1e-1)
torch.manual_seed(5)
stats = net.train(
    Xtr, ytr, Xva, yva, learning_rate=1.0, reg=1e-3, num_iters=200, batch_size=30, verbose=True
)
print("final loss %.6f" % stats["loss_history"][-1])
print("train acc history", [round(a, 4) for a in stats["train_acc_history"][:8]])
print("val acc history", [round(a, 4) for a in stats["val_acc_history"][-5:]])
print("val accuracy:", (net.predict(Xva) == yva).float().mean())
net.save("two_layer.pth")
net2 = TwoLayerNet(2, 32, 3)
net2.load("two_layer.pth")
print("same predictions after load:", torch.equal(net2.predict(Xva), net.predict(Xva)))
print({k: (v.shape, v.dtype) for k, v in net2.params.items()})
print(
    "kaiming-ish std:",
    math.sqrt(2.0 / 2),
    torch.randn(1000, 32).mul(math.sqrt(2.0 / 2)).std().item(),
)


# --- A3 style modular layers: Linear / ReLU / Dropout / BatchNorm with hand-written backward ---
def rel_error(x, y, eps=1e-10):
    top = (x - y).abs().max().item()
    bot = (x.abs() + y.abs()).clamp(min=eps).max().item()
    return top / bot


def compute_numeric_gradient(f, x, dLdf=None, h=1e-7):
    flat_x = x.contiguous().flatten()
    grad = torch.zeros_like(x)
    flat_grad = grad.flatten()
    y = f(x)
    if dLdf is None:
        dLdf = torch.ones_like(y)
    dLdf = dLdf.flatten()
    for i in range(flat_x.shape[0]):
        oldval = flat_x[i].item()
        flat_x[i] = oldval + h
        yph = f(x).flatten()
        flat_x[i] = oldval - h
        ymh = f(x).flatten()
        flat_x[i] = oldval
        flat_grad[i] = dLdf.dot(yph - ymh) / (2 * h)
    return grad


class Linear(object):
    @staticmethod
    def forward(x, w, b):
        out = x.reshape(x.shape[0], -1).mm(w) + b
        return out, (x, w, b)

    @staticmethod
    def backward(dout, cache):
        x, w, b = cache
        dx = dout.mm(w.t()).view(x.shape)
        dw = x.reshape(x.shape[0], -1).t().mm(dout)
        db = dout.sum(dim=0)
        return dx, dw, db


class BatchNorm(object):
    @staticmethod
    def forward(x, gamma, beta, bn_param):
        mode = bn_param["mode"]
        eps = bn_param.get("eps", 1e-5)
        momentum = bn_param.get("momentum", 0.9)
        N, D = x.shape
        running_mean = bn_param.get("running_mean", torch.zeros(D, dtype=x.dtype))
        running_var = bn_param.get("running_var", torch.zeros(D, dtype=x.dtype))
        cache = None
        if mode == "train":
            mu = x.mean(dim=0)
            var = x.var(dim=0, unbiased=False)
            std = (var + eps).sqrt()
            xhat = (x - mu) / std
            out = gamma * xhat + beta
            running_mean = momentum * running_mean + (1 - momentum) * mu
            running_var = momentum * running_var + (1 - momentum) * var
            cache = (xhat, gamma, std)
        else:
            out = gamma * (x - running_mean) / (running_var + eps).sqrt() + beta
        bn_param["running_mean"] = running_mean.detach()
        bn_param["running_var"] = running_var.detach()
        return out, cache

    @staticmethod
    def backward_alt(dout, cache):
        xhat, gamma, std = cache
        N = dout.shape[0]
        dbeta = dout.sum(0)
        dgamma = (dout * xhat).sum(0)
        dxhat = dout * gamma
        dx = (N * dxhat - dxhat.sum(0) - xhat * (dxhat * xhat).sum(0)) / (N * std)
        return dx, dgamma, dbeta


class Dropout(object):
    @staticmethod
    def forward(x, dropout_param):
        p, mode = dropout_param["p"], dropout_param["mode"]
        if "seed" in dropout_param:
            torch.manual_seed(dropout_param["seed"])
        if mode == "train":
            mask = (torch.rand(x.shape) > p) / (1 - p)
            out = x * mask
        else:
            mask = None
            out = x
        return out, (dropout_param, mask)

    @staticmethod
    def backward(dout, cache):
        dropout_param, mask = cache
        return dout * mask if dropout_param["mode"] == "train" else dout


torch.manual_seed(0)
x = torch.randn(4, 2, 3, dtype=torch.float64)
w = torch.randn(6, 5, dtype=torch.float64)
b = torch.randn(5, dtype=torch.float64)
dout = torch.randn(4, 5, dtype=torch.float64)
_, cache = Linear.forward(x, w, b)
dx, dw, db = Linear.backward(dout, cache)
dx_num = compute_numeric_gradient(lambda x: Linear.forward(x, w, b)[0], x, dout)
dw_num = compute_numeric_gradient(lambda w: Linear.forward(x, w, b)[0], w, dout)
print(
    "linear dx error < 1e-8:",
    rel_error(dx_num, dx) < 1e-8,
    "dw error < 1e-8:",
    rel_error(dw_num, dw) < 1e-8,
)

N, Dd = 200, 3
x = 5 * torch.randn(N, Dd, dtype=torch.float64) + 12
gamma = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
beta = torch.tensor([11.0, 12.0, 13.0], dtype=torch.float64)
bn_param = {"mode": "train"}
a, _ = BatchNorm.forward(x, gamma, beta, bn_param)
print("after bn: means", a.mean(dim=0), "stds", a.std(dim=0))
for t in range(50):
    BatchNorm.forward(
        torch.randn(N, Dd, dtype=torch.float64) * 2 + 1,
        torch.ones(Dd, dtype=torch.float64),
        torch.zeros(Dd, dtype=torch.float64),
        bn_param,
    )
bn_param["mode"] = "test"
a_test, _ = BatchNorm.forward(
    torch.randn(N, Dd, dtype=torch.float64) * 2 + 1,
    torch.ones(Dd, dtype=torch.float64),
    torch.zeros(Dd, dtype=torch.float64),
    bn_param,
)
print("test-time means", a_test.mean(0), "running var", bn_param["running_var"])
xs = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
g_ = torch.randn(4, dtype=torch.float64, requires_grad=True)
be = torch.randn(4, dtype=torch.float64, requires_grad=True)
out, cache = BatchNorm.forward(xs, g_, be, {"mode": "train"})
dout = torch.randn(6, 4, dtype=torch.float64)
out.backward(dout)
dx, dg, db = BatchNorm.backward_alt(dout, tuple(c.detach() for c in cache))
print(
    "bn backward vs autograd:",
    rel_error(dx, xs.grad) < 1e-10,
    rel_error(dg, g_.grad) < 1e-10,
    rel_error(db, be.grad) < 1e-10,
)
print(
    "F.batch_norm agrees:",
    torch.allclose(
        F_out := torch.nn.functional.batch_norm(
            xs.detach(), None, None, g_.detach(), be.detach(), training=True
        ),
        out.detach(),
    ),
)

x = torch.randn(500, 500) + 10
for p in [0.25, 0.4, 0.7]:
    out, _ = Dropout.forward(x, {"mode": "train", "p": p, "seed": 123})
    out_test, _ = Dropout.forward(x, {"mode": "test", "p": p, "seed": 123})
    print(
        "p =",
        p,
        "mean train %.6f test %.6f" % (out.mean().item(), out_test.mean().item()),
        "frac zero train %.6f test %.6f"
        % ((out == 0).float().mean().item(), (out_test == 0).float().mean().item()),
    )
