"""DLWP ch.5: the thermometer, params unpacked, manual grad, then optim with train/val split."""

import torch
import torch.optim as optim

t_c = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
t_c = torch.tensor(t_c)
t_u = torch.tensor(t_u)


def model(t_u, w, b):
    return w * t_u + b


def loss_fn(t_p, t_c):
    return ((t_p - t_c) ** 2).mean()


def dloss_fn(t_p, t_c):
    return 2 * (t_p - t_c) / t_p.size(0)


def grad_fn(t_u, t_c, t_p, w, b):
    dloss_dtp = dloss_fn(t_p, t_c)
    return torch.stack([(dloss_dtp * t_u).sum(), (dloss_dtp * 1.0).sum()])


def training_loop(n_epochs, learning_rate, params, t_u, t_c, print_params=True):
    for epoch in range(1, n_epochs + 1):
        w, b = params
        t_p = model(t_u, w, b)
        loss = loss_fn(t_p, t_c)
        grad = grad_fn(t_u, t_c, t_p, w, b)
        params = params - learning_rate * grad
        if epoch in {1, 2, 3, 10, 11, 99, 100, 4000, 5000}:
            print("Epoch %d, Loss %f" % (epoch, float(loss)))
            if print_params:
                print("    Params:", params, "    Grad:  ", grad)
    return params


t_un = 0.1 * t_u
params = training_loop(5000, 1e-2, torch.tensor([1.0, 0.0]), t_un, t_c, print_params=False)
print(params)
params = torch.tensor([1.0, 0.0], requires_grad=True)
loss = loss_fn(model(t_u, *params), t_c)
loss.backward()
print(params.grad)
torch.manual_seed(0)
n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)
shuffled_indices = torch.randperm(n_samples)
train_indices, val_indices = shuffled_indices[:-n_val], shuffled_indices[-n_val:]
print(train_indices, val_indices)
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.Adam([params], lr=1e-1)
for epoch in range(1, 2001):
    train_loss = loss_fn(model(t_un[train_indices], *params), t_c[train_indices])
    with torch.no_grad():
        val_loss = loss_fn(model(t_un[val_indices], *params), t_c[val_indices])
        assert val_loss.requires_grad == False
    optimizer.zero_grad()
    train_loss.backward()
    optimizer.step()
    if epoch <= 3 or epoch % 500 == 0:
        print(
            f"Epoch {epoch}, Training loss {train_loss.item():.4f},"
            f" Validation loss {val_loss.item():.4f}"
        )
print(params, dir(optim)[:3])
