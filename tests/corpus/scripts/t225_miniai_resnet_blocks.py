"""miniai style: ResNet blocks (conv-BN-act, identity/1x1 shortcut, avg-pool downsampling), a model summary via hooks, and a short fit."""

from functools import partial

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(3)
act_gr = partial(nn.LeakyReLU, negative_slope=0.1)


def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=None):
    if bias is None:
        bias = not isinstance(norm, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d))
    layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2, bias=bias)]
    if norm:
        layers.append(norm(nf))
    if act:
        layers.append(act())
    return nn.Sequential(*layers)


def _conv_block(ni, nf, stride, act=act_gr, norm=None, ks=3):
    return nn.Sequential(
        conv(ni, nf, stride=1, act=act, norm=norm, ks=ks),
        conv(nf, nf, stride=stride, act=None, norm=norm, ks=ks),
    )


class ResBlock(nn.Module):
    def __init__(self, ni, nf, stride=1, ks=3, act=act_gr, norm=None):
        super().__init__()
        self.convs = _conv_block(ni, nf, stride, act=act, ks=ks, norm=norm)
        self.idconv = nn.Identity() if ni == nf else conv(ni, nf, ks=1, stride=1, act=None)
        self.pool = nn.Identity() if stride == 1 else nn.AvgPool2d(2, ceil_mode=True)
        self.act = act()

    def forward(self, x):
        return self.act(self.convs(x) + self.idconv(self.pool(x)))


def get_model(act=act_gr, nfs=(8, 16, 32, 64), norm=nn.BatchNorm2d):
    layers = [ResBlock(1, 8, stride=1, act=act, norm=norm)]
    layers += [
        ResBlock(nfs[i], nfs[i + 1], act=act, norm=norm, stride=2) for i in range(len(nfs) - 1)
    ]
    layers += [nn.Flatten(), nn.Linear(nfs[-1], 10, bias=False), nn.BatchNorm1d(10)]
    return nn.Sequential(*layers)


rb = ResBlock(8, 16, stride=2, norm=nn.BatchNorm2d)
print(rb)
xb = torch.randn(4, 8, 9, 9)
print("ResBlock out:", rb(xb).shape, "pool alone:", rb.pool(xb).shape)
print("identity:", nn.Identity()(torch.arange(3)))

model = get_model()
x = torch.randn(16, 1, 8, 8)
try:
    model(x)
except RuntimeError as e:
    print("RuntimeError (flatten before pooling):", str(e)[:60])


# a summary table made with forward hooks
def summary(model, xb):
    rows = []
    tot = 0

    def hook(name, m, inp, outp):
        nonlocal tot
        nparms = sum(o.numel() for o in m.parameters())
        tot += nparms
        rows.append(
            f"| {name:10} | {tuple(inp[0].shape)!s:16} | {tuple(outp.shape)!s:16} | {nparms:6} |"
        )

    hs = [m.register_forward_hook(partial(hook, type(m).__name__)) for m in model]
    with torch.no_grad():
        model.eval()(xb)
    for h in hs:
        h.remove()
    print("| Module     | Input            | Output           | Params |")
    print("\n".join(rows))
    print("Tot params:", tot)


def get_model2(act=act_gr, nfs=(8, 16, 32, 64), norm=nn.BatchNorm2d):
    layers = [ResBlock(1, 8, stride=1, act=act, norm=norm)]
    layers += [
        ResBlock(nfs[i], nfs[i + 1], act=act, norm=norm, stride=2) for i in range(len(nfs) - 1)
    ]
    layers += [
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(nfs[-1], 10, bias=False),
        nn.BatchNorm1d(10),
    ]
    return nn.Sequential(*layers)


torch.manual_seed(0)
model = get_model2()
summary(model, x)
model.train()


def init_weights(m, leaky=0.0):
    if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Linear)):
        nn.init.kaiming_normal_(m.weight, a=leaky)


model.apply(partial(init_weights, leaky=0.1))
print("first conv weight std:", model[0].convs[0][0].weight.std())

# zero-init the last BN in each block
for m in model.modules():
    if isinstance(m, ResBlock) and isinstance(m.convs[1][1], nn.BatchNorm2d):
        nn.init.zeros_(m.convs[1][1].weight)
print(
    "zeroed bn weights:",
    [m.convs[1][1].weight.abs().sum().item() for m in model.modules() if isinstance(m, ResBlock)],
)

# synthetic 10 class "images"
torch.manual_seed(1)
templates = torch.randn(10, 1, 8, 8)
ys = torch.randint(0, 10, (160,))
xs = templates[ys] + 0.8 * torch.randn(160, 1, 8, 8)
tr_x, tr_y, va_x, va_y = xs[:128], ys[:128], xs[128:], ys[128:]
opt = torch.optim.SGD(model.parameters(), lr=5e-2, momentum=0.9, weight_decay=1e-5)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-2, total_steps=3 * 4)
for epoch in range(3):
    model.train()
    perm = torch.randperm(128)
    tot = 0.0
    for i in range(4):
        idx = perm[i * 32 : (i + 1) * 32]
        loss = F.cross_entropy(model(tr_x[idx]), tr_y[idx])
        opt.zero_grad()
        loss.backward()
        gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
        opt.step()
        sched.step()
        tot += loss.item()
    model.eval()
    with torch.inference_mode():
        logits = model(va_x)
        acc = (logits.argmax(1) == va_y).float().mean().item()
    print(
        f"epoch {epoch} train loss {tot / 4:.4f} valid acc {acc:.3f} grad norm {gn:.3f} lr {sched.get_last_lr()[0]:.5f}"
    )

print("inference tensor:", logits.is_inference(), logits.requires_grad)
probs = logits.softmax(-1)
top = probs.topk(3, dim=-1)
print("top3 values:", top.values[:2])
print("top3 indices:", top.indices[:2])
print("confusion (first 4 classes):")
cm = torch.zeros(10, 10, dtype=torch.long)
for t, p in zip(va_y, logits.argmax(1)):
    cm[t, p] += 1
print(cm[:4, :4])
print("diag sum:", cm.diag().sum(), "total:", cm.sum())

# test-time augmentation: average with a horizontally flipped view
with torch.no_grad():
    p1 = model(va_x).softmax(-1)
    p2 = model(torch.flip(va_x, dims=[3])).softmax(-1)
    tta = torch.stack([p1, p2]).mean(0)
print("tta acc:", (tta.argmax(1) == va_y).float().mean(), tta.shape, tta.sum(1)[:3])

# count params per block, requires_grad toggling
for n, m in model.named_children():
    print(n, type(m).__name__, sum(p.numel() for p in m.parameters() if p.requires_grad))
for p in model[:3].parameters():
    p.requires_grad_(False)
print(
    "trainable:",
    sum(p.numel() for p in model.parameters() if p.requires_grad),
    "frozen:",
    sum(p.numel() for p in model.parameters() if not p.requires_grad),
)
