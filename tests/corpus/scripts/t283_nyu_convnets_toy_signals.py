"""NYU DL style: convolutions on toy 1D signals, kernels by hand, then a small 1D convnet."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)

# a toy signal: a sum of sinusoids and a step
T = 64
tt = torch.arange(T, dtype=torch.float32)
sig = torch.sin(2 * math.pi * tt / 16) + 0.5 * (tt > 40).float()
print(sig.shape, sig[:8])

# hand-made kernels: moving average, derivative, second derivative
kernels = torch.tensor([[1 / 3, 1 / 3, 1 / 3], [-1.0, 0.0, 1.0], [1.0, -2.0, 1.0]]).unsqueeze(1)
print(kernels.shape)
out = F.conv1d(sig.view(1, 1, T), kernels)
print(out.shape)
print(out[0, :, :6])
out_same = F.conv1d(sig.view(1, 1, T), kernels, padding=1)
print(out_same.shape, out_same[0, 1, 38:44])
out_str = F.conv1d(sig.view(1, 1, T), kernels, stride=2, dilation=2)
print(out_str.shape, out_str[0, 2, :5])
print(F.conv1d(sig.view(1, 1, T), kernels, padding="same").shape)
try:
    F.conv1d(sig.view(1, 1, T), kernels, padding="same", stride=2)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    F.conv1d(sig.view(1, 2, T // 2), kernels)
except RuntimeError as e:
    print("RuntimeError:", e)

# cross-correlation by hand via unfold
win = sig.unfold(0, 3, 1)
print(win.shape)
manual = win @ kernels.view(3, 3).t()
print(torch.allclose(manual.t(), out[0], atol=1e-6))

# nn.Conv1d layers and their parameters
conv = nn.Conv1d(1, 4, kernel_size=5, padding=2, bias=True)
print(conv)
print(conv.weight.shape, conv.bias.shape)
print(conv.weight[0])
for mode in ["zeros", "reflect", "replicate", "circular"]:
    c = nn.Conv1d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        c.weight.fill_(1.0)
    print(mode, c(torch.arange(5.0).view(1, 1, 5)))
print(F.pad(torch.arange(4.0).view(1, 1, 4), (2, 1), mode="reflect"))
print(F.pad(torch.arange(4.0).view(1, 1, 4), (1, 2), value=-1))

# pooling
z = torch.randn(1, 2, 10)
print(F.max_pool1d(z, 2), F.avg_pool1d(z, 3, stride=2))
vals, idx = F.max_pool1d(z, 2, return_indices=True)
print(idx)
print(nn.AdaptiveAvgPool1d(3)(z), nn.AdaptiveMaxPool1d(1)(z).squeeze(-1))
print(F.lp_pool1d(z.abs(), 2, 2))

# transposed conv
up = nn.ConvTranspose1d(2, 1, kernel_size=4, stride=2, padding=1)
print(up(z).shape, up.weight.shape)
print(
    F.interpolate(z, scale_factor=2, mode="nearest").shape,
    F.interpolate(z, size=15, mode="linear", align_corners=False)[0, 0, :5],
)

# 2D conv shapes on a toy "image"
img = torch.randn(2, 3, 9, 9)
c2 = nn.Conv2d(3, 6, kernel_size=(3, 5), stride=(1, 2), padding=(1, 0))
print(c2(img).shape, sum(p.numel() for p in c2.parameters()))
print(nn.Conv2d(3, 6, 3, groups=3)(img).shape, nn.Conv2d(3, 3, 3, groups=3).weight.shape)
print(F.unfold(img, kernel_size=3).shape)


# toy classification: is there a "bump" (positive pulse) or a "dip" in the signal?
def make_batch(n):
    xs = 0.3 * torch.randn(n, 1, 32)
    ys = torch.randint(0, 2, (n,))
    pos = torch.randint(4, 26, (n,))
    for i in range(n):
        s = 1.0 if ys[i] == 1 else -1.0
        xs[i, 0, pos[i] : pos[i] + 4] += s * torch.tensor([0.5, 1.0, 1.0, 0.5])
    return xs, ys


class SignalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 8, 5, padding=2)
        self.conv2 = nn.Conv1d(8, 8, 3, padding=1)
        self.pool = nn.MaxPool1d(2)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = F.adaptive_max_pool1d(x, 1).flatten(1)
        return self.fc(x)


torch.manual_seed(3)
xtr, ytr = make_batch(256)
xte, yte = make_batch(64)
net = SignalNet()
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(8):
    perm = torch.randperm(256)
    tot = 0.0
    for i in range(0, 256, 32):
        b = perm[i : i + 32]
        loss = F.cross_entropy(net(xtr[b]), ytr[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(b)
    with torch.no_grad():
        acc = (net(xte).argmax(1) == yte).float().mean().item()
    print(f"epoch {epoch} loss {tot / 256:.4f} test acc {acc:.3f}")
print(net.conv1.weight.grad.abs().mean())
print(net.conv1.weight[:2].detach())

# 2D extras from the convnet lecture: padding, folding, upsampling, pixel shuffle
torch.manual_seed(4)
im = torch.arange(16.0).view(1, 1, 4, 4)
print(F.pad(im, (1, 1, 0, 2), mode="replicate")[0, 0])
print(F.pad(im, (1, 1, 1, 1), mode="circular")[0, 0, 0])
patches = F.unfold(im, kernel_size=2, stride=2)
print(patches.shape, patches[0])
print(torch.equal(F.fold(patches, output_size=(4, 4), kernel_size=2, stride=2), im))
print(F.fold(F.unfold(im, 3, padding=1), (4, 4), 3, padding=1)[0, 0])
print(nn.Upsample(scale_factor=2, mode="nearest")(im[:, :, :2, :2])[0, 0])
print(F.interpolate(im, size=(3, 3), mode="bilinear", align_corners=True)[0, 0])
print(F.interpolate(im, scale_factor=0.5, mode="bilinear", align_corners=False)[0, 0])
ps = nn.PixelShuffle(2)
print(ps(torch.arange(8.0).view(1, 4, 1, 2)).shape, ps(torch.arange(8.0).view(1, 4, 1, 2))[0, 0])
print(nn.PixelUnshuffle(2)(im).shape)
print(
    F.max_pool2d(im, 2, stride=1),
    F.avg_pool2d(im, 3, stride=1, padding=1, count_include_pad=False)[0, 0, 0],
)
print(
    F.max_pool2d(im, 3, stride=2, ceil_mode=True).shape, F.adaptive_avg_pool2d(im, (2, 1)).view(-1)
)
mp, ind = F.max_pool2d(im, 2, return_indices=True)
print(ind, F.max_unpool2d(mp, ind, 2)[0, 0])
ct = nn.ConvTranspose2d(1, 2, kernel_size=3, stride=2, padding=1, output_padding=1)
print(ct(im).shape, ct.weight.shape)
print(
    nn.Conv2d(1, 2, 3, padding="same", dilation=2)(im).shape,
    nn.Conv2d(1, 2, 2, stride=2, bias=False).weight.shape,
)
print(
    nn.Conv3d(1, 2, kernel_size=(1, 3, 3))(im.unsqueeze(2)).shape
    if False
    else nn.Conv3d(1, 2, kernel_size=(1, 3, 3))(im.unsqueeze(1)).shape
)
c1 = nn.Conv2d(1, 1, 3, bias=False)
with torch.no_grad():
    c1.weight.copy_(torch.tensor([[[[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]]]))
print(c1(im * im)[0, 0])
im.requires_grad_(True)
c1(im).sum().backward()
print(im.grad[0, 0])
try:
    nn.Conv2d(1, 2, 5)(torch.zeros(1, 1, 3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Conv2d(2, 2, 3)(torch.zeros(1, 1, 5, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Conv2d(3, 2, 3, groups=2)
except ValueError as e:
    print("ValueError:", e)
