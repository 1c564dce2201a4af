"""NYU DL style: spiral classification with a linear model vs a 2-layer net."""

import math

import torch
from torch import nn, optim

seed = 12345
torch.manual_seed(seed)
N, D, C, H = 100, 2, 3, 100  # points per class, dims, classes, hidden units

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
print(X[:3], y[::50])
print("class counts", torch.bincount(y), "mean", X.mean(0), "std", X.std(0))

learning_rate = 1e-3
lambda_l2 = 1e-5


def accuracy(score, y):
    _, predicted = torch.max(score, 1)
    return (y == predicted).sum().float() / len(y)


def train(model, epochs=400, log_every=100, opt="adam"):
    criterion = nn.CrossEntropyLoss()
    if opt == "adam":
        optimizer = optim.Adam(model.parameters(), lr=learning_rate, weight_decay=lambda_l2)
    else:
        optimizer = optim.SGD(model.parameters(), lr=0.5, momentum=0.9, weight_decay=lambda_l2)
    for t in range(epochs):
        y_pred = model(X)
        loss = criterion(y_pred, y)
        acc = accuracy(y_pred, y)
        if t % log_every == 0 or t == epochs - 1:
            print("[EPOCH]: %i, [LOSS]: %.6f, [ACCURACY]: %.3f" % (t, loss.item(), acc))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


torch.manual_seed(seed)
linear = nn.Sequential(nn.Linear(D, H), nn.Linear(H, C))
print(linear)
train(linear)
print("linear final weight norm", linear[0].weight.norm().item())

torch.manual_seed(seed)
model = nn.Sequential(nn.Linear(D, H), nn.ReLU(), nn.Linear(H, C))
print(model)
print("params:", sum(p.numel() for p in model.parameters()))
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.requires_grad, p.dtype)
train(model, epochs=1000, log_every=200)

torch.manual_seed(seed)
model2 = nn.Sequential(
    nn.Linear(D, H), nn.Tanh(), nn.Linear(H, H), nn.LeakyReLU(0.1), nn.Linear(H, C)
)
train(model2, epochs=300, log_every=100, opt="sgd")

# decision "mesh" evaluated on a small grid, as the notebook does before plotting
with torch.no_grad():
    xs = torch.linspace(-1.2, 1.2, 7)
    gx, gy = torch.meshgrid(xs, xs, indexing="ij")
    grid = torch.stack([gx.reshape(-1), gy.reshape(-1)], dim=1)
    Z = model(grid)
    Zc = Z.argmax(dim=1).reshape(gx.shape)
    print(Zc)
    probs = torch.softmax(Z, dim=1)
    print(probs[:4])
    print(probs.sum(1)[:4])
    print(nn.functional.log_softmax(Z, dim=1)[:2])
print(model[0].weight.grad.shape, model[2].bias.grad)
model.zero_grad()
print(model[2].bias.grad)

# inspecting the trained model, as the notebook does before moving on
print(list(model.children())[1], len(list(model.modules())), [n for n, _ in model.named_modules()])
print(model.state_dict()["2.bias"], list(model.state_dict().keys()))
print(model[0].weight.data.norm(), model[0].weight.grad is None)
print(next(model.parameters()).device, next(model.parameters()).dtype, model.training)
model.eval()
print(model.training, model[1].training)
model.train()


class Net2(nn.Module):
    def __init__(self, d, h, c):
        super().__init__()
        self.fc = nn.ModuleDict({"hidden": nn.Linear(d, h), "out": nn.Linear(h, c)})
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("mean", X.mean(0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)
        self.extras = nn.ParameterList([nn.Parameter(torch.zeros(2)) for _ in range(2)])

    def forward(self, x):
        return self.fc["out"](torch.relu(self.fc["hidden"](x - self.mean))) * self.scale

    def extra_repr(self):
        return "spiral classifier"


torch.manual_seed(seed)
net2 = Net2(D, 8, C)
print(net2)
print([n for n, _ in net2.named_parameters()])
print([n for n, _ in net2.named_buffers()], list(net2.state_dict().keys()))
acts = {}


def fwd_hook(mod, inp, out):
    acts[mod.__class__.__name__] = (tuple(inp[0].shape), tuple(out.shape))


h1 = net2.fc["hidden"].register_forward_hook(fwd_hook)
h2 = net2.register_forward_pre_hook(lambda mod, inp: print("pre-hook", inp[0].shape))
grads = []
h3 = net2.fc["out"].register_full_backward_hook(
    lambda mod, gin, gout: grads.append((gin[0].shape, gout[0].shape))
)
out = net2(X[:5])
out.sum().backward()
print(acts, grads)
for h in (h1, h2, h3):
    h.remove()
net2(X[:2])
print(sum(p.numel() for p in net2.parameters()), net2.scale.grad)
net2.requires_grad_(False)
print(all(not p.requires_grad for p in net2.parameters()))
net2.apply(lambda m: nn.init.zeros_(m.bias) if isinstance(m, nn.Linear) else None)
print(net2.fc["out"].bias)
net2.zero_grad(set_to_none=True)
print(net2.scale.grad)
print(net2.double().mean.dtype, net2.float().fc["hidden"].weight.dtype)
optim_repr = optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
print(optim_repr)
