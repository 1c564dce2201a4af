"""Berkeley CS182/282A homework style: layers with hand-written backward vs torch.autograd, gradient checks."""

import torch
import torch.nn.functional as F

torch.manual_seed(182)
torch.set_printoptions(precision=6)


def rel_error(x, y):
    return (torch.max(torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8))).item()


def eval_numerical_gradient_array(f, x, df, h=1e-5):
    grad = torch.zeros_like(x)
    it = torch.nditer if hasattr(torch, "nditer") else None
    flat = x.view(-1)
    gflat = grad.view(-1)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + h
        pos = f(x).clone()
        flat[i] = old - h
        neg = f(x).clone()
        flat[i] = old
        gflat[i] = torch.sum((pos - neg) * df) / (2 * h)
    return grad


# --- affine ---
def affine_forward(x, w, b):
    out = x.reshape(x.shape[0], -1) @ w + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = (dout @ w.T).reshape(x.shape)
    dw = x.reshape(x.shape[0], -1).T @ dout
    db = dout.sum(0)
    return dx, dw, db


x = torch.randn(4, 2, 3, dtype=torch.float64)
w = torch.randn(6, 5, dtype=torch.float64)
b = torch.randn(5, dtype=torch.float64)
dout = torch.randn(4, 5, dtype=torch.float64)
dx_num = eval_numerical_gradient_array(lambda x: affine_forward(x, w, b)[0], x, dout)
dw_num = eval_numerical_gradient_array(lambda w: affine_forward(x, w, b)[0], w, dout)
db_num = eval_numerical_gradient_array(lambda b: affine_forward(x, w, b)[0], b, dout)
_, cache = affine_forward(x, w, b)
dx, dw, db = affine_backward(dout, cache)
print("Testing affine_backward function:")
print("dx error: %e" % rel_error(dx_num, dx) if rel_error(dx_num, dx) < 1e-7 else "dx error large")
print(
    "dw error small:", rel_error(dw_num, dw) < 1e-7, "db error small:", rel_error(db_num, db) < 1e-7
)

xt, wt, bt = (t.clone().requires_grad_() for t in (x, w, b))
out, _ = affine_forward(xt, wt, bt)
out.backward(dout)
print(torch.allclose(xt.grad, dx), torch.allclose(wt.grad, dw), torch.allclose(bt.grad, db))
print(out.grad_fn, xt.grad.dtype)


# --- relu ---
def relu_forward(x):
    return x.clamp(min=0), x


def relu_backward(dout, cache):
    return dout * (cache > 0)


xr = torch.randn(3, 4, dtype=torch.float64)
dr = torch.randn(3, 4, dtype=torch.float64)
print(
    "relu dx error:",
    rel_error(
        eval_numerical_gradient_array(lambda x: relu_forward(x)[0], xr, dr), relu_backward(dr, xr)
    )
    < 1e-8,
)
print(relu_backward(dr, xr).dtype)


# --- softmax loss ---
def softmax_loss(x, y):
    shifted = x - x.max(dim=1, keepdim=True).values
    Z = torch.exp(shifted).sum(dim=1, keepdim=True)
    log_probs = shifted - torch.log(Z)
    probs = torch.exp(log_probs)
    N = x.shape[0]
    loss = -log_probs[torch.arange(N), y].mean()
    dx = probs.clone()
    dx[torch.arange(N), y] -= 1
    dx /= N
    return loss, dx


def svm_loss(x, y):
    N = x.shape[0]
    correct = x[torch.arange(N), y].unsqueeze(1)
    margins = torch.clamp(x - correct + 1.0, min=0)
    margins[torch.arange(N), y] = 0
    loss = margins.sum() / N
    num_pos = (margins > 0).sum(dim=1)
    dx = (margins > 0).to(x.dtype)
    dx[torch.arange(N), y] -= num_pos.to(x.dtype)
    dx /= N
    return loss, dx


scores = 0.001 * torch.randn(10, 7, dtype=torch.float64)
y = torch.randint(7, (10,))
loss, dx = softmax_loss(scores, y)
print(
    "softmax loss %.6f (expected about %.6f)" % (loss.item(), torch.log(torch.tensor(7.0)).item())
)
st = scores.clone().requires_grad_()
lt = F.cross_entropy(st, y)
lt.backward()
print(rel_error(dx, st.grad) < 1e-10, abs(lt.item() - loss.item()) < 1e-12)
loss, dx = svm_loss(scores, y)
st = scores.clone().requires_grad_()
F.multi_margin_loss(st, y, reduction="sum").div(10).mul(7).backward()
print("svm loss %.6f" % loss.item(), rel_error(dx, st.grad) < 1e-10)


# --- custom autograd.Function and gradcheck ---
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


class BadCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x**2 * g


inp = torch.randn(5, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (inp,), eps=1e-6, atol=1e-4))
try:
    torch.autograd.gradcheck(BadCube.apply, (inp,), eps=1e-6, atol=1e-4)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(torch.autograd.gradcheck(BadCube.apply, (inp,), raise_exception=False))
print(torch.autograd.gradgradcheck(lambda t: (t.sin() * t).sum(), (inp,)))
out = Cube.apply(inp)
print(out.grad_fn.__class__.__name__, out.requires_grad)
out.sum().backward()
print(torch.allclose(inp.grad, 3 * inp.detach() ** 2))
lin_in = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
lin_w = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(F.linear, (lin_in, lin_w)))
print(torch.autograd.gradcheck(lambda a: F.log_softmax(a, dim=1), (lin_in,)))
print(torch.autograd.gradcheck(lambda a: F.layer_norm(a, (4,)), (lin_in,)))
try:
    torch.autograd.gradcheck(Cube.apply, (torch.randn(3, requires_grad=True),))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:100])

# --- two layer net, whole backward by hand vs autograd ---
N, D, H, C = 6, 5, 7, 3
X = torch.randn(N, D)
Y = torch.randint(C, (N,))
W1 = 0.1 * torch.randn(D, H)
b1 = torch.zeros(H)
W2 = 0.1 * torch.randn(H, C)
b2 = torch.zeros(C)
reg = 0.05
h1, c1 = affine_forward(X, W1, b1)
a1, cr = relu_forward(h1)
s2, c2 = affine_forward(a1, W2, b2)
data_loss, ds = softmax_loss(s2, Y)
loss = data_loss + 0.5 * reg * ((W1 * W1).sum() + (W2 * W2).sum())
da1, dW2, db2 = affine_backward(ds, c2)
dh1 = relu_backward(da1, cr)
_, dW1, db1 = affine_backward(dh1, c1)
dW1 += reg * W1
dW2 += reg * W2
params = [p.clone().requires_grad_() for p in (W1, b1, W2, b2)]
scores = torch.relu(X @ params[0] + params[1]) @ params[2] + params[3]
tl = F.cross_entropy(scores, Y) + 0.5 * reg * (params[0].pow(2).sum() + params[2].pow(2).sum())
tl.backward()
print("loss", loss.item(), tl.item())
for name, mine, p in zip(["W1", "b1", "W2", "b2"], [dW1, db1, dW2, db2], params):
    print(name, "max abs diff %.3e" % (mine - p.grad).abs().max().item(), tuple(p.grad.shape))
print(dW2)
print(params[2].grad)

# autograd.functional helpers from the homework's "bonus" part
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def g(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[0]])


x0 = torch.tensor([1.0, 2.0], dtype=torch.float64)
v0 = torch.tensor([1.0, -1.0], dtype=torch.float64)
print(vjp(g, x0, v0))
print(jvp(g, x0, v0))
print(jacobian(g, x0))
sc = lambda x: (x**2).prod() + x.exp().sum()
print(hvp(sc, x0, v0))
print(vhp(sc, x0, v0))
print(hessian(sc, x0))
print(jacobian(lambda a, b: a * b, (x0, v0)))
print(jacobian(g, x0, create_graph=True).requires_grad)


# once_differentiable and needs_input_grad
class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x * x

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        return 2 * ctx.scale * x * grad, None


xx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
yy = ScaledSquare.apply(xx, 0.5)
yy.sum().backward()
print(xx.grad, yy.grad_fn.name() if hasattr(yy.grad_fn, "name") else None)
xx.grad = None
yy = ScaledSquare.apply(xx, 2.0)
(gx,) = torch.autograd.grad(yy.sum(), xx, create_graph=True)
print(gx, gx.requires_grad)
try:
    gx.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        mask = x.abs() <= 1
        ctx.save_for_backward(mask)
        return x.clamp(-1, 1)

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask


c_in = torch.tensor([-2.0, -0.5, 0.5, 3.0], requires_grad=True)
Clip.apply(c_in).sum().backward()
print(c_in.grad)
print(
    torch.autograd.gradcheck(
        Clip.apply, (torch.tensor([-0.3, 0.4], dtype=torch.float64, requires_grad=True),)
    )
)


# --- naive conv / pool / rnn step vs torch ---
def conv_forward_naive(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F_, _, HH, WW = w.shape
    xp = F.pad(x, (pad, pad, pad, pad))
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    out = torch.zeros(N, F_, Ho, Wo, dtype=x.dtype)
    for i in range(Ho):
        for j in range(Wo):
            patch = xp[:, :, i * stride : i * stride + HH, j * stride : j * stride + WW]
            out[:, :, i, j] = torch.einsum("nchw,fchw->nf", patch, w) + b
    return out


def max_pool_forward_naive(x, ph, pw, stride):
    N, C, H, W = x.shape
    Ho, Wo = 1 + (H - ph) // stride, 1 + (W - pw) // stride
    out = torch.empty(N, C, Ho, Wo, dtype=x.dtype)
    for i in range(Ho):
        for j in range(Wo):
            out[:, :, i, j] = x[
                :, :, i * stride : i * stride + ph, j * stride : j * stride + pw
            ].amax(dim=(-1, -2))
    return out


torch.manual_seed(231)
xc = torch.linspace(-0.1, 0.5, steps=2 * 3 * 4 * 4, dtype=torch.float64).reshape(2, 3, 4, 4)
wc = torch.linspace(-0.2, 0.3, steps=3 * 3 * 4 * 4, dtype=torch.float64).reshape(3, 3, 4, 4)
bc = torch.linspace(-0.1, 0.2, steps=3, dtype=torch.float64)
out = conv_forward_naive(xc, wc, bc, stride=2, pad=1)
print(out.shape, out[0, 0])
print(
    "conv rel error %.3e" % rel_error(out, F.conv2d(xc, wc, bc, stride=2, padding=1))
    if rel_error(out, F.conv2d(xc, wc, bc, stride=2, padding=1)) < 1e-9
    else "big"
)
pool = max_pool_forward_naive(xc, 2, 2, 2)
print(torch.equal(pool, F.max_pool2d(xc, 2, 2)), pool[1, 2])
xg = xc.clone().requires_grad_()
F.max_pool2d(xg, 2, 2).sum().backward()
print(xg.grad[0, 0], xg.grad.sum())


def rnn_step_forward(x, prev_h, Wx, Wh, b):
    return torch.tanh(x @ Wx + prev_h @ Wh + b)


cell = torch.nn.RNNCell(4, 5).double()
xs = torch.randn(3, 4, dtype=torch.float64)
h0 = torch.randn(3, 5, dtype=torch.float64)
mine = rnn_step_forward(xs, h0, cell.weight_ih.T, cell.weight_hh.T, cell.bias_ih + cell.bias_hh)
print(torch.allclose(mine, cell(xs, h0)), mine.dtype, mine.shape)
h = h0
seq = torch.randn(6, 3, 4, dtype=torch.float64)
hs = []
for t_ in range(6):
    h = rnn_step_forward(
        seq[t_], h, cell.weight_ih.T, cell.weight_hh.T, cell.bias_ih + cell.bias_hh
    )
    hs.append(h)
H = torch.stack(hs)
rnn = torch.nn.RNN(4, 5).double()
rnn.load_state_dict(
    {
        "weight_ih_l0": cell.weight_ih,
        "weight_hh_l0": cell.weight_hh,
        "bias_ih_l0": cell.bias_ih,
        "bias_hh_l0": cell.bias_hh,
    }
)
ref, hn = rnn(seq, h0.unsqueeze(0))
print(torch.allclose(H, ref), torch.allclose(hn[0], H[-1]), (H - ref).abs().max() < 1e-12)
