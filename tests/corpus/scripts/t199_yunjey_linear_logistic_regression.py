"""pytorch-tutorial linear and logistic regression style, on numpy toy data and synthetic digit vectors."""

import numpy as np
import torch
import torch.nn as nn

input_size = 1
output_size = 1
num_epochs = 60
learning_rate = 0.001

x_train = np.array(
    [
        [3.3],
        [4.4],
        [5.5],
        [6.71],
        [6.93],
        [4.168],
        [9.779],
        [6.182],
        [7.59],
        [2.167],
        [7.042],
        [10.791],
        [5.313],
        [7.997],
        [3.1],
    ],
    dtype=np.float32,
)
y_train = np.array(
    [
        [1.7],
        [2.76],
        [2.09],
        [3.19],
        [1.694],
        [1.573],
        [3.366],
        [2.596],
        [2.53],
        [1.221],
        [2.827],
        [3.465],
        [1.65],
        [2.904],
        [1.3],
    ],
    dtype=np.float32,
)

torch.manual_seed(0)
model = nn.Linear(input_size, output_size)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for epoch in range(num_epochs):
    inputs = torch.from_numpy(x_train)
    targets = torch.from_numpy(y_train)
    outputs = model(inputs)
    loss = criterion(outputs, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 5 == 0:
        print("Epoch [{}/{}], Loss: {:.4f}".format(epoch + 1, num_epochs, loss.item()))

predicted = model(torch.from_numpy(x_train)).detach().numpy()
print(predicted[:3].round(4), predicted.dtype, predicted.shape)
torch.save(model.state_dict(), "model.ckpt")
print(model.weight.data, model.bias.data.numpy())

# closed form for comparison
X = torch.cat([torch.from_numpy(x_train), torch.ones(15, 1)], dim=1)
sol = torch.linalg.lstsq(X, torch.from_numpy(y_train)).solution
print(sol.squeeze())
sol2 = torch.linalg.solve(X.T @ X, X.T @ torch.from_numpy(y_train))
print(
    torch.allclose(sol, sol2, atol=1e-4),
    torch.linalg.inv(X.T @ X).shape,
    torch.linalg.pinv(X).shape,
)

# Logistic regression on 8x8 "digits"
input_size = 64
num_classes = 10
num_epochs = 5
batch_size = 25
learning_rate = 0.01
torch.manual_seed(0)
prototypes = (torch.rand(num_classes, input_size) > 0.6).float()
labels_all = torch.randint(0, num_classes, (500,))
images_all = (prototypes[labels_all] + 0.3 * torch.randn(500, input_size)).view(-1, 1, 8, 8)
print(images_all.shape, images_all.mean().item(), images_all.std().item())
train_dataset = torch.utils.data.TensorDataset(images_all[:400], labels_all[:400])
test_dataset = torch.utils.data.TensorDataset(images_all[400:], labels_all[400:])
train_loader = torch.utils.data.DataLoader(
    dataset=train_dataset, batch_size=batch_size, shuffle=True
)
test_loader = torch.utils.data.DataLoader(
    dataset=test_dataset, batch_size=batch_size, shuffle=False
)

model = nn.Linear(input_size, num_classes)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(
    model.parameters(), lr=learning_rate, momentum=0.9, nesterov=True, weight_decay=1e-4
)
print(optimizer)
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, input_size)
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 8 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )

with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, input_size)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum()
    print("Accuracy of the model on the 100 test images: {} %".format(100 * correct / total))
    print(correct, type(correct), correct.item())

vals, idx = torch.max(outputs, dim=1, keepdim=True)
print(vals.shape, idx.shape, torch.topk(outputs[0], 3))
print(
    outputs.max(1).values[:4],
    outputs.max(1)[1][:4],
    outputs.sort(dim=1, descending=True).indices[0],
)
lp = torch.log_softmax(outputs, dim=1)
print(torch.nn.functional.nll_loss(lp, labels), criterion(outputs, labels))
print(
    nn.CrossEntropyLoss(reduction="sum")(outputs, labels),
    nn.CrossEntropyLoss(reduction="none")(outputs, labels)[:3],
)
print(nn.CrossEntropyLoss(label_smoothing=0.1)(outputs, labels))
w = torch.linspace(0.5, 1.5, num_classes)
print(nn.CrossEntropyLoss(weight=w)(outputs, labels))
soft = torch.softmax(torch.randn(labels.shape[0], num_classes), dim=1)
print(nn.CrossEntropyLoss()(outputs, soft))
print(nn.CrossEntropyLoss(ignore_index=3)(outputs, labels))
try:
    criterion(outputs, labels.float())
except RuntimeError as e:
    print("RuntimeError:", e)
torch.save(model.state_dict(), "model.ckpt")
print(sorted(torch.load("model.ckpt").keys()))
