# The weight-initialisation chapter: every nn.init function on a small weight, calculate_gain,
# and the activations of a deep tanh net under three inits (the Glorot experiment).
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.uniform_(w, a=-0.1, b=0.1))
print(nn.init.normal_(w, mean=0.0, std=0.02))
print(nn.init.constant_(w, 0.3))
print(nn.init.ones_(w), nn.init.zeros_(w))
print(nn.init.eye_(torch.empty(3, 5)))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("tanh")))
print(nn.init.xavier_normal_(w))
print(nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))
print(nn.init.kaiming_normal_(w, a=0.1, mode="fan_out", nonlinearity="leaky_relu"))
print(nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5))
q = nn.init.orthogonal_(torch.empty(4, 4))
print(q, torch.allclose(q @ q.t(), torch.eye(4), atol=1e-5))
print(nn.init.sparse_(torch.empty(6, 3), sparsity=0.5))
d = nn.init.dirac_(torch.empty(2, 2, 3))
print(d)
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, nn.init.calculate_gain(nl))
print("leaky_relu", nn.init.calculate_gain("leaky_relu", 0.2))

# fans as torch computes them, and the default init of Linear and Conv2d
conv = nn.Conv2d(3, 8, kernel_size=3)
fan_in = conv.weight.size(1) * conv.weight[0][0].numel()
bound = 1 / math.sqrt(fan_in)
print(fan_in, conv.weight.abs().max().item() <= bound, conv.bias.abs().max().item() <= bound)
lin = nn.Linear(20, 10)
print(round(lin.weight.std().item(), 4), round(1 / math.sqrt(3 * 20), 4))


def activations_through(init, depth=6, width=64):
    torch.manual_seed(1)
    layers = []
    for _ in range(depth):
        layer = nn.Linear(width, width, bias=False)
        init(layer.weight)
        layers += [layer, nn.Tanh()]
    net = nn.Sequential(*layers)
    x = torch.randn(128, width)
    stds = []
    with torch.no_grad():
        for m in net:
            x = m(x)
            if isinstance(m, nn.Tanh):
                stds.append(round(x.std().item(), 4))
    return stds


print("N(0, 0.01)", activations_through(lambda t: nn.init.normal_(t, std=0.01)))
print("N(0, 1)   ", activations_through(lambda t: nn.init.normal_(t, std=1.0)))
print("xavier    ", activations_through(nn.init.xavier_uniform_))


# initialising a whole model with apply, and re-initialising with reset_parameters
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, x):
        return self.net(x)


def init_kaiming(m):
    if type(m) == nn.Linear:
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)


torch.manual_seed(2)
model = MLP()
model.apply(init_kaiming)
print(model.net[0].weight, model.net[2].bias)
model.net[0].reset_parameters()
print(model.net[0].bias)
with torch.no_grad():
    model.net[2].weight.fill_(0.5)
    model.net[2].weight[0, :3] = torch.tensor([1.0, 2.0, 3.0])
print(model.net[2].weight)
