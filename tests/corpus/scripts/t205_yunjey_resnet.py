"""pytorch-tutorial deep residual network style (a CIFAR-like synthetic set), with manual lr decay and hooks."""

import torch
import torch.nn as nn
import torch.nn.functional as F

num_epochs = 2
learning_rate = 0.001
torch.manual_seed(0)


class RandomCropFlip:
    def __init__(self, pad=2):
        self.pad = pad

    def __call__(self, img):
        img = F.pad(img, (self.pad,) * 4)
        i, j = torch.randint(0, 2 * self.pad + 1, (2,)).tolist()
        img = img[:, i : i + 12, j : j + 12]
        if torch.rand(()) < 0.5:
            img = img.flip(-1)
        return img


class SyntheticCIFAR(torch.utils.data.Dataset):
    def __init__(self, n, train=True, transform=None):
        g = torch.Generator().manual_seed(1 if train else 2)
        self.targets = torch.randint(0, 3, (n,), generator=g)
        self.data = 0.25 * torch.randn(n, 3, 12, 12, generator=g)
        for k in range(3):
            self.data[self.targets == k, k] += 0.8
        self.transform = transform

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        x = self.data[i]
        if self.transform is not None:
            x = self.transform(x)
        return x, self.targets[i]


train_dataset = SyntheticCIFAR(64, True, RandomCropFlip())
test_dataset = SyntheticCIFAR(32, False)
train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=16, shuffle=True)
test_loader = torch.utils.data.DataLoader(dataset=test_dataset, batch_size=16, shuffle=False)


def conv3x3(in_channels, out_channels, stride=1):
    return nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)


class ResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride=1, downsample=None):
        super(ResidualBlock, self).__init__()
        self.conv1 = conv3x3(in_channels, out_channels, stride)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(out_channels, out_channels)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = downsample

    def forward(self, x):
        residual = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.downsample:
            residual = self.downsample(x)
        out += residual
        out = self.relu(out)
        return out


class ResNet(nn.Module):
    def __init__(self, block, layers, num_classes=10):
        super(ResNet, self).__init__()
        self.in_channels = 8
        self.conv = conv3x3(3, 8)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = self.make_layer(block, 8, layers[0])
        self.layer2 = self.make_layer(block, 16, layers[1], 2)
        self.layer3 = self.make_layer(block, 32, layers[2], 2)
        self.avg_pool = nn.AvgPool2d(3)
        self.fc = nn.Linear(32, num_classes)

    def make_layer(self, block, out_channels, blocks, stride=1):
        downsample = None
        if (stride != 1) or (self.in_channels != out_channels):
            downsample = nn.Sequential(
                conv3x3(self.in_channels, out_channels, stride=stride), nn.BatchNorm2d(out_channels)
            )
        layers = []
        layers.append(block(self.in_channels, out_channels, stride, downsample))
        self.in_channels = out_channels
        for i in range(1, blocks):
            layers.append(block(out_channels, out_channels))
        return nn.Sequential(*layers)

    def forward(self, x):
        out = self.conv(x)
        out = self.bn(out)
        out = self.relu(out)
        out = self.layer1(out)
        out = self.layer2(out)
        out = self.layer3(out)
        out = self.avg_pool(out)
        out = out.view(out.size(0), -1)
        out = self.fc(out)
        return out


model = ResNet(ResidualBlock, [1, 1, 1], num_classes=3)
print(model.layer2)
print(
    sum(p.numel() for p in model.parameters()),
    len(list(model.modules())),
    len(list(model.children())),
)
print([k for k in model.state_dict() if k.startswith("layer2.0.downsample")])

activations = {}


def get_activation(name):
    def hook(module, inp, out):
        activations[name] = out.detach()

    return hook


handles = [
    getattr(model, n).register_forward_hook(get_activation(n))
    for n in ["layer1", "layer2", "layer3", "avg_pool"]
]
x0, _ = next(iter(test_loader))
with torch.no_grad():
    model.eval()
    model(x0)
for k, v in activations.items():
    print(k, tuple(v.shape), f"{v.mean().item():.4f}")
for h in handles:
    h.remove()
activations.clear()
model(x0[:2])
print(len(activations))

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


def update_lr(optimizer, lr):
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr


total_step = len(train_loader)
curr_lr = learning_rate
model.train()
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 2 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}] Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )
    if (epoch + 1) % 1 == 0:
        curr_lr /= 3
        update_lr(optimizer, curr_lr)
        print(f"lr -> {optimizer.param_groups[0]['lr']:.6f}")

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print("Accuracy of the model on the test images: {} %".format(100 * correct / total))
torch.save(model.state_dict(), "resnet.ckpt")
sd = torch.load("resnet.ckpt")
print(len(sd), sd["bn.num_batches_tracked"], sd["layer3.0.bn2.running_var"].shape)

# freezing, requires_grad_, parameter groups, named_children
for p in model.parameters():
    p.requires_grad_(False)
model.fc = nn.Linear(32, 5)
print([n for n, p in model.named_parameters() if p.requires_grad])
print([n for n, _ in model.named_children()])
print(model.fc, model.layer1[0].conv1, model.layer1[0].bn1)
gap = nn.AdaptiveAvgPool2d((1, 1))
print(gap(torch.ones(2, 4, 5, 5)).shape, torch.flatten(gap(torch.ones(2, 4, 5, 5)), 1).shape)
print(nn.Identity()(torch.tensor([1.0])), nn.Sequential(nn.Identity(), nn.ReLU())[1])
seq = nn.Sequential()
seq.add_module("c", nn.Conv2d(1, 2, 1))
seq.append(nn.Flatten())
print(seq, len(seq), seq[-1])
head = nn.Sequential(nn.Flatten(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 3))
del head[-1]
head.append(nn.Dropout(0.1))
head.extend([nn.Linear(16, 5), nn.LogSoftmax(dim=1)])
head.insert(1, nn.Identity())
print(head, len(head))
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
ml.insert(0, nn.Linear(4, 2))
print(ml[0])
md = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
print(len(ml), ml[1:], list(md.keys()), md["b"])
pl = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])
print(pl, sum(p.sum() for p in pl))
