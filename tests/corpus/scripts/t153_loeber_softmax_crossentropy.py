# Softmax and cross-entropy in numpy and in torch, nn.CrossEntropyLoss on class labels, the
# activation functions three ways, and a feed-forward net (in the style of Patrick Loeber's
# PyTorch tutorials 11-13).
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def softmax(x):
    return np.exp(x) / np.sum(np.exp(x), axis=0)


x = np.array([2.0, 1.0, 0.1])
outputs = softmax(x)
print("softmax numpy:", outputs)
x = torch.tensor([2.0, 1.0, 0.1])
outputs = torch.softmax(x, dim=0)
print("softmax torch:", outputs)


def cross_entropy(actual, predicted):
    EPS = 1e-15
    predicted = np.clip(predicted, EPS, 1 - EPS)
    loss = -np.sum(actual * np.log(predicted))
    return loss


Y = np.array([1, 0, 0])
Y_pred_good = np.array([0.7, 0.2, 0.1])
Y_pred_bad = np.array([0.1, 0.3, 0.6])
l1 = cross_entropy(Y, Y_pred_good)
l2 = cross_entropy(Y, Y_pred_bad)
print(f"Loss1 numpy: {l1:.4f}")
print(f"Loss2 numpy: {l2:.4f}")

loss = nn.CrossEntropyLoss()
Y = torch.tensor([0])
Y_pred_good = torch.tensor([[2.0, 1.0, 0.1]])
Y_pred_bad = torch.tensor([[0.5, 2.0, 0.3]])
l1 = loss(Y_pred_good, Y)
l2 = loss(Y_pred_bad, Y)
print(f"PyTorch Loss1: {l1.item():.4f}")
print(f"PyTorch Loss2: {l2.item():.4f}")
_, predictions1 = torch.max(Y_pred_good, 1)
_, predictions2 = torch.max(Y_pred_bad, 1)
print(f"Actual class: {Y.item()}, Y_pred1: {predictions1.item()}, Y_pred2: {predictions2.item()}")
Y = torch.tensor([2, 0, 1])
Y_pred_good = torch.tensor([[0.1, 0.2, 3.9], [1.2, 0.1, 0.3], [0.3, 2.2, 0.2]])
Y_pred_bad = torch.tensor([[0.9, 0.2, 0.1], [0.1, 0.3, 1.5], [1.2, 0.2, 0.5]])
l1 = loss(Y_pred_good, Y)
l2 = loss(Y_pred_bad, Y)
print(f"Batch Loss1:  {l1.item():.4f}")
print(f"Batch Loss2: {l2.item():.4f}")
_, predictions1 = torch.max(Y_pred_good, 1)
_, predictions2 = torch.max(Y_pred_bad, 1)
print(f"Actual class: {Y}, Y_pred1: {predictions1}, Y_pred2: {predictions2}")
print(
    F.nll_loss(F.log_softmax(Y_pred_good, dim=1), Y),
    nn.CrossEntropyLoss(reduction="none")(Y_pred_bad, Y),
)
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(Y_pred_bad, Y))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(Y_pred_good, Y))
print(nn.CrossEntropyLoss(ignore_index=1)(Y_pred_good, Y))
probs = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1]])
print(nn.CrossEntropyLoss()(torch.tensor([[2.0, 1.0, 0.1], [0.1, 3.0, 0.2]]), probs))


class NeuralNet2(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(NeuralNet2, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out = self.linear1(x)
        out = self.relu(out)
        out = self.linear2(out)
        y_pred = torch.sigmoid(out)
        return y_pred


torch.manual_seed(0)
model = NeuralNet2(input_size=28 * 28, hidden_size=5)
criterion = nn.BCELoss()
xb = torch.rand(4, 28 * 28)
print(model(xb).squeeze(), criterion(model(xb).squeeze(), torch.tensor([1.0, 0.0, 1.0, 0.0])))

x = torch.tensor([-1.0, 1.0, 2.0, 3.0])
output = torch.softmax(x, dim=0)
print(output)
sm = nn.Softmax(dim=0)
output = sm(x)
print(output)
output = torch.sigmoid(x)
print(output)
s = nn.Sigmoid()
output = s(x)
print(output)
output = torch.tanh(x)
print(output)
t = nn.Tanh()
output = t(x)
print(output)
output = torch.relu(x)
print(output)
relu = nn.ReLU()
output = relu(x)
print(output)
output = F.leaky_relu(x)
print(output)
lrelu = nn.LeakyReLU()
output = lrelu(x)
print(output)


class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.input_size = input_size
        self.l1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.l2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out = self.l1(x)
        out = self.relu(out)
        out = self.l2(out)
        return out


torch.manual_seed(1)
input_size, hidden_size, num_classes = 16, 10, 4
num_epochs, batch_size, learning_rate = 2, 10, 0.01
images = torch.randn(40, 1, 4, 4)
labels = torch.randint(0, num_classes, (40,))
train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, labels), batch_size=batch_size, shuffle=True
)
examples = iter(train_loader)
example_data, example_targets = next(examples)
print(example_data.shape, example_targets.shape)
model = NeuralNet(input_size, hidden_size, num_classes)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
n_total_steps = len(train_loader)
for epoch in range(num_epochs):
    for i, (images_b, labels_b) in enumerate(train_loader):
        images_b = images_b.reshape(-1, 4 * 4)
        outputs = model(images_b)
        loss = criterion(outputs, labels_b)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 2 == 0:
            print(
                f"Epoch [{epoch + 1}/{num_epochs}], Step [{i + 1}/{n_total_steps}], "
                f"Loss: {loss.item():.4f}"
            )
with torch.no_grad():
    n_correct = 0
    n_samples = 0
    outputs = model(images.reshape(-1, 16))
    _, predicted = torch.max(outputs.data, 1)
    n_samples += labels.size(0)
    n_correct += (predicted == labels).sum().item()
    acc = 100.0 * n_correct / n_samples
    print(f"Accuracy of the network on the 40 test images: {acc} %")
