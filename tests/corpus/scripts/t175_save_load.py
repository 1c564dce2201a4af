# Saving and loading state_dicts through an in-memory buffer
import io

import torch
from torch import nn

torch.manual_seed(11)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(
            4, 8, bias=False
        )  # batch norm cancels a bias: its gradient is noise
        self.bn = nn.BatchNorm1d(8)
        self.out = nn.Linear(8, 2)

    def forward(self, x):
        return self.out(torch.relu(self.bn(self.hidden(x))))


net = MLP()
X = torch.randn(6, 4)
Y = net(X)
for k, v in net.state_dict().items():
    print(f"{k:24s} {tuple(v.shape)}")

buf = io.BytesIO()
torch.save(net.state_dict(), buf)
print("bytes written > 0:", buf.tell() > 0)
buf.seek(0)
clone = MLP()
res = clone.load_state_dict(torch.load(buf))
print("load result:", res)
clone.train()
print("same output:", torch.equal(clone(X), Y))

# tensors and dicts of tensors
buf = io.BytesIO()
torch.save({"x": torch.arange(4), "y": [torch.ones(2), 3.5]}, buf)
buf.seek(0)
obj = torch.load(buf)
print("loaded obj:", obj)

# full checkpoint with optimizer
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for _ in range(3):
    loss = net(X).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss after 3 steps:", round(loss.item(), 5))
ckpt = {"epoch": 3, "model": net.state_dict(), "optim": opt.state_dict(), "loss": loss.item()}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf)
net2 = MLP()
opt2 = torch.optim.Adam(net2.parameters(), lr=0.5)
net2.load_state_dict(loaded["model"])
opt2.load_state_dict(loaded["optim"])
print("epoch:", loaded["epoch"], "lr restored:", opt2.param_groups[0]["lr"])
print("adam step count:", opt2.state_dict()["state"][0]["step"])
for a, b in ((net, opt), (net2, opt2)):
    l = a(X).pow(2).mean()
    b.zero_grad()
    l.backward()
    b.step()
print("resumed training identical:", torch.allclose(net.out.weight, net2.out.weight))


# partial load with strict=False
class Bigger(MLP):
    def __init__(self):
        super().__init__()
        self.extra = nn.Linear(2, 1)


big = Bigger()
r = big.load_state_dict(net.state_dict(), strict=False)
print("missing:", r.missing_keys, "unexpected:", r.unexpected_keys)
try:
    big.load_state_dict(net.state_dict())
except RuntimeError as e:
    print("strict load error:", str(e).splitlines()[0])
print("bn running_mean:", net.bn.running_mean)
