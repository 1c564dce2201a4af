"""The CNN chapter every course has: a LeNet-like network on 28x28 digits with Conv2d,
MaxPool2d, Dropout2d and Dropout, log_softmax with nll_loss, parameter shapes, a few Adam
steps, and the feature maps after each stage."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(2304, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


torch.manual_seed(1)
model = Net()
for name, p in model.named_parameters():
    print(name, tuple(p.shape))
data = torch.rand(8, 1, 28, 28)
target = torch.randint(0, 10, (8,))
optimizer = optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    model.train()
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.6f}")
model.eval()
with torch.no_grad():
    output = model(data)
    test_loss = F.nll_loss(output, target, reduction="sum").item()
    pred = output.argmax(dim=1, keepdim=True)
    correct = pred.eq(target.view_as(pred)).sum().item()
print(f"Test set: Average loss: {test_loss / len(data):.4f}, Accuracy: {correct}/{len(data)}")
x = data[:1]
for stage in (model.conv1, nn.ReLU(), model.conv2, nn.ReLU(), nn.MaxPool2d(2)):
    x = stage(x)
    print(type(stage).__name__, tuple(x.shape), f"{x.mean().item():.4f}")
print(model.conv1.weight[0, 0])
print(model.fc2.bias)
