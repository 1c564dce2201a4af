"""Inside Deep Learning ch.2-3 style: a train_simple_network helper with score functions, applied to a small CNN."""

import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def moveTo(obj, device):
    if hasattr(obj, "to"):
        return obj.to(device)
    elif isinstance(obj, list):
        return [moveTo(x, device) for x in obj]
    elif isinstance(obj, tuple):
        return tuple(moveTo(list(obj), device))
    elif isinstance(obj, set):
        return set(moveTo(list(obj), device))
    elif isinstance(obj, dict):
        return {moveTo(k, device): moveTo(v, device) for k, v in obj.items()}
    return obj


some_tensors = [torch.tensor(1), torch.tensor(2)]
print(moveTo(some_tensors, torch.device("cpu")))
print(moveTo({"a": torch.ones(2), "b": (torch.zeros(1), 3)}, "cpu"))


def accuracy_score(y_true, y_pred):
    return (torch.tensor(y_true) == torch.tensor(y_pred)).float().mean().item()


def run_epoch(
    model, optimizer, data_loader, loss_func, device, results, score_funcs, prefix="", desc=None
):
    running_loss = []
    y_true, y_pred = [], []
    start = time.time()
    for inputs, labels in data_loader:
        inputs, labels = moveTo(inputs, device), moveTo(labels, device)
        y_hat = model(inputs)
        loss = loss_func(y_hat, labels)
        if model.training:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        running_loss.append(loss.item())
        if len(score_funcs) > 0 and isinstance(labels, torch.Tensor):
            labels = labels.detach().cpu().numpy()
            y_hat = y_hat.detach().cpu().numpy()
            y_true.extend(labels.tolist())
            y_pred.extend(y_hat.argmax(axis=1).tolist())
    end = time.time()
    results[prefix + " loss"].append(sum(running_loss) / len(running_loss))
    for name, score_func in score_funcs.items():
        results[prefix + " " + name].append(score_func(y_true, y_pred))
    return end - start


def train_simple_network(
    model,
    loss_func,
    train_loader,
    test_loader=None,
    score_funcs=None,
    epochs=5,
    device="cpu",
    lr=0.001,
):
    to_track = ["epoch", "total time", "train loss"]
    if test_loader is not None:
        to_track.append("test loss")
    for eval_score in score_funcs:
        to_track.append("train " + eval_score)
        if test_loader is not None:
            to_track.append("test " + eval_score)
    total_train_time = 0
    results = {item: [] for item in to_track}
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.to(device)
    for epoch in range(epochs):
        model = model.train()
        total_train_time += run_epoch(
            model, optimizer, train_loader, loss_func, device, results, score_funcs, prefix="train"
        )
        results["total time"].append(total_train_time)
        results["epoch"].append(epoch)
        if test_loader is not None:
            model = model.eval()
            with torch.no_grad():
                run_epoch(
                    model,
                    optimizer,
                    test_loader,
                    loss_func,
                    device,
                    results,
                    score_funcs,
                    prefix="test",
                )
    return results


# synthetic "images": class 0 has a vertical bar, class 1 a horizontal bar, class 2 a diagonal
torch.manual_seed(42)
N, H = 96, 10
X = torch.randn(N, 1, H, H) * 0.3
y = torch.arange(N) % 3
for i in range(N):
    r = torch.randint(2, 8, (1,)).item()
    if y[i] == 0:
        X[i, 0, :, r] += 1.5
    elif y[i] == 1:
        X[i, 0, r, :] += 1.5
    else:
        X[i, 0].diagonal().add_(1.5)
print(X.shape, X.dtype, y[:9], y.bincount())
print(f"pixel mean {X.mean():.4f} std {X.std():.4f} min {X.min():.3f} max {X.max():.3f}")

train_ds = TensorDataset(X[:72], y[:72])
test_ds = TensorDataset(X[72:], y[72:])
print(len(train_ds), train_ds[0][0].shape, train_ds[0][1])
train_loader = DataLoader(train_ds, batch_size=16, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=16)

# one conv by hand, Raff-style: a blurring filter and an edge filter with F.conv2d
img = X[0:1]
blur = torch.ones(1, 1, 3, 3) / 9
edge = torch.tensor([[[[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]]])
print("blur out:", F.conv2d(img, blur).shape, "same padding:", F.conv2d(img, blur, padding=1).shape)
print("edge response max per column:", F.conv2d(img, edge).amax(dim=(0, 1, 2)))
print(
    "strided:",
    F.conv2d(img, edge, stride=2).shape,
    "dilated:",
    F.conv2d(img, edge, dilation=2).shape,
)

D = 1 * H * H
C = 1
classes = 3
filters = 8
K = 3
model_linear = nn.Sequential(nn.Flatten(), nn.Linear(D, 32), nn.Tanh(), nn.Linear(32, classes))
model_cnn = nn.Sequential(
    nn.Conv2d(C, filters, K, padding=K // 2),
    nn.Tanh(),
    nn.Conv2d(filters, filters, K, padding=K // 2),
    nn.Tanh(),
    nn.MaxPool2d(2),
    nn.Conv2d(filters, filters, K, padding=K // 2),
    nn.Tanh(),
    nn.Flatten(),
    nn.Linear(filters * (H // 2) * (H // 2), classes),
)
print(model_cnn)
print("linear params:", sum(p.numel() for p in model_linear.parameters()))
print("cnn params:", sum(p.numel() for p in model_cnn.parameters()))
x = torch.zeros(2, 1, H, H)
for layer in model_cnn:
    x = layer(x)
    print(f"{layer.__class__.__name__:>10}: {tuple(x.shape)}")

loss = nn.CrossEntropyLoss()
torch.manual_seed(0)
results_linear = train_simple_network(
    model_linear,
    loss,
    train_loader,
    test_loader,
    score_funcs={"Accuracy": accuracy_score},
    epochs=4,
    lr=0.05,
)
torch.manual_seed(0)
results_cnn = train_simple_network(
    model_cnn,
    loss,
    train_loader,
    test_loader,
    score_funcs={"Accuracy": accuracy_score},
    epochs=4,
    lr=0.05,
)
for k in ["epoch", "train loss", "test loss", "train Accuracy", "test Accuracy"]:
    print(f"{k:15}", [round(v, 4) for v in results_cnn[k]])
print("linear test acc:", [round(v, 4) for v in results_linear["test Accuracy"]])
print("columns:", list(results_cnn.keys()))
print(len(results_cnn["total time"]) == 4)

w = model_cnn[0].weight
print("first conv weight", w.shape, w.requires_grad, w.grad is None)
print(model_cnn[0].bias.detach())
with torch.no_grad():
    fmap = model_cnn[:2](X[:1])
print(fmap.shape, fmap.abs().sum(dim=(2, 3)))
print(nn.MaxPool2d(2, return_indices=True)(X[:1, :, :4, :4]))
print(nn.AvgPool2d(2)(X[:1, :, :4, :4]))
