"""pytorch-tutorial convolutional neural network style, with BatchNorm2d and the conv arithmetic notebooks print."""

import torch
import torch.nn as nn
import torch.nn.functional as F

num_epochs = 3
num_classes = 4
batch_size = 16
learning_rate = 0.001
torch.manual_seed(0)


def make_digits(n):
    labels = torch.randint(0, num_classes, (n,))
    x = 0.2 * torch.randn(n, 1, 12, 12)
    for k in range(num_classes):
        m = labels == k
        r, c = divmod(k, 2)
        x[m, :, r * 6 : (r + 1) * 6, c * 6 : (c + 1) * 6] += 1.0
    return x, labels


xtr, ytr = make_digits(128)
xte, yte = make_digits(48)
train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(xtr, ytr), batch_size=batch_size, shuffle=True
)
test_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(xte, yte), batch_size=batch_size, shuffle=False
)


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super(ConvNet, self).__init__()
        self.layer1 = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.layer2 = nn.Sequential(
            nn.Conv2d(8, 16, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.fc = nn.Linear(3 * 3 * 16, num_classes)

    def forward(self, x):
        out = self.layer1(x)
        out = self.layer2(out)
        out = out.reshape(out.size(0), -1)
        out = self.fc(out)
        return out


model = ConvNet(num_classes)
print(model)
print(sum(p.numel() for p in model.parameters()))
print(list(model.state_dict().keys()))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 4 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print("Test Accuracy of the model on the test images: {} %".format(100 * correct / total))
print(model.layer1[1].running_mean, model.layer1[1].running_var[:3])
print(model.layer1[1].weight.grad[:3])
torch.save(model.state_dict(), "model.ckpt")

# Conv arithmetic and functional API
x = torch.arange(16.0).reshape(1, 1, 4, 4)
k = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]]]])
print(F.conv2d(x, k))
print(F.conv2d(x, k, stride=2), F.conv2d(x, k, padding=1).shape, F.conv2d(x, k, dilation=2))
print(F.max_pool2d(x, 2), F.avg_pool2d(x, 2), F.max_pool2d(x, 3, stride=1, padding=1).shape)
print(F.adaptive_avg_pool2d(x, (1, 1)), F.adaptive_max_pool2d(x, 2))
out, idx = F.max_pool2d(x, 2, return_indices=True)
print(idx, F.max_unpool2d(out, idx, 2))
print(
    F.pad(x, (1, 1, 0, 0)).shape,
    F.pad(x, (1, 1, 1, 1), mode="reflect")[0, 0, 0],
    F.pad(x, (1, 0, 1, 0), value=-1.0)[0, 0, :2],
)
print(
    F.interpolate(x, scale_factor=2, mode="nearest").shape,
    F.interpolate(x, size=(2, 2), mode="bilinear", align_corners=True),
)
print(
    F.unfold(x, kernel_size=2).shape,
    F.fold(F.unfold(x, 2), output_size=(4, 4), kernel_size=2).equal(
        x
        * torch.tensor(
            [[1.0, 2.0, 2.0, 1.0], [2.0, 4.0, 4.0, 2.0], [2.0, 4.0, 4.0, 2.0], [1.0, 2.0, 2.0, 1.0]]
        )
    ),
)
ct = nn.ConvTranspose2d(1, 2, kernel_size=2, stride=2)
print(ct(x).shape, ct.weight.shape)
c1 = nn.Conv1d(3, 4, kernel_size=3, padding="same")
print(c1(torch.randn(2, 3, 10)).shape, c1)
grp = nn.Conv2d(4, 8, 3, groups=2, bias=False)
print(grp.weight.shape, grp)
dw = nn.Conv2d(4, 4, 3, groups=4, padding=1, padding_mode="circular")
print(dw(torch.randn(1, 4, 5, 5)).shape, dw)
print(
    nn.AvgPool2d(2, ceil_mode=True)(torch.ones(1, 1, 5, 5)).shape,
    nn.Dropout2d(0.5).eval()(x).equal(x),
)
print(nn.PixelShuffle(2)(torch.arange(16.0).reshape(1, 4, 2, 2)))
print(nn.Upsample(scale_factor=2)(torch.tensor([[[[1.0, 2.0]]]])))
print(F.local_response_norm(torch.ones(1, 3, 2, 2), 2)[0, :, 0, 0])
try:
    model(torch.randn(2, 3, 12, 12))
except RuntimeError as e:
    print("RuntimeError:", e)
bn = nn.BatchNorm2d(2, momentum=None, affine=False, track_running_stats=True)
for _ in range(3):
    bn(torch.randn(4, 2, 3, 3))
print(bn, bn.running_mean, bn.num_batches_tracked)
inorm = nn.InstanceNorm2d(2)
gn = nn.GroupNorm(2, 4)
print(
    inorm(torch.randn(1, 2, 3, 3)).mean(dim=(2, 3)).abs().max() < 1e-5,
    gn,
    gn(torch.randn(2, 4, 3, 3)).shape,
)
