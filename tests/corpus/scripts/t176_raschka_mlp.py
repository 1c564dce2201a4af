# Raschka-style: logistic regression then an MLP on synthetic XOR data
import torch
from torch import nn

torch.manual_seed(123)

n = 200
X = torch.rand(n, 2) * 2 - 1
y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).float()
print("class balance:", y.mean().item(), "X range:", X.min().item() > -1, X.max().item() < 1)
perm = torch.randperm(n)
X_train, y_train = X[perm[:150]], y[perm[:150]]
X_valid, y_valid = X[perm[150:]], y[perm[150:]]
print("shapes:", X_train.shape, y_valid.shape)


class LogisticRegression(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.linear = nn.Linear(num_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


class MLP(nn.Module):
    def __init__(self, num_features, hidden):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(num_features, hidden),
            nn.Tanh(),
            nn.Linear(hidden, hidden),
            nn.LeakyReLU(0.1),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.layers(x).squeeze(1)


def accuracy(probas, y):
    return ((probas > 0.5).float() == y).float().mean().item()


logreg = LogisticRegression(2)
opt = torch.optim.SGD(logreg.parameters(), lr=0.5)
bce = nn.BCELoss()
for epoch in range(30):
    p = logreg(X_train).view(-1)
    loss = bce(p, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"logreg loss {loss.item():.4f} train acc {accuracy(p, y_train):.3f}")

model = MLP(2, 16)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(60):
    for i in range(0, 150, 30):
        xb, yb = X_train[i : i + 30], y_train[i : i + 30]
        logits = model(xb)
        loss = loss_fn(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 15 == 0:
        model.eval()
        with torch.no_grad():
            va = accuracy(torch.sigmoid(model(X_valid)), y_valid)
        model.train()
        print(f"epoch {epoch:3d} minibatch loss {loss.item():.4f} valid acc {va:.3f}")

with torch.no_grad():
    tr = accuracy(torch.sigmoid(model(X_train)), y_train)
    va = accuracy(torch.sigmoid(model(X_valid)), y_valid)
print(f"final train acc {tr:.3f} valid acc {va:.3f}")
grid = torch.tensor([[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]])
print("grid probs:", torch.sigmoid(model(grid)).detach())
print(model)
