"""EPFL dlc lecture 4.x style: autograd mechanics, higher order, hooks, no_grad, pitfalls"""

import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 0.25, -1.0], requires_grad=True)
y = (x * w).sum()
print(y, y.grad_fn, y.grad_fn.next_functions)
print(y.requires_grad, y.is_leaf, x.is_leaf, x.grad_fn)
y.backward()
print("x.grad", x.grad, "w.grad", w.grad)

# autograd.grad with create_graph: higher order derivatives
t = torch.tensor(2.0, requires_grad=True)
f = t**3 - 2 * t**2 + t
(df,) = torch.autograd.grad(f, t, create_graph=True)
(d2f,) = torch.autograd.grad(df, t, create_graph=True)
(d3f,) = torch.autograd.grad(d2f, t)
print("f", f.item(), "df", df, "d2f", d2f, "d3f", d3f)

# gradient of a vector-valued function needs grad_outputs
u = torch.linspace(-1, 1, 5, requires_grad=True)
v = torch.tanh(u)
(g,) = torch.autograd.grad(v, u, grad_outputs=torch.ones_like(v))
print("dtanh", g, torch.allclose(g, 1 - torch.tanh(u.detach()) ** 2))
try:
    torch.autograd.grad(v, u)
except RuntimeError as e:
    print("RuntimeError:", e)


# Jacobian by rows
def jacobian(fn, inp):
    out = fn(inp)
    rows = []
    for i in range(out.numel()):
        (gi,) = torch.autograd.grad(out.view(-1)[i], inp, retain_graph=True)
        rows.append(gi.view(-1))
    return torch.stack(rows)


A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
z = torch.tensor([0.5, -1.0], requires_grad=True)
J = jacobian(lambda q: torch.sin(A @ q), z)
print("jacobian\n", J)
print(
    "autograd.functional.jacobian\n",
    torch.autograd.functional.jacobian(lambda q: torch.sin(A @ q), z),
)
print(
    "hessian\n", torch.autograd.functional.hessian(lambda q: (q**3).sum() + q[0] * q[1], z.detach())
)

# backward twice
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = (a * a).sum()
b.backward(retain_graph=True)
print("first", a.grad)
b.backward()
print("accumulated", a.grad)
a.grad.zero_()
c = (a.exp()).sum()
c.backward()
try:
    c.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
a.grad = None
print("grad now", a.grad)

# non-leaf grads: retain_grad and hooks
p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = p * 2
h.retain_grad()
seen = []
hk = h.register_hook(lambda g: seen.append(g.clone()))
q = p.register_hook(lambda g: g * 10)
out = (h**2).mean()
out.backward()
print("h.grad", h.grad, "seen", seen, "p.grad (x10 by hook)", p.grad)
hk.remove()
q.remove()
p.grad = None
((p * 2) ** 2).mean().backward()
print("after removing hooks", p.grad)
try:
    out2 = (p * 2).sum()
    print(out2.grad)
except Exception as e:
    print(type(e).__name__, e)

# no_grad, detach, requires_grad_, set_grad_enabled, inference_mode
with torch.no_grad():
    r = p * 3
print(r.requires_grad, r.grad_fn)
d = (p * 3).detach()
print(d.requires_grad, d)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (p + 1).requires_grad)
print(torch.is_grad_enabled())
with torch.inference_mode():
    im = p * 2
print(im.requires_grad, im.is_inference())
k = torch.ones(3)
k.requires_grad_()
print(k.requires_grad, k.is_leaf)
try:
    (p * 2).requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    p.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    p.add_(1)
print(p, p._version)
try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# in-place activations and autograd
leaf = torch.tensor([-1.0, 2.0], requires_grad=True)
try:
    F_relu = torch.nn.functional.relu(leaf, inplace=True)
    print("no error:", F_relu)
except RuntimeError as err:
    print("RuntimeError:", err)
hmid = leaf * 3
out_ip = torch.nn.functional.relu(hmid, inplace=True)
print("inplace relu returns its input:", out_ip is hmid, hmid, hmid._version)
out_ip.sum().backward()
print("grad through inplace relu", leaf.grad)
ex = leaf.exp()
torch.nn.functional.relu(ex, inplace=True)
try:
    ex.sum().backward()
    print("no error, grad", leaf.grad)
except RuntimeError as err:
    print("RuntimeError:", str(err)[:150])

# in-place on saved tensor
e1 = torch.tensor([1.0, 2.0], requires_grad=True)
s = e1.sigmoid()
loss = (s * s).sum()
s.mul_(2)
try:
    loss.backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:160])

# gradient of a max, of abs at 0, relu at 0, sqrt at 0
m = torch.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
m.max().backward()
print("max grad", m.grad)
m.grad = None
m.amax().backward()
print("amax grad", m.grad)
m.grad = None
torch.max(m, 0)[0].backward()
print("max(dim) grad", m.grad)
zz = torch.tensor([0.0, -1.0, 2.0], requires_grad=True)
(zz.abs().sum() + zz.relu().sum() + zz.clamp(0, 1).sum()).backward()
print("abs/relu/clamp grad", zz.grad)
sq = torch.tensor([0.0, 4.0], requires_grad=True)
sq.sqrt().sum().backward()
print("sqrt grad", sq.grad)
nm = torch.zeros(3, requires_grad=True)
nm.norm().backward()
print("norm grad at 0", nm.grad)


# custom autograd function
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        out = inp.exp()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out


xe = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
ye = MyExp.apply(xe)
print(ye, ye.grad_fn.__class__.__name__)
ye.sum().backward()
print(xe.grad)
print(
    "gradcheck MyExp",
    torch.autograd.gradcheck(
        MyExp.apply, (torch.randn(3, dtype=torch.float64, requires_grad=True),)
    ),
)
print(
    "gradgradcheck",
    torch.autograd.gradgradcheck(
        lambda q: (q**3).sum(), (torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True),)
    ),
)

# autograd for a small regression by hand
torch.manual_seed(4)
X = torch.randn(30, 2)
yt = X @ torch.tensor([2.0, -3.0]) + 0.7 + 0.1 * torch.randn(30)
wv = torch.zeros(2, requires_grad=True)
bv = torch.zeros(1, requires_grad=True)
for step in range(60):
    pred = X @ wv + bv
    l = ((pred - yt) ** 2).mean()
    l.backward()
    with torch.no_grad():
        wv -= 0.1 * wv.grad
        bv -= 0.1 * bv.grad
        wv.grad.zero_()
        bv.grad.zero_()
    if step % 15 == 0:
        print(f"step {step:2d} loss {l.item():.6f} w {wv.data.tolist()} b {bv.item():.5f}")
print("final", wv, bv)
print(torch.autograd.grad((wv * 2).sum(), [wv, bv], allow_unused=True))
print(torch.autograd.grad((wv * 2).sum(), [wv, bv], allow_unused=True, materialize_grads=True))

# --- EECS 498 A4 style: saliency maps, class visualisation, adversarial step, gram matrices ---
import torch.nn as nn

torch.manual_seed(6)
net = nn.Sequential(
    nn.Conv2d(3, 4, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(2),
    nn.Flatten(),
    nn.Linear(16, 5),
)
for p in net.parameters():
    p.requires_grad_(False)
print("frozen:", all(not p.requires_grad for p in net.parameters()))
imgs = torch.randn(3, 3, 6, 6)
labels = torch.tensor([0, 3, 4])


def compute_saliency_maps(X, y, model):
    model.eval()
    X.requires_grad_()
    scores = model(X)
    correct = scores.gather(1, y.view(-1, 1)).squeeze()
    correct.backward(torch.ones_like(correct))
    saliency, _ = X.grad.abs().max(dim=1)
    return saliency


sal = compute_saliency_maps(imgs.clone(), labels, net)
print("saliency", sal.shape, sal[0])


def make_adversarial_attack(X, target_y, model, max_iter=20, learning_rate=1.0):
    X_adv = X.clone().requires_grad_()
    for i in range(max_iter):
        scores = model(X_adv)
        if scores.argmax(dim=1).item() == target_y:
            print("  fooled after", i, "iterations")
            break
        target_score = scores[0, target_y]
        target_score.backward()
        with torch.no_grad():
            g = X_adv.grad
            X_adv += learning_rate * g / g.norm()
            X_adv.grad.zero_()
        print(
            "  iteration %d target score %.6f max score %.6f"
            % (i, scores[0, target_y].item(), scores.max().item())
        )
    return X_adv.detach()


X_adv = make_adversarial_attack(imgs[:1], 2, net, max_iter=6, learning_rate=5.0)
print("difference magnified", (X_adv - imgs[:1]).abs().max().item() > 0, net(X_adv).argmax(1))


def class_visualization_step(img, target_y, model, l2_reg=1e-3, learning_rate=25):
    scores = model(img)
    obj = scores[0, target_y] - l2_reg * img.norm() ** 2
    obj.backward()
    with torch.no_grad():
        img += learning_rate * img.grad / img.grad.norm()
        img.grad.zero_()


torch.manual_seed(7)
img = torch.randn(1, 3, 6, 6).mul_(1.0).requires_grad_()
for t in range(5):
    class_visualization_step(img, 1, net)
    with torch.no_grad():
        img.data.copy_(img.data.clamp(-3, 3))
        if t % 2 == 0:
            ox, oy = 1, -1
            img.data.copy_(torch.roll(img.data, shifts=(ox, oy), dims=(2, 3)))
    print("step", t, "score", net(img)[0, 1].item())


def gram_matrix(features, normalize=True):
    N, C, H, W = features.shape
    f = features.reshape(N, C, -1)
    gram = torch.bmm(f, f.transpose(1, 2))
    if normalize:
        gram /= H * W * C
    return gram


def content_loss(content_weight, content_current, content_original):
    return content_weight * ((content_current - content_original) ** 2).sum()


def tv_loss(img, tv_weight):
    return tv_weight * (
        ((img[:, :, 1:, :] - img[:, :, :-1, :]) ** 2).sum()
        + ((img[:, :, :, 1:] - img[:, :, :, :-1]) ** 2).sum()
    )


feats = torch.randn(2, 4, 3, 3)
G = gram_matrix(feats)
print("gram", G.shape, G[0], torch.allclose(G, G.transpose(1, 2)))
print("gram via einsum", torch.allclose(G, torch.einsum("nchw,ndhw->ncd", feats, feats) / 36))
print(
    "content loss %.6f" % content_loss(0.5, feats[0], feats[1]).item(),
    "tv loss %.6f" % tv_loss(feats, 0.1).item(),
)
style_img = torch.randn(1, 4, 3, 3)
gen = torch.zeros(1, 4, 3, 3, requires_grad=True)
opt = torch.optim.Adam([gen], lr=0.3)
for it in range(30):
    loss = (
        ((gram_matrix(gen) - gram_matrix(style_img)) ** 2).sum()
        + tv_loss(gen, 1e-3)
        + 1e-3 * content_loss(1.0, gen, feats[:1])
    )
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"style iter {it} loss {loss.item():.8f}")
print(gen.grad.abs().sum() > 0, gen.detach().flatten()[:5])
try:
    torch.autograd.grad(net(imgs).sum(), imgs)
except RuntimeError as e:
    print("RuntimeError:", e)
