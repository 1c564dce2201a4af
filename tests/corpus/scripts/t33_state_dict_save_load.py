"""state_dict, load_state_dict, torch.save and torch.load of tensors, models and checkpoints."""

import os
import tempfile

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for i, p in enumerate(model.parameters()):
    with torch.no_grad():
        p.fill_(0.1 * (i + 1))
state = model.state_dict()
print(list(state.keys()))
print(state["0.weight"], state["2.bias"])

folder = tempfile.mkdtemp()
path = os.path.join(folder, "model.pt")
torch.save(model.state_dict(), path)
fresh = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(fresh.load_state_dict(torch.load(path)))
print(torch.equal(fresh[0].weight, model[0].weight))

torch.save(torch.arange(5.0), os.path.join(folder, "t.pt"))
print(torch.load(os.path.join(folder, "t.pt")))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.ones(4, 2)).sum().backward()
optimizer.step()
checkpoint = {
    "epoch": 3,
    "model": model.state_dict(),
    "optimizer": optimizer.state_dict(),
    "loss": 0.25,
}
torch.save(checkpoint, os.path.join(folder, "ckpt.pt"))
loaded = torch.load(os.path.join(folder, "ckpt.pt"))
print(
    loaded["epoch"],
    loaded["loss"],
    sorted(loaded["optimizer"]["state"]),
    loaded["optimizer"]["param_groups"][0]["lr"],
)
again = torch.optim.SGD(fresh.parameters(), lr=0.5, momentum=0.9)
again.load_state_dict(loaded["optimizer"])
print(again.param_groups[0]["lr"], again.state[fresh[0].weight]["momentum_buffer"])

smaller = nn.Sequential(nn.Linear(2, 3))
result = smaller.load_state_dict(model.state_dict(), strict=False)
print(result.missing_keys, result.unexpected_keys)
try:
    smaller.load_state_dict(model.state_dict())
except RuntimeError as error:
    print(str(error).splitlines()[0])
torch.save(model, os.path.join(folder, "whole.pt"))
try:
    torch.load(os.path.join(folder, "whole.pt"))
except Exception as error:
    print(type(error).__name__, str(error)[:40])
whole = torch.load(os.path.join(folder, "whole.pt"), weights_only=False)
print(whole)
