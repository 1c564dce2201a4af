"""The UvA course's tutorial on activation functions: sigmoid, tanh, ReLU, LeakyReLU,
ELU and Swish written as modules by hand, their gradients by autograd over a grid,
checked against PyTorch's own layers, and the share of dead ReLU units."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.name = self.__class__.__name__
        self.config = {"name": self.name}


class Sigmoid(ActivationFunction):
    def forward(self, x):
        return 1 / (1 + torch.exp(-x))


class Tanh(ActivationFunction):
    def forward(self, x):
        x_exp, neg_x_exp = torch.exp(x), torch.exp(-x)
        return (x_exp - neg_x_exp) / (x_exp + neg_x_exp)


class ReLU(ActivationFunction):
    def forward(self, x):
        return x * (x > 0).float()


class LeakyReLU(ActivationFunction):
    def __init__(self, alpha=0.1):
        super().__init__()
        self.config["alpha"] = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.config["alpha"] * x)


class ELU(ActivationFunction):
    def forward(self, x):
        return torch.where(x > 0, x, torch.exp(x) - 1)


class Swish(ActivationFunction):
    def forward(self, x):
        return x * torch.sigmoid(x)


act_fn_by_name = {
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "relu": ReLU,
    "leakyrelu": LeakyReLU,
    "elu": ELU,
    "swish": Swish,
}
builtin = {
    "sigmoid": nn.Sigmoid(),
    "tanh": nn.Tanh(),
    "relu": nn.ReLU(),
    "leakyrelu": nn.LeakyReLU(0.1),
    "elu": nn.ELU(),
    "swish": nn.SiLU(),
}


def get_grads(act_fn, x):
    x = x.clone().requires_grad_()
    out = act_fn(x)
    out.sum().backward()
    return x.grad


x = torch.linspace(-5, 5, 11)
for name, cls in act_fn_by_name.items():
    act = cls()
    y, g = act(x), get_grads(act, x)
    yb, gb = builtin[name](x), get_grads(builtin[name], x)
    print(
        f"{name:10} {act.config} same values {torch.allclose(y, yb, atol=1e-6)} "
        f"same grads {torch.allclose(g, gb, atol=1e-6)}"
    )
    print("   ", g[::2])
print(F.gelu(x)[::3], F.gelu(x, approximate="tanh")[::3])
print(F.softplus(x)[::3], F.mish(x)[::3], F.hardswish(x)[::3], F.selu(x)[::3])
print(F.hardtanh(x, -2, 2), F.relu6(x * 2), F.softsign(x)[::3], F.logsigmoid(x)[::3])

torch.manual_seed(42)
net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
inputs = torch.randn(64, 8)
dead = []
h = inputs
for layer in net:
    h = layer(h)
    if isinstance(layer, nn.ReLU):
        dead.append(((h > 0).sum(0) == 0).float().mean().item())
print("fraction of dead neurons:", dead)
