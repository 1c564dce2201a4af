"""'Deep Learning with PyTorch' chapters 5-6: fitting an unknown thermometer, first by
hand, then with autograd and an optimizer, a train/validation split, and finally a small
nn.Sequential with named layers."""

from collections import OrderedDict

import torch
import torch.nn as nn
import torch.optim as optim

t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4])
t_un = 0.1 * t_u


def model(t_u, w, b):
    return w * t_u + b


def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c) ** 2
    return squared_diffs.mean()


def training_loop(n_epochs, optimizer, params, train_t_u, val_t_u, train_t_c, val_t_c):
    for epoch in range(1, n_epochs + 1):
        train_t_p = model(train_t_u, *params)
        train_loss = loss_fn(train_t_p, train_t_c)
        with torch.no_grad():
            val_t_p = model(val_t_u, *params)
            val_loss = loss_fn(val_t_p, val_t_c)
            assert val_loss.requires_grad is False
        optimizer.zero_grad()
        train_loss.backward()
        optimizer.step()
        if epoch <= 3 or epoch % 500 == 0:
            print(
                f"Epoch {epoch}, Training loss {train_loss.item():.4f}, "
                f"Validation loss {val_loss.item():.4f}"
            )
    return params


torch.manual_seed(12)
n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)
shuffled_indices = torch.randperm(n_samples)
train_indices = shuffled_indices[:-n_val]
val_indices = shuffled_indices[-n_val:]
print(train_indices, val_indices)
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.SGD([params], lr=1e-2)
params = training_loop(
    1500,
    optimizer,
    params,
    t_un[train_indices],
    t_un[val_indices],
    t_c[train_indices],
    t_c[val_indices],
)
print(params)

params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.Adam([params], lr=1e-1)
for epoch in range(500):
    loss = loss_fn(model(t_u, *params), t_c)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(params, loss)

t_c2, t_u2 = t_c.unsqueeze(1), t_un.unsqueeze(1)
seq_model = nn.Sequential(
    OrderedDict(
        [
            ("hidden_linear", nn.Linear(1, 8)),
            ("hidden_activation", nn.Tanh()),
            ("output_linear", nn.Linear(8, 1)),
        ]
    )
)
print(seq_model)
for name, param in seq_model.named_parameters():
    print(name, param.shape)
optimizer = optim.SGD(seq_model.parameters(), lr=1e-3)
for epoch in range(1, 201):
    loss = nn.MSELoss()(seq_model(t_u2[train_indices]), t_c2[train_indices])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0:
        print(f"Epoch {epoch}, Training loss {loss.item():.4f}")
print("output", seq_model(t_u2[val_indices]))
print("answer", t_c2[val_indices])
print("hidden", seq_model.hidden_linear.weight.grad)
