"""A tiny U-Net for segmentation, as in the image-segmentation lessons: conv blocks with
BatchNorm, max-pool downsampling, transposed-convolution and bilinear upsampling, skip
connections by concatenation, and per-pixel cross-entropy."""

import torch
from torch import nn
from torch.nn import functional as F


def block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TinyUNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.down1, self.down2 = block(1, 4), block(4, 8)
        self.bottom = block(8, 16)
        self.up2 = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.dec2 = block(16, 8)
        self.dec1 = block(8 + 4, 4)
        self.out = nn.Conv2d(4, classes, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(F.max_pool2d(d1, 2))
        b = self.bottom(F.max_pool2d(d2, 2))
        u2 = self.dec2(torch.cat([self.up2(b), d2], dim=1))
        u1 = F.interpolate(u2, scale_factor=2, mode="bilinear", align_corners=False)
        u1 = self.dec1(torch.cat([u1, d1], dim=1))
        return self.out(u1)


torch.manual_seed(5)
model = TinyUNet()
x = torch.randn(2, 1, 8, 8)
target = torch.randint(0, 3, (2, 8, 8))
print(model(x).shape, sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    pred = model(x).argmax(1)
print(pred[0])
print((pred == target).float().mean())
print(F.interpolate(torch.arange(4.0).reshape(1, 1, 2, 2), scale_factor=2, mode="nearest"))
print(
    F.interpolate(
        torch.arange(4.0).reshape(1, 1, 2, 2), size=(3, 3), mode="bilinear", align_corners=True
    )
)
print(nn.PixelShuffle(2)(torch.arange(8.0).reshape(1, 4, 1, 2)))
