"""A spatial transformer network, as in PyTorch's tutorial of that name: a localisation
network regresses a 2x3 affine matrix (initialised to the identity), affine_grid turns it
into a sampling grid and grid_sample warps the input before a small classifier sees it."""

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.fc = nn.Linear(8, 3)
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
        )
        self.fc_loc = nn.Sequential(nn.Linear(4 * 5 * 5, 16), nn.ReLU(True), nn.Linear(16, 6))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 5 * 5)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta

    def forward(self, x):
        x, theta = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = x.flatten(1)
        return F.log_softmax(self.fc(x), dim=1), theta


# shapes shifted about a 12x12 canvas: a bar, a cross, a box
def shape(kind, dx, dy):
    img = torch.zeros(12, 12)
    if kind == 0:
        img[3 + dy : 9 + dy, 5 + dx] = 1
    elif kind == 1:
        img[6 + dy, 3 + dx : 9 + dx] = 1
        img[3 + dy : 9 + dy, 6 + dx] = 1
    else:
        img[3 + dy : 8 + dy, 3 + dx : 8 + dx] = 1
        img[4 + dy : 7 + dy, 4 + dx : 7 + dx] = 0
    return img


shifts = torch.randint(-2, 3, (24, 2))
labels = torch.arange(24) % 3
images = torch.stack([shape(int(k), int(s[0]), int(s[1])) for k, s in zip(labels, shifts)])
images = images.unsqueeze(1) + 0.05 * torch.randn(24, 1, 12, 12)

model = Net()
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(10):
    optimizer.zero_grad()
    output, theta = model(images)
    loss = F.nll_loss(output, labels)
    loss.backward()
    optimizer.step()
    correct = (output.argmax(1) == labels).sum().item()
    print(f"epoch {epoch}: loss {loss.item():.4f}, {correct}/24 correct")

print(output.grad_fn, loss.grad_fn)
with torch.no_grad():
    warped, theta = model.stn(images[:2])
print("theta:", theta.round(decimals=4))
print("warped row:", warped[0, 0, 6].round(decimals=3))

# the identity transform samples the image back exactly (align_corners=False)
eye = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(eye, (1, 1, 12, 12), align_corners=False)
print(torch.allclose(F.grid_sample(images[:1], grid, align_corners=False), images[:1], atol=1e-6))
# a half-size zoom, rotations, and the three padding modes on a tiny ramp
ramp = torch.arange(16.0).view(1, 1, 4, 4)
zoom = torch.tensor([[[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]])
print(
    F.grid_sample(ramp, F.affine_grid(zoom, (1, 1, 4, 4), align_corners=False), align_corners=False)
)
angle = torch.tensor(0.3)
rot = torch.stack(
    [
        torch.cos(angle),
        -torch.sin(angle),
        torch.tensor(0.2),
        torch.sin(angle),
        torch.cos(angle),
        torch.tensor(0.0),
    ]
).view(1, 2, 3)
g = F.affine_grid(rot, (1, 1, 4, 4), align_corners=True)
for mode in ("bilinear", "nearest", "bicubic"):
    for padding in ("zeros", "border", "reflection"):
        out = F.grid_sample(ramp, g, mode=mode, padding_mode=padding, align_corners=True)
        print(mode, padding, out.flatten().round(decimals=3).tolist())
