# Linear regression from scratch and with nn.Linear, then a logistic-regression model class with
# training_step/validation_step (in the style of Jovian's "Zero to GANs").
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

inputs = np.array(
    [[73, 67, 43], [91, 88, 64], [87, 134, 58], [102, 43, 37], [69, 96, 70]], dtype="float32"
)
targets = np.array([[56, 70], [81, 101], [119, 133], [22, 37], [103, 119]], dtype="float32")
inputs = torch.from_numpy(inputs)
targets = torch.from_numpy(targets)
print(inputs)
print(targets)

torch.manual_seed(42)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
print(w)
print(b)


def model(x):
    return x @ w.t() + b


preds = model(inputs)
print(preds)


def mse(t1, t2):
    diff = t1 - t2
    return torch.sum(diff * diff) / diff.numel()


loss = mse(preds, targets)
print(loss)
loss.backward()
print(w)
print(w.grad)
w.grad.zero_()
b.grad.zero_()
print(w.grad)
print(b.grad)
for i in range(100):
    preds = model(inputs)
    loss = mse(preds, targets)
    loss.backward()
    with torch.no_grad():
        w -= w.grad * 1e-5
        b -= b.grad * 1e-5
        w.grad.zero_()
        b.grad.zero_()
preds = model(inputs)
loss = mse(preds, targets)
print(loss)

inputs = inputs.repeat(3, 1) + torch.arange(15.0).view(15, 1)
targets = targets.repeat(3, 1)
train_ds = TensorDataset(inputs, targets)
print(train_ds[0:3])
batch_size = 5
train_dl = DataLoader(train_ds, batch_size, shuffle=True)
for xb, yb in train_dl:
    print(xb)
    print(yb)
    break
model = nn.Linear(3, 2)
print(model.weight)
print(model.bias)
print(list(model.parameters()))
loss_fn = F.mse_loss
loss = loss_fn(model(inputs), targets)
print(loss)
opt = torch.optim.SGD(model.parameters(), lr=1e-5)


def fit(num_epochs, model, loss_fn, opt, train_dl):
    for epoch in range(num_epochs):
        for xb, yb in train_dl:
            pred = model(xb)
            loss = loss_fn(pred, yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        if (epoch + 1) % 10 == 0:
            print("Epoch [{}/{}], Loss: {:.4f}".format(epoch + 1, num_epochs, loss.item()))


fit(30, model, loss_fn, opt, train_dl)
print(model(torch.tensor([[75, 63, 44.0]])))

# Logistic regression on random "images"
torch.manual_seed(0)
images = torch.rand(120, 1, 6, 6)
labels = (images.mean(dim=(1, 2, 3)) * 30).long() % 4
dataset = TensorDataset(images, labels)
train_ds, val_ds = random_split(dataset, [100, 20])
print(len(train_ds), len(val_ds))
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=32)
input_size = 36
num_classes = 4


def accuracy(outputs, labels):
    _, preds = torch.max(outputs, dim=1)
    return torch.tensor(torch.sum(preds == labels).item() / len(preds))


class MnistModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(input_size, num_classes)

    def forward(self, xb):
        xb = xb.reshape(-1, 36)
        out = self.linear(xb)
        return out

    def training_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        return loss

    def validation_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        acc = accuracy(out, labels)
        return {"val_loss": loss, "val_acc": acc}

    def validation_epoch_end(self, outputs):
        batch_losses = [x["val_loss"] for x in outputs]
        epoch_loss = torch.stack(batch_losses).mean()
        batch_accs = [x["val_acc"] for x in outputs]
        epoch_acc = torch.stack(batch_accs).mean()
        return {"val_loss": epoch_loss.item(), "val_acc": epoch_acc.item()}

    def epoch_end(self, epoch, result):
        print(
            "Epoch [{}], val_loss: {:.4f}, val_acc: {:.4f}".format(
                epoch, result["val_loss"], result["val_acc"]
            )
        )


def evaluate(model, val_loader):
    outputs = [model.validation_step(batch) for batch in val_loader]
    return model.validation_epoch_end(outputs)


def fit2(epochs, lr, model, train_loader, val_loader, opt_func=torch.optim.SGD):
    optimizer = opt_func(model.parameters(), lr)
    history = []
    for epoch in range(epochs):
        for batch in train_loader:
            loss = model.training_step(batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        result = evaluate(model, val_loader)
        model.epoch_end(epoch, result)
        history.append(result)
    return history


model = MnistModel()
print(model.linear.weight.shape, model.linear.bias.shape)
result0 = evaluate(model, val_loader)
print(result0)
history = fit2(3, 0.5, model, train_loader, val_loader)
probs = F.softmax(model(images[:2]), dim=1)
max_probs, preds = torch.max(probs, dim=1)
print(probs.data, max_probs, preds)
