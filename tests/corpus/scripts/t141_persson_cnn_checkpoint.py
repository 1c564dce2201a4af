# A simple CNN with save_checkpoint/load_checkpoint, check_accuracy and hyperparameters at the
# top (in the style of Aladdin Persson's PyTorch tutorials), on random 1x12x12 images.
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
in_channels = 1
num_classes = 3
learning_rate = 3e-3
batch_size = 16
num_epochs = 3
load_model = True


class CNN(nn.Module):
    def __init__(self, in_channels=1, num_classes=10):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(
            in_channels=in_channels,
            out_channels=4,
            kernel_size=(3, 3),
            stride=(1, 1),
            padding=(1, 1),
        )
        self.pool = nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
        self.conv2 = nn.Conv2d(
            in_channels=4, out_channels=8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)
        )
        self.fc1 = nn.Linear(8 * 3 * 3, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.pool(x)
        x = F.relu(self.conv2(x))
        x = self.pool(x)
        x = x.reshape(x.shape[0], -1)
        x = self.fc1(x)
        return x


def save_checkpoint(state, filename="my_checkpoint.pth.tar"):
    print("=> Saving checkpoint")
    torch.save(state, filename)


def load_checkpoint(checkpoint, model, optimizer):
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
        print(
            f"Got {num_correct} / {num_samples} with accuracy "
            f"{float(num_correct) / float(num_samples) * 100:.2f}"
        )
    model.train()
    return num_correct / num_samples


torch.manual_seed(42)
x = torch.randn(64, 1, 12, 12)
model = CNN(in_channels=1, num_classes=num_classes)
print(model(x).shape)
y = model(x).argmax(dim=1).detach()
train_loader = DataLoader(TensorDataset(x[:48], y[:48]), batch_size=batch_size, shuffle=True)
test_loader = DataLoader(TensorDataset(x[48:], y[48:]), batch_size=batch_size, shuffle=False)

model = CNN(in_channels=in_channels, num_classes=num_classes).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=learning_rate)
tmp = tempfile.mkdtemp()
ckpt_path = os.path.join(tmp, "my_checkpoint.pth.tar")

for epoch in range(num_epochs):
    losses = []
    if epoch % 2 == 0:
        checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
        save_checkpoint(checkpoint, ckpt_path)
    for batch_idx, (data, targets) in enumerate(train_loader):
        data = data.to(device=device)
        targets = targets.to(device=device)
        scores = model(data)
        loss = criterion(scores, targets)
        losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    mean_loss = sum(losses) / len(losses)
    print(f"Loss at epoch {epoch} was {mean_loss:.5f}")

print(f"Accuracy on training set: {check_accuracy(train_loader, model) * 100:.2f}")
print(f"Accuracy on test set: {check_accuracy(test_loader, model) * 100:.2f}")

if load_model:
    fresh = CNN(in_channels=in_channels, num_classes=num_classes)
    fresh_opt = optim.Adam(fresh.parameters(), lr=learning_rate)
    load_checkpoint(torch.load(ckpt_path), fresh, fresh_opt)
    print(fresh_opt.state_dict()["state"][0]["step"], fresh_opt.param_groups[0]["lr"])
    print(torch.allclose(fresh.conv1.weight, model.conv1.weight))
    print(fresh.fc1.bias)
print(sorted(os.listdir(tmp)))
