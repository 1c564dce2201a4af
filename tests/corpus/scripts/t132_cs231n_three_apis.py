# The barebones, nn.Module and nn.Sequential ways to write a network (in the style of
# CS231n's PyTorch tutorial), on random CIFAR-sized data.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

dtype = torch.float32
device = torch.device("cpu")
print_every = 2


def flatten(x):
    N = x.shape[0]
    return x.view(N, -1)


x = torch.arange(12).view(2, 1, 3, 2)
print("Before flattening: ", x)
print("After flattening: ", flatten(x))


def two_layer_fc(x, params):
    x = flatten(x)
    w1, w2 = params
    x = F.relu(x.mm(w1))
    x = x.mm(w2)
    return x


def two_layer_fc_test():
    hidden_layer_size = 42
    x = torch.zeros((64, 50), dtype=dtype)
    w1 = torch.zeros((50, hidden_layer_size), dtype=dtype)
    w2 = torch.zeros((hidden_layer_size, 10), dtype=dtype)
    scores = two_layer_fc(x, [w1, w2])
    print(scores.size())


two_layer_fc_test()


def three_layer_convnet(x, params):
    conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b = params
    x = F.relu(F.conv2d(x, conv_w1, conv_b1, padding=2))
    x = F.relu(F.conv2d(x, conv_w2, conv_b2, padding=1))
    x = flatten(x).mm(fc_w) + fc_b
    return x


def random_weight(shape):
    if len(shape) == 2:
        fan_in = shape[0]
    else:
        fan_in = np.prod(shape[1:])
    w = torch.randn(shape, device=device, dtype=dtype) * np.sqrt(2.0 / fan_in)
    w.requires_grad = True
    return w


def zero_weight(shape):
    return torch.zeros(shape, device=device, dtype=dtype, requires_grad=True)


torch.manual_seed(0)
print(random_weight((3, 5)))
x = torch.randn((16, 3, 8, 8), dtype=dtype)
y = torch.randint(0, 10, (16,))
params = [
    random_weight((6, 3, 5, 5)),
    zero_weight((6,)),
    random_weight((4, 6, 3, 3)),
    zero_weight((4,)),
    random_weight((4 * 8 * 8, 10)),
    zero_weight(10),
]
print(three_layer_convnet(x, params).size())

learning_rate = 3e-3
for t in range(4):
    scores = three_layer_convnet(x, params)
    loss = F.cross_entropy(scores, y)
    loss.backward()
    with torch.no_grad():
        for w in params:
            w -= learning_rate * w.grad
            w.grad.zero_()
    if t % print_every == 0:
        print("Iteration %d, loss = %.4f" % (t, loss.item()))


class ThreeLayerConvNet(nn.Module):
    def __init__(self, in_channel, channel_1, channel_2, num_classes):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channel, channel_1, kernel_size=5, padding=2)
        nn.init.kaiming_normal_(self.conv1.weight)
        self.conv2 = nn.Conv2d(channel_1, channel_2, kernel_size=3, padding=1)
        nn.init.kaiming_normal_(self.conv2.weight)
        self.fc = nn.Linear(channel_2 * 8 * 8, num_classes)
        nn.init.kaiming_normal_(self.fc.weight)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(flatten(x))


def check_accuracy(x, y, model):
    num_correct = 0
    num_samples = 0
    model.eval()
    with torch.no_grad():
        scores = model(x)
        _, preds = scores.max(1)
        num_correct += (preds == y).sum()
        num_samples += preds.size(0)
        acc = float(num_correct) / num_samples
        print("Got %d / %d correct (%.2f)" % (num_correct, num_samples, 100 * acc))


def train_part34(model, optimizer, epochs=1):
    model = model.to(device=device)
    for e in range(epochs):
        for t in range(3):
            model.train()
            scores = model(x)
            loss = F.cross_entropy(scores, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if t % print_every == 0:
                print("Iteration %d, loss = %.4f" % (t, loss.item()))
                check_accuracy(x, y, model)


torch.manual_seed(1)
model = ThreeLayerConvNet(3, 6, 4, 10)
optimizer = optim.SGD(model.parameters(), lr=learning_rate)
train_part34(model, optimizer)


class Flatten(nn.Module):
    def forward(self, x):
        return flatten(x)


torch.manual_seed(2)
model = nn.Sequential(
    nn.Conv2d(3, 6, 3, padding=1),
    nn.BatchNorm2d(6),
    nn.ReLU(),
    nn.MaxPool2d(2),
    Flatten(),
    nn.Linear(6 * 4 * 4, 10),
)
optimizer = optim.SGD(model.parameters(), lr=learning_rate, momentum=0.9, nesterov=True)
train_part34(model, optimizer)
print(model)
