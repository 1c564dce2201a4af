# A small CNN with a generic train() function, a learning-rate finder and a saved model
# (in the style of Pointer's "Programming PyTorch for Deep Learning", on random images).
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torch.utils.data

torch.manual_seed(0)


class CNNNet(nn.Module):
    def __init__(self, num_classes=2):
        super(CNNNet, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=5, stride=2, padding=2),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(8, 16, kernel_size=3, padding=1),
            nn.ReLU(),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((3, 3))
        self.classifier = nn.Sequential(
            nn.Dropout(),
            nn.Linear(16 * 3 * 3, 32),
            nn.ReLU(),
            nn.Linear(32, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


images = torch.randn(48, 3, 24, 24)
labels = (images[:, 0].mean(dim=(1, 2)) > 0).long()
train_data = torch.utils.data.TensorDataset(images[:32], labels[:32])
val_data = torch.utils.data.TensorDataset(images[32:], labels[32:])
train_data_loader = torch.utils.data.DataLoader(train_data, batch_size=8, shuffle=True)
val_data_loader = torch.utils.data.DataLoader(val_data, batch_size=8)


def train(model, optimizer, loss_fn, train_loader, val_loader, epochs=20, device="cpu"):
    for epoch in range(1, epochs + 1):
        training_loss = 0.0
        valid_loss = 0.0
        model.train()
        for batch in train_loader:
            optimizer.zero_grad()
            inputs, targets = batch
            inputs = inputs.to(device)
            targets = targets.to(device)
            output = model(inputs)
            loss = loss_fn(output, targets)
            loss.backward()
            optimizer.step()
            training_loss += loss.data.item() * inputs.size(0)
        training_loss /= len(train_loader.dataset)

        model.eval()
        num_correct = 0
        num_examples = 0
        for batch in val_loader:
            inputs, targets = batch
            inputs = inputs.to(device)
            output = model(inputs)
            targets = targets.to(device)
            loss = loss_fn(output, targets)
            valid_loss += loss.data.item() * inputs.size(0)
            correct = torch.eq(torch.max(F.softmax(output, dim=1), dim=1)[1], targets).view(-1)
            num_correct += torch.sum(correct).item()
            num_examples += correct.shape[0]
        valid_loss /= len(val_loader.dataset)
        print(
            "Epoch: {}, Training Loss: {:.4f}, Validation Loss: {:.4f}, accuracy = {:.2f}".format(
                epoch, training_loss, valid_loss, num_correct / num_examples
            )
        )


cnnnet = CNNNet()
print(cnnnet)
optimizer = optim.Adam(cnnnet.parameters(), lr=0.001)
train(cnnnet, optimizer, torch.nn.CrossEntropyLoss(), train_data_loader, val_data_loader, epochs=3)


def find_lr(model, loss_fn, optimizer, train_loader, init_value=1e-8, final_value=10.0):
    number_in_epoch = len(train_loader) - 1
    update_step = (final_value / init_value) ** (1 / number_in_epoch)
    lr = init_value
    optimizer.param_groups[0]["lr"] = lr
    best_loss = 0.0
    batch_num = 0
    losses = []
    log_lrs = []
    for data in train_loader:
        batch_num += 1
        inputs, targets = data
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = loss_fn(outputs, targets)
        if batch_num > 1 and loss > 4 * best_loss:
            return log_lrs[10:-5], losses[10:-5]
        if loss < best_loss or batch_num == 1:
            best_loss = loss
        losses.append(loss.item())
        log_lrs.append(math.log10(lr))
        loss.backward()
        optimizer.step()
        lr *= update_step
        optimizer.param_groups[0]["lr"] = lr
    return log_lrs, losses


torch.manual_seed(1)
logs, losses = find_lr(
    CNNNet(), nn.CrossEntropyLoss(), optim.Adam(CNNNet().parameters()), train_data_loader
)
print([round(v, 3) for v in logs], [round(v, 4) for v in losses])

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "simplenet.pth")
    torch.save(cnnnet.state_dict(), path)
    restored = CNNNet()
    restored.load_state_dict(torch.load(path))
    restored.eval()
    cnnnet.eval()
    print(torch.equal(restored(images[:4]), cnnnet(images[:4])))
    print(sorted(restored.state_dict().keys()))

# Freezing the features as in transfer learning, and a differential learning rate
for name, param in cnnnet.named_parameters():
    if "features" in name:
        param.requires_grad = False
print(sum(p.numel() for p in cnnnet.parameters() if p.requires_grad))
opt = optim.Adam(
    [
        {"params": cnnnet.features.parameters(), "lr": 1e-5},
        {"params": cnnnet.classifier.parameters(), "lr": 1e-3},
    ]
)
print([g["lr"] for g in opt.param_groups])
