"""Aladdin-Persson-style: custom Dataset, simple CNN, check_accuracy, save/load checkpoint."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, device.type)

# Hyperparameters
in_channels = 1
num_classes = 4
learning_rate = 3e-3
batch_size = 16
num_epochs = 3


class ShapesDataset(Dataset):
    """Tiny 12x12 images: a horizontal bar, a vertical bar, a square or a cross, plus noise."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, num_classes, (n,), generator=g)
        imgs = torch.zeros(n, 1, 12, 12)
        for i, lab in enumerate(self.labels.tolist()):
            if lab == 0:
                imgs[i, 0, 5:7, 2:10] = 1.0
            elif lab == 1:
                imgs[i, 0, 2:10, 5:7] = 1.0
            elif lab == 2:
                imgs[i, 0, 3:9, 3:9] = 1.0
            else:
                imgs[i, 0, 5:7, 2:10] = 1.0
                imgs[i, 0, 2:10, 5:7] = 1.0
        self.images = imgs + 0.3 * torch.randn(imgs.shape, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]


class CNN(nn.Module):
    def __init__(self, in_channels=1, num_classes=4):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
        self.pool = nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, stride=1, padding=1)
        self.fc1 = nn.Linear(16 * 3 * 3, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.pool(x)
        x = F.relu(self.conv2(x))
        x = self.pool(x)
        x = x.reshape(x.shape[0], -1)
        return self.fc1(x)


model = CNN(in_channels, num_classes).to(device)
print(model)
x = torch.randn(64, 1, 12, 12)
print("forward shape check:", model(x).shape)
print("after conv1:", model.conv1(x).shape, "after pool:", model.pool(model.conv1(x)).shape)
print("conv1 weight:", model.conv1.weight.shape, model.conv1.bias.shape)
print("conv padding/stride:", model.conv1.padding, model.conv1.stride, model.conv1.kernel_size)

train_ds = ShapesDataset(96, seed=1)
test_ds = ShapesDataset(48, seed=2)
print("train label counts:", torch.bincount(train_ds.labels, minlength=num_classes))
train_loader = DataLoader(train_ds, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=batch_size, shuffle=False)

criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=learning_rate)


def save_checkpoint(state, filename="my_checkpoint.pth.tar"):
    print("=> Saving checkpoint")
    torch.save(state, filename)


def load_checkpoint(checkpoint):
    print("=> Loading checkpoint")
    model.load_state_dict(checkpoint["state_dict"])
    optimizer.load_state_dict(checkpoint["optimizer"])


def check_accuracy(loader, model):
    num_correct = 0
    num_samples = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device=device)
            y = y.to(device=device)
            scores = model(x)
            _, predictions = scores.max(1)
            num_correct += (predictions == y).sum()
            num_samples += predictions.size(0)
    model.train()
    print(
        f"Got {num_correct} / {num_samples} with accuracy {float(num_correct) / float(num_samples) * 100:.2f}"
    )
    return num_correct / num_samples


for epoch in range(num_epochs):
    losses = []
    if epoch == 2:
        checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
        save_checkpoint(checkpoint)
    for batch_idx, (data, targets) in enumerate(train_loader):
        data = data.to(device=device)
        targets = targets.to(device=device)
        scores = model(data)
        loss = criterion(scores, targets)
        losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(f"  epoch {epoch} batch {batch_idx} loss {loss.item():.5f}")
    mean_loss = sum(losses) / len(losses)
    print(f"Loss at epoch {epoch} was {mean_loss:.5f}")

acc_train = check_accuracy(train_loader, model)
acc_test = check_accuracy(test_loader, model)
print("accuracy tensors:", acc_train, acc_test, acc_test.dtype)

load_checkpoint(torch.load("my_checkpoint.pth.tar"))
check_accuracy(test_loader, model)
print("grad norms:", [round(p.grad.norm().item(), 5) for p in model.parameters()])

# inspect intermediate activations with a forward hook
acts = {}
handle = model.conv2.register_forward_hook(
    lambda m, inp, out: acts.__setitem__("conv2", out.detach())
)
model.eval()
with torch.no_grad():
    model(test_ds.images[:2])
handle.remove()
print("hooked conv2:", acts["conv2"].shape, acts["conv2"].mean().item())
print("feature map max per channel:", acts["conv2"].amax(dim=(0, 2, 3))[:5])

# error a beginner meets: wrong input channel count
try:
    model(torch.randn(2, 3, 12, 12))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model(torch.randn(1, 12, 12, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
