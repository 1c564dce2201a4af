"""EPFL dlc practicals 4 & project 1 style: a convnet on synthetic 14x14 "digits", weight sharing, auxiliary loss"""

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


def generate_pair_sets(nb):
    # two 14x14 images, each a noisy stroke pattern of a class 0..9; target: is first <= second
    protos = torch.rand(10, 1, 14, 14).gt(0.7).float()
    classes = torch.randint(0, 10, (nb, 2))
    inp = protos[classes.view(-1)].view(nb, 2, 14, 14) + 0.3 * torch.randn(nb, 2, 14, 14)
    target = (classes[:, 0] <= classes[:, 1]).long()
    return inp, target, classes


train_input, train_target, train_classes = generate_pair_sets(64)
test_input, test_target, test_classes = generate_pair_sets(32)
print(train_input.shape, train_input.dtype, train_target.shape, train_classes.shape)
print("mean/std", train_input.mean().item(), train_input.std().item())
mu, std = train_input.mean(), train_input.std()
train_input.sub_(mu).div_(std)
test_input.sub_(mu).div_(std)
print("normalised mean %.6f std %.6f" % (train_input.mean().item(), train_input.std().item()))


class Net(nn.Module):
    def __init__(self, nb_hidden=50):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3)
        self.fc1 = nn.Linear(32 * 2 * 2, nb_hidden)
        self.fc2 = nn.Linear(nb_hidden, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), kernel_size=2))  # 14 -> 12 -> 6
        x = F.relu(F.max_pool2d(self.conv2(x), kernel_size=2))  # 6 -> 4 -> 2
        x = F.relu(self.fc1(x.view(-1, 32 * 2 * 2)))
        return self.fc2(x)


class SiameseNet(nn.Module):
    def __init__(self, share=True):
        super().__init__()
        self.share = share
        self.digit_a = Net()
        self.digit_b = self.digit_a if share else Net()
        self.comparator = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        a = self.digit_a(x[:, 0:1])
        b = self.digit_b(x[:, 1:2])
        return self.comparator(torch.cat([a, b], dim=1)), a, b


for share in (True, False):
    torch.manual_seed(1)
    m = SiameseNet(share)
    n_params = sum(p.numel() for p in m.parameters())
    print("share", share, "parameters", n_params, "tensors", len(list(m.parameters())))
m = SiameseNet(True)
print(m)
for name, p in m.named_parameters():
    print(f"{name:28s} {tuple(p.shape)}")
print([n for n, _ in m.named_children()])
print("shared?", m.digit_a.conv1.weight is m.digit_b.conv1.weight)


def shape_trace(model, x):
    for name, layer in [
        ("conv1", model.conv1),
        ("pool", lambda t: F.max_pool2d(t, 2)),
        ("conv2", model.conv2),
        ("pool", lambda t: F.max_pool2d(t, 2)),
    ]:
        x = layer(x)
        print(f"  after {name}: {tuple(x.shape)}")


shape_trace(m.digit_a, torch.zeros(5, 1, 14, 14))


def compute_nb_errors(model, inp, target, mini_batch_size=16):
    nb_errors = 0
    with torch.no_grad():
        for b in range(0, inp.size(0), mini_batch_size):
            out, _, _ = model(inp.narrow(0, b, mini_batch_size))
            _, predicted = out.max(1)
            nb_errors += (target.narrow(0, b, mini_batch_size) != predicted).sum().item()
    return nb_errors


def train_model(
    model, inp, target, classes, aux_weight=0.5, nb_epochs=8, mini_batch_size=16, lr=1e-1
):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for e in range(nb_epochs):
        acc_loss = 0.0
        for b in range(0, inp.size(0), mini_batch_size):
            out, a, bb = model(inp.narrow(0, b, mini_batch_size))
            loss = criterion(out, target.narrow(0, b, mini_batch_size))
            cls = classes.narrow(0, b, mini_batch_size)
            if aux_weight > 0:
                loss = loss + aux_weight * (criterion(a, cls[:, 0]) + criterion(bb, cls[:, 1]))
            acc_loss += loss.item()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"  epoch {e} loss {acc_loss:.6f}")


for share, aux in [(True, 0.5), (False, 0.0)]:
    torch.manual_seed(2)
    model = SiameseNet(share)
    train_model(model, train_input, train_target, train_classes, aux_weight=aux)
    tr_err = compute_nb_errors(model, train_input, train_target)
    te_err = compute_nb_errors(model, test_input, test_target)
    print(
        f"share={share} aux={aux}: train error {100 * tr_err / train_input.size(0):.2f}% test error {100 * te_err / test_input.size(0):.2f}%"
    )

# grads of a shared module accumulate from both branches
torch.manual_seed(3)
sm = SiameseNet(True)
out, a, b = sm(train_input[:4])
out.sum().backward()
g_shared = sm.digit_a.conv1.weight.grad.clone()
print("shared conv1 grad norm", g_shared.norm().item())
print(sm.digit_a.conv1.weight.grad is sm.digit_b.conv1.weight.grad)

# conv arithmetic: output sizes with padding/stride/dilation
for k, s, p, d in [(3, 1, 0, 1), (3, 2, 1, 1), (5, 1, 2, 1), (3, 1, 2, 2), (4, 3, 0, 1)]:
    conv = nn.Conv2d(2, 3, kernel_size=k, stride=s, padding=p, dilation=d)
    out = conv(torch.randn(1, 2, 11, 11))
    print(f"k={k} s={s} p={p} d={d} -> {tuple(out.shape)}", conv)
print(nn.Conv2d(3, 6, 3, padding="same")(torch.randn(1, 3, 7, 7)).shape)
print(nn.Conv2d(4, 8, 3, groups=2).weight.shape, nn.Conv2d(4, 4, 3, groups=4, bias=False))
print(nn.ConvTranspose2d(3, 2, kernel_size=2, stride=2)(torch.randn(1, 3, 5, 5)).shape)
print(
    nn.MaxPool2d(3, stride=2, padding=1)(torch.randn(1, 1, 7, 7)).shape,
    nn.MaxPool2d(2, ceil_mode=True)(torch.randn(1, 1, 7, 7)).shape,
)
try:
    nn.Conv2d(3, 4, 3)(torch.randn(1, 2, 8, 8))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Conv2d(1, 4, 3)(torch.randn(1, 1, 8, 8, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Conv2d(3, 4, 5)(torch.randn(1, 3, 3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Linear(10, 3)(torch.randn(4, 12))
except RuntimeError as e:
    print("RuntimeError:", e)


# --- nn.Module plumbing the practicals poke at: containers, buffers, state dicts ---
class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        self.register_buffer("scale", torch.tensor(0.5))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x):
        return x + self.scale * F.relu(self.bn(self.conv(x)))

    def extra_repr(self):
        return "residual with scale=%.2f" % self.scale.item()


class ResNetish(nn.Module):
    def __init__(self, nb_blocks=2, c=4):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 1)
        self.blocks = nn.ModuleList([Block(c) for _ in range(nb_blocks)])
        self.heads = nn.ModuleDict({"digit": nn.Linear(c, 10), "parity": nn.Linear(c, 2)})
        self.temps = nn.ParameterList([nn.Parameter(torch.ones(1)) for _ in range(2)])
        self.extra = nn.ParameterDict({"alpha": nn.Parameter(torch.tensor(0.1))})

    def forward(self, x):
        x = self.stem(x)
        for b in self.blocks:
            x = b(x)
        x = x.mean(dim=(2, 3))
        return {k: h(x) / t for (k, h), t in zip(self.heads.items(), self.temps)}


torch.manual_seed(5)
rn = ResNetish()
print(rn)
print(list(rn.state_dict().keys()))
print([n for n, _ in rn.named_buffers()])
print(
    sum(p.numel() for p in rn.parameters()),
    len(list(rn.modules())),
    [n for n, _ in rn.named_modules()][:6],
)
out = rn(torch.randn(3, 1, 6, 6))
print({k: v.shape for k, v in out.items()})
sd = rn.state_dict()
print(
    type(sd).__name__,
    sd["blocks.0.bn.running_mean"],
    sd["blocks.0.bn.num_batches_tracked"],
    sd["blocks.0.scale"],
)
rn2 = ResNetish()
res = rn2.load_state_dict(sd)
print(res)
del sd["heads.parity.bias"]
sd["unexpected.weight"] = torch.zeros(1)
print(rn2.load_state_dict(sd, strict=False))
try:
    rn2.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
bad = rn.state_dict()
bad["stem.weight"] = torch.zeros(2, 1, 1, 1)
try:
    rn2.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)


class Clash(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = torch.zeros(3)  # a plain attribute first ...
        self.register_buffer("mean", torch.zeros(3))  # ... then a buffer of the same name


try:
    Clash()
    print("no error")
except KeyError as e:
    print("KeyError:", e)
try:
    nn.Module().register_parameter("w", torch.ones(2))
except TypeError as e:
    print("TypeError:", e)
print(
    rn.get_submodule("blocks.1.bn"),
    rn.get_parameter("extra.alpha"),
    rn.blocks[0].get_buffer("scale"),
)
# freezing the trunk, training only a head (transfer-learning style)
for p in rn.parameters():
    p.requires_grad = False
for p in rn.heads["digit"].parameters():
    p.requires_grad = True
trainable = [n for n, p in rn.named_parameters() if p.requires_grad]
print("trainable", trainable)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, rn.parameters()), lr=0.1)
x = torch.randn(8, 1, 6, 6)
t = torch.randint(0, 10, (8,))
w_before = rn.stem.weight.clone()
for i in range(3):
    loss = F.cross_entropy(rn(x)["digit"], t)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("head-only step", i, round(loss.item(), 6))
print("stem unchanged", torch.equal(w_before, rn.stem.weight), rn.stem.weight.grad)
rn.zero_grad()
print(rn.heads["digit"].weight.grad)
rn.requires_grad_(True)
print(all(p.requires_grad for p in rn.parameters()))
rn.heads["digit"] = nn.Identity()
print(rn(x)["digit"].shape, rn.heads)
print(nn.Sequential(nn.Linear(2, 3), nn.Tanh())[0:1], nn.Sequential(*[nn.ReLU()] * 2))
from collections import OrderedDict

seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.Sigmoid())]))
print(seq, seq.fc, seq[-1])
torch.save(rn.state_dict(), "rn.pt")
print(
    sorted(torch.load("rn.pt").keys())[:3],
    torch.load("rn.pt", weights_only=True)["stem.bias"].shape,
)
print(rn.double().stem.weight.dtype, rn.float().stem.weight.dtype, rn.half().stem.weight.dtype)
