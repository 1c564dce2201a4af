"""Spatial transformer network: affine_grid + grid_sample on small synthetic images."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)

# --- affine_grid / grid_sample basics --------------------------------------------------
theta_id = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta_id, size=(1, 1, 3, 4), align_corners=False)
print("identity grid shape", grid.shape)
print(grid[0, :, :, 0])
print(grid[0, :, :, 1])
grid_ac = F.affine_grid(theta_id, size=(1, 1, 3, 4), align_corners=True)
print("align_corners=True x:", grid_ac[0, 0, :, 0])

img = torch.arange(16.0).view(1, 1, 4, 4)
g = F.affine_grid(theta_id, img.size(), align_corners=False)
print("identity resample equal:", torch.allclose(F.grid_sample(img, g, align_corners=False), img))

# a 90 degree rotation and a shift
rot = torch.tensor([[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0]]])
g = F.affine_grid(rot, img.size(), align_corners=False)
print("rotated:\n", F.grid_sample(img, g, align_corners=False))
shift = torch.tensor([[[1.0, 0.0, 0.5], [0.0, 1.0, 0.0]]])
g = F.affine_grid(shift, img.size(), align_corners=False)
print("shift zeros pad:\n", F.grid_sample(img, g, align_corners=False))
print("shift border pad:\n", F.grid_sample(img, g, padding_mode="border", align_corners=False))
print(
    "shift reflection pad:\n", F.grid_sample(img, g, padding_mode="reflection", align_corners=False)
)
print("shift nearest:\n", F.grid_sample(img, g, mode="nearest", align_corners=False))
scale = torch.tensor([[[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]])
g = F.affine_grid(scale, (1, 1, 2, 2), align_corners=True)
print("zoom-in 2x2, align_corners=True:\n", F.grid_sample(img, g, align_corners=True))

# gradients flow into theta and into the image
theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.1, 0.8, 0.0]]], requires_grad=True)
src = torch.rand(1, 2, 5, 5, requires_grad=True)
out = F.grid_sample(
    src, F.affine_grid(theta, (1, 2, 5, 5), align_corners=False), align_corners=False
)
print(out.shape, out.grad_fn)
out.pow(2).sum().backward()
print("dtheta:\n", theta.grad)
print("dsrc[0,0]:\n", src.grad[0, 0])


# --- data: a small blob randomly placed in a 12x12 image; class = which quadrant the blob is in
def make_batch(n):
    imgs = torch.zeros(n, 1, 12, 12)
    labels = torch.randint(0, 4, (n,))
    for k in range(n):
        q = labels[k].item()
        r0 = (q // 2) * 6 + torch.randint(0, 3, ()).item()
        c0 = (q % 2) * 6 + torch.randint(0, 3, ()).item()
        imgs[k, 0, r0 : r0 + 3, c0 : c0 + 3] = 1.0
    imgs += 0.05 * torch.randn_like(imgs)
    return imgs, labels


xtr, ytr = make_batch(128)
xte, yte = make_batch(32)
print("data", xtr.shape, ytr[:10])


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(8 * 3 * 3, 16)
        self.fc2 = nn.Linear(16, 4)
        # Spatial transformer localization-network
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=5),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Conv2d(4, 6, kernel_size=3),
            nn.ReLU(True),
        )
        # Regressor for the 3 * 2 affine matrix
        self.fc_loc = nn.Sequential(
            nn.Linear(6 * 2 * 2, 16),
            nn.ReLU(True),
            nn.Linear(16, 3 * 2),
        )
        # Initialize the weights/bias with identity transformation
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 6 * 2 * 2)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x, theta

    def forward(self, x):
        x, theta = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = x.view(-1, 8 * 3 * 3)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, p=0.1, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1), theta


model = Net()
print(model.fc_loc)
print("initial bias", model.fc_loc[2].bias)
optimizer = optim.SGD(model.parameters(), lr=0.05)

for epoch in range(1, 7):
    model.train()
    perm = torch.randperm(len(xtr))
    for b in range(0, len(xtr), 32):
        idx = perm[b : b + 32]
        data, target = xtr[idx], ytr[idx]
        optimizer.zero_grad()
        output, _ = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        output, theta = model(xte)
        test_loss = F.nll_loss(output, yte, reduction="sum").item() / len(xte)
        pred = output.max(1, keepdim=True)[1]
        correct = pred.eq(yte.view_as(pred)).sum().item()
    print(
        "Epoch {} train loss {:.6f} | Test set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)".format(
            epoch, loss.item(), test_loss, correct, len(xte), 100.0 * correct / len(xte)
        )
    )

print("theta of first test image:\n", theta[0])
with torch.no_grad():
    transformed, _ = model.stn(xte[:2])
print("transformed shape", transformed.shape)
print("transformed row sums", transformed[0, 0].sum(1))
