"""sentdex "Deep learning with PyTorch" style: tensor basics, a fully-connected net, balance, training."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

x = torch.Tensor([5, 3])
y = torch.Tensor([2, 1])
print(x * y)
x = torch.zeros([2, 5])
print(x, x.shape)
y = torch.rand([2, 5])
print(y.dtype)
y = y.view([1, 10])
print(y.shape)

torch.manual_seed(1)


# fake 8x8 "digits" dataset: class k lights up row k
def fake_digits(n, gen):
    labels = torch.randint(0, 8, (n,), generator=gen)
    imgs = torch.rand(n, 8, 8, generator=gen) * 0.4
    imgs[torch.arange(n), labels] += 0.6
    return imgs, labels


g = torch.Generator().manual_seed(123)
train_X, train_y = fake_digits(256, g)
test_X, test_y = fake_digits(64, g)
print("train:", train_X.shape, train_y[:10])

total = 0
counter_dict = {i: 0 for i in range(8)}
for ys in train_y.split(32):
    for yi in ys:
        counter_dict[int(yi)] += 1
        total += 1
print(counter_dict)
for i in counter_dict:
    print(f"{i}: {counter_dict[i] / total * 100.0:.2f}%")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8 * 8, 32)
        self.fc2 = nn.Linear(32, 32)
        self.fc3 = nn.Linear(32, 32)
        self.fc4 = nn.Linear(32, 8)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        x = self.fc4(x)
        return F.log_softmax(x, dim=1)


net = Net()
print(net)
X = torch.rand((8, 8))
X = X.view(-1, 8 * 8)
output = net(X)
print(output)
print(output.exp().sum())

optimizer = optim.Adam(net.parameters(), lr=0.001)
EPOCHS = 3
for epoch in range(EPOCHS):
    for i in range(0, len(train_X), 16):
        X = train_X[i : i + 16]
        y = train_y[i : i + 16]
        net.zero_grad()
        output = net(X.view(-1, 64))
        loss = F.nll_loss(output, y)
        loss.backward()
        optimizer.step()
    print(loss)

correct = 0
total = 0
with torch.no_grad():
    for i in range(len(test_X)):
        output = net(test_X[i].view(-1, 64))
        for idx, j in enumerate(output):
            if torch.argmax(j) == test_y[i]:
                correct += 1
            total += 1
print("Accuracy: ", round(correct / total, 3))
print(torch.argmax(net(test_X[0].view(-1, 64))[0]), test_y[0])


# part 5/6 style: conv net, batch of images, flatten size discovery
class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        x = torch.randn(8, 8).view(-1, 1, 8, 8)
        self._to_linear = None
        self.convs(x)
        self.fc1 = nn.Linear(self._to_linear, 16)
        self.fc2 = nn.Linear(16, 8)

    def convs(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.relu(self.conv2(x))
        if self._to_linear is None:
            self._to_linear = x[0].shape[0] * x[0].shape[1] * x[0].shape[2]
            print("to_linear:", self._to_linear, x[0].shape)
        return x

    def forward(self, x):
        x = self.convs(x)
        x = x.view(-1, self._to_linear)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.softmax(x, dim=1)


cnet = ConvNet()
opt = optim.Adam(cnet.parameters(), lr=0.005)
loss_function = nn.MSELoss()
train_oh = torch.eye(8)[train_y]
print("one hot via eye:", train_oh[:2])
for epoch in range(2):
    for i in range(0, len(train_X), 32):
        batch_X = train_X[i : i + 32].view(-1, 1, 8, 8)
        batch_y = train_oh[i : i + 32]
        cnet.zero_grad()
        outputs = cnet(batch_X)
        loss = loss_function(outputs, batch_y)
        loss.backward()
        opt.step()
    print(f"Epoch: {epoch}. Loss: {loss}")


def fwd_pass(X, y, train=False):
    if train:
        cnet.zero_grad()
    outputs = cnet(X)
    matches = [torch.argmax(i) == torch.argmax(j) for i, j in zip(outputs, y)]
    acc = matches.count(True) / len(matches)
    loss = loss_function(outputs, y)
    if train:
        loss.backward()
        opt.step()
    return acc, loss


with torch.no_grad():
    val_acc, val_loss = fwd_pass(test_X.view(-1, 1, 8, 8), torch.eye(8)[test_y])
print("Val Acc:", round(val_acc, 4), "Val loss:", val_loss)
print(matches := [torch.argmax(i) == torch.argmax(j) for i, j in zip(torch.eye(3), torch.eye(3))])
