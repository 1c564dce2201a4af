"""'Deep Learning with PyTorch' chapter 8: a small convolutional network for 32x32 colour
images, written with nn.Module and the functional API, its parameter count, a training
loop, and widening it with dropout and batch norm."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(16, 8, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(8 * 8 * 8, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = out.view(-1, 8 * 8 * 8)
        out = torch.tanh(self.fc1(out))
        return self.fc2(out)


class NetBatchNorm(nn.Module):
    def __init__(self, n_chans1=8):
        super().__init__()
        self.n_chans1 = n_chans1
        self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
        self.conv1_batchnorm = nn.BatchNorm2d(num_features=n_chans1)
        self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
        self.conv2_dropout = nn.Dropout2d(p=0.4)
        self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = self.conv1_batchnorm(self.conv1(x))
        out = F.max_pool2d(torch.tanh(out), 2)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = self.conv2_dropout(out)
        out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
        out = torch.tanh(self.fc1(out))
        return self.fc2(out)


torch.manual_seed(13)
model = Net()
numel_list = [p.numel() for p in model.parameters()]
print(sum(numel_list), numel_list)
conv = nn.Conv2d(3, 16, kernel_size=3)
print(conv, conv.weight.shape, conv.bias.shape)
img = torch.randn(1, 3, 32, 32)
print(conv(img).shape, nn.MaxPool2d(2)(conv(img)).shape)
with torch.no_grad():
    conv.bias.zero_()
    conv.weight.fill_(1.0 / 9.0)
print(conv(img)[0, 0, :2, :4])

imgs = torch.randn(20, 3, 32, 32)
labels = torch.randint(0, 2, (20,))
train_loader = torch.utils.data.DataLoader(list(zip(imgs, labels)), batch_size=8, shuffle=True)
for net in (model, NetBatchNorm()):
    optimizer = optim.SGD(net.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(1, 4):
        loss_train = 0.0
        for images, targets in train_loader:
            outputs = net(images)
            loss = loss_fn(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_train += loss.item()
        print(f"Epoch {epoch}, Training loss {loss_train / len(train_loader):.4f}")
    net.eval()
    with torch.no_grad():
        _, predicted = torch.max(net(imgs), dim=1)
        print("Accuracy:", (predicted == labels).sum().item() / len(labels))
