# A small CNN with nn.Sequential on synthetic 'images'
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


# two classes: horizontal bar vs vertical bar plus noise
def make_data(n):
    X = torch.randn(n, 1, 8, 8) * 0.3
    y = torch.randint(0, 2, (n,))
    for i in range(n):
        pos = torch.randint(1, 7, (1,)).item()
        if y[i] == 0:
            X[i, 0, pos, :] += 1.0
        else:
            X[i, 0, :, pos] += 1.0
    return X, y


X, y = make_data(64)
print("X:", X.shape, "y[:10]:", y[:10])

model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 8, kernel_size=3, padding=1, bias=False),  # batch norm cancels a bias
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(8, 2),
)
print(model)
n_params = sum(p.numel() for p in model.parameters())
print("parameters:", n_params)

h = X[:2]
for layer in model:
    h = layer(h)
    print(f"{layer.__class__.__name__:>18}: {tuple(h.shape)}")

opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(15):
    model.train()
    perm = torch.randperm(64)
    total = 0.0
    for i in range(0, 64, 16):
        idx = perm[i : i + 16]
        logits = model(X[idx])
        loss = F.cross_entropy(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 3 == 0 or epoch == 14:
        model.eval()
        with torch.no_grad():
            acc = (model(X).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch:2d} loss {total / 4:.4f} acc {acc:.3f}")

Xt, yt = make_data(32)
model.eval()
with torch.no_grad():
    probs = F.softmax(model(Xt), dim=1)
print("test probs[:3]:\n", probs[:3])
print("test acc:", (probs.argmax(1) == yt).float().mean().item())
print("bn running mean:", model[4].running_mean)
print("conv1 weight grad shape:", model[0].weight.grad.shape)
