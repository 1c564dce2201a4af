# Stevens et al. style: thermometer calibration from scratch, then with nn + optim
import torch

torch.manual_seed(42)
t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4])
t_un = 0.1 * t_u


def model(t_u, w, b):
    return w * t_u + b


def loss_fn(t_p, t_c):
    return ((t_p - t_c) ** 2).mean()


params = torch.tensor([1.0, 0.0], requires_grad=True)
lr = 1e-2
for epoch in range(1, 3001):
    if params.grad is not None:
        params.grad.zero_()
    loss = loss_fn(model(t_un, *params), t_c)
    loss.backward()
    with torch.no_grad():
        params -= lr * params.grad
    if epoch in (1, 2, 3, 10, 100, 500, 1000, 3000):
        print(f"Epoch {epoch}, Loss {loss.item():.6f}, params {params.detach().tolist()}")

# with optimizer and train/val split
n = t_u.shape[0]
perm = torch.randperm(n)
n_val = int(0.2 * n)
train_idx, val_idx = perm[:-n_val], perm[-n_val:]
print("train idx:", train_idx, "val idx:", val_idx)

lin = torch.nn.Linear(1, 1)
print("init weight:", lin.weight.data, "bias:", lin.bias.data)
opt = torch.optim.SGD(lin.parameters(), lr=1e-2)
x_tr, y_tr = t_un[train_idx].unsqueeze(1), t_c[train_idx].unsqueeze(1)
x_va, y_va = t_un[val_idx].unsqueeze(1), t_c[val_idx].unsqueeze(1)
mse = torch.nn.MSELoss()
for epoch in range(1, 2001):
    pred = lin(x_tr)
    loss_tr = mse(pred, y_tr)
    with torch.no_grad():
        loss_va = mse(lin(x_va), y_va)
    opt.zero_grad()
    loss_tr.backward()
    opt.step()
    if epoch == 1 or epoch % 500 == 0:
        print(f"Epoch {epoch}, train {loss_tr.item():.4f}, val {loss_va.item():.4f}")
print("learned:", lin.weight.item(), lin.bias.item())
print("state_dict keys:", list(lin.state_dict().keys()))

# Adam on unnormalised input
params = torch.tensor([1.0, 0.0], requires_grad=True)
adam = torch.optim.Adam([params], lr=1e-1)
for epoch in range(2000):
    loss = loss_fn(model(t_u, *params), t_c)
    adam.zero_grad()
    loss.backward()
    adam.step()
print("Adam params:", params.detach(), "loss:", loss.item())
