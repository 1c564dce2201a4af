# D2L "Parameter Management" + "Custom Layers" + weight init
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(3)

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
X = torch.rand(size=(2, 4))
print("out:", net(X))
print(net[2].state_dict())
print(type(net[2].bias), net[2].bias.data)
print("grad is None:", net[2].weight.grad is None)
print(*[(name, param.shape) for name, param in net.named_parameters()])
print("state_dict keys:", list(net.state_dict().keys()))


def init_normal(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.01)
        nn.init.zeros_(m.bias)


net.apply(init_normal)
print("normal init:", net[0].weight.data[0], net[0].bias.data[0])


def init_xavier(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
        nn.init.constant_(m.bias, 0.1)


net.apply(init_xavier)
print("xavier:", net[0].weight.data[0], net[2].bias.data)

with torch.no_grad():
    net[0].weight[:] += 1
    net[0].weight[0, 0] = 42
print("manual edit:", net[0].weight.data[0])

# tied parameters
shared = nn.Linear(8, 8)
net2 = nn.Sequential(
    nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1)
)
net2(X)
print("tied same:", net2[2].weight.data[0] == net2[4].weight.data[0])
net2[2].weight.data[0, 0] = 100
print("tied after edit:", net2[4].weight.data[0, 0])
print("num params (dedup):", sum(p.numel() for p in net2.parameters()))


class CenteredLayer(nn.Module):
    def forward(self, X):
        return X - X.mean()


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(
            torch.randn(
                units,
            )
        )

    def forward(self, X):
        return F.relu(torch.matmul(X, self.weight.data) + self.bias.data)


layer = CenteredLayer()
print("centered:", layer(torch.tensor([1.0, 2, 3, 4, 5])))
lin = MyLinear(5, 3)
print("MyLinear weight:", lin.weight)
print("MyLinear out:", lin(torch.rand(2, 5)))
net3 = nn.Sequential(MyLinear(64, 8), CenteredLayer())
print("mean of centered:", net3(torch.rand(4, 64)).mean().item() < 1e-6)
print(net3)
