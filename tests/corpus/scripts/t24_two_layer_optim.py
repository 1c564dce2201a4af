"""The two-layer network trained with Adam, initialised deterministically with apply()."""

import torch
from torch import nn, optim


def init_weights(module):
    if isinstance(module, nn.Linear):
        n = module.weight.numel()
        with torch.no_grad():
            module.weight.copy_(torch.linspace(-0.5, 0.5, n).reshape(module.weight.shape))
        nn.init.constant_(module.bias, 0.1)


x = torch.linspace(-1, 1, 48).reshape(12, 4)
y = torch.tanh(x.sum(dim=1, keepdim=True))
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1))
model.apply(init_weights)
optimizer = optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
for epoch in range(150):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if epoch % 30 == 29:
        print(epoch, f"{loss.item():.6f}")
print(model[2].weight, model[2].bias)
print(optimizer.state_dict()["param_groups"][0]["lr"], len(optimizer.state))
