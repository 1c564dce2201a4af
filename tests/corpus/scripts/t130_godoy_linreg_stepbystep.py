# Linear regression "step by step": numpy data, a manual loop, then a train_step factory,
# TensorDataset/DataLoader/random_split and a validation loop (in the style of Godoy's book).
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset, random_split

true_b, true_w = 1, 2
N = 100
np.random.seed(42)
x = np.random.rand(N, 1)
epsilon = 0.1 * np.random.randn(N, 1)
y = true_b + true_w * x + epsilon

idx = np.arange(N)
np.random.shuffle(idx)
train_idx, val_idx = idx[: int(N * 0.8)], idx[int(N * 0.8) :]
x_train, y_train = x[train_idx], y[train_idx]
x_val, y_val = x[val_idx], y[val_idx]

device = "cuda" if torch.cuda.is_available() else "cpu"
x_train_tensor = torch.as_tensor(x_train).float().to(device)
y_train_tensor = torch.as_tensor(y_train).float().to(device)
print(type(x_train), type(x_train_tensor), x_train_tensor.type())

torch.manual_seed(42)
b = torch.randn(1, requires_grad=True, dtype=torch.float, device=device)
w = torch.randn(1, requires_grad=True, dtype=torch.float, device=device)
print(b, w)

lr = 0.1
n_epochs = 200
for epoch in range(n_epochs):
    yhat = b + w * x_train_tensor
    error = yhat - y_train_tensor
    loss = (error**2).mean()
    loss.backward()
    with torch.no_grad():
        b -= lr * b.grad
        w -= lr * w.grad
    b.grad.zero_()
    w.grad.zero_()
print(b, w)


def make_train_step_fn(model, loss_fn, optimizer):
    def perform_train_step_fn(x, y):
        model.train()
        yhat = model(x)
        loss = loss_fn(yhat, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.item()

    return perform_train_step_fn


def make_val_step_fn(model, loss_fn):
    def perform_val_step_fn(x, y):
        model.eval()
        yhat = model(x)
        loss = loss_fn(yhat, y)
        return loss.item()

    return perform_val_step_fn


def mini_batch(device, data_loader, step_fn):
    mini_batch_losses = []
    for x_batch, y_batch in data_loader:
        x_batch = x_batch.to(device)
        y_batch = y_batch.to(device)
        mini_batch_loss = step_fn(x_batch, y_batch)
        mini_batch_losses.append(mini_batch_loss)
    return np.mean(mini_batch_losses)


torch.manual_seed(13)
x_tensor = torch.as_tensor(x).float()
y_tensor = torch.as_tensor(y).float()
dataset = TensorDataset(x_tensor, y_tensor)
n_train = int(len(dataset) * 0.8)
n_val = len(dataset) - n_train
train_data, val_data = random_split(dataset, [n_train, n_val])
print(len(train_data), len(val_data), train_data.indices[:5])
train_loader = DataLoader(dataset=train_data, batch_size=16, shuffle=True)
val_loader = DataLoader(dataset=val_data, batch_size=16)

torch.manual_seed(42)
model = nn.Sequential(nn.Linear(1, 1)).to(device)
optimizer = optim.SGD(model.parameters(), lr=lr)
loss_fn = nn.MSELoss(reduction="mean")
print(model.state_dict())

train_step_fn = make_train_step_fn(model, loss_fn, optimizer)
val_step_fn = make_val_step_fn(model, loss_fn)
losses, val_losses = [], []
for epoch in range(20):
    loss = mini_batch(device, train_loader, train_step_fn)
    losses.append(loss)
    with torch.no_grad():
        val_loss = mini_batch(device, val_loader, val_step_fn)
        val_losses.append(val_loss)
print(f"{losses[-1]:.6f} {val_losses[-1]:.6f}")
print(model.state_dict())
print(np.round(losses[:3], 5))

checkpoint = {
    "epoch": 20,
    "model_state_dict": model.state_dict(),
    "optimizer_state_dict": optimizer.state_dict(),
    "loss": losses,
    "val_loss": val_losses,
}
print(checkpoint["optimizer_state_dict"])
new_inputs = torch.tensor([[0.20], [0.34], [0.57]])
model.eval()
print(model(new_inputs.to(device)))
