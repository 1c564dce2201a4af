# Spiral classification with a linear model and a two-layer net (in the style of NYU's
# Deep Learning course notebooks).
import math
import random

import torch
from torch import nn

seed = 12345
random.seed(seed)
torch.manual_seed(seed)

N = 200  # num_samples_per_class
D = 2  # dimensions
C = 3  # num_classes
H = 50  # num_hidden_units

X = torch.zeros(N * C, D)
y = torch.zeros(N * C, dtype=torch.long)
for c in range(C):
    index = 0
    t = torch.linspace(0, 1, N)
    inner_var = (
        torch.linspace((2 * math.pi / C) * c, (2 * math.pi / C) * (2 + c), N) + torch.randn(N) * 0.2
    )
    for ix in range(N * c, N * (c + 1)):
        X[ix] = t[index] * torch.FloatTensor(
            (math.sin(inner_var[index]), math.cos(inner_var[index]))
        )
        y[ix] = c
        index += 1
print("Shapes:")
print("X:", tuple(X.size()))
print("y:", tuple(y.size()))

learning_rate = 1e-3
lambda_l2 = 1e-5

model = nn.Sequential(nn.Linear(D, H), nn.Linear(H, C))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate, weight_decay=lambda_l2)

for t in range(300):
    y_pred = model(X)
    loss = criterion(y_pred, y)
    score, predicted = torch.max(y_pred, 1)
    acc = (y == predicted).sum().float() / len(y)
    if t % 100 == 0:
        print("[EPOCH]: %i, [LOSS]: %.6f, [ACCURACY]: %.3f" % (t, loss.item(), acc))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model)

learning_rate = 1e-3
model = nn.Sequential(nn.Linear(D, H), nn.ReLU(), nn.Linear(H, C))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=lambda_l2)
for t in range(300):
    y_pred = model(X)
    loss = criterion(y_pred, y)
    score, predicted = torch.max(y_pred, 1)
    acc = ((y == predicted).sum().float() / len(y)).item()
    if t % 100 == 99:
        print("[EPOCH]: %i, [LOSS]: %.6f, [ACCURACY]: %.3f" % (t, loss.item(), acc))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

mesh = torch.arange(-1.0, 1.01, 0.5)
xx, yy = torch.meshgrid(mesh, mesh, indexing="xy")
with torch.no_grad():
    data = torch.cat((xx.reshape(-1, 1), yy.reshape(-1, 1)), dim=1)
    Z = model(data)
Z = Z.argmax(dim=1).reshape(xx.shape)
print(Z)
print(model[0].weight.grad.norm().item() > 0, model[2].bias)
