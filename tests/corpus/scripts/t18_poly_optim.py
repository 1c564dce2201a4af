"""The cubic fit with an optimizer doing the updates (RMSprop, then SGD with momentum)."""

import math

import torch

torch.manual_seed(1)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(400):
    loss = loss_fn(model(xx), y)
    if t % 100 == 99:
        print(t, f"{loss.item():.2f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(optimizer)
sgd = torch.optim.SGD(model.parameters(), lr=1e-6, momentum=0.9)
for t in range(100):
    loss = loss_fn(model(xx), y)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
print(f"{loss.item():.2f}", [f"{v:.3f}" for v in model[0].weight.flatten().tolist()])
