"""pytorch-tutorial 01-basics style: autograd, a linear layer by hand, numpy bridge, input pipeline, save/load."""

import numpy as np
import torch
import torch.nn as nn

# ================================================================== #
#                         1. Basic autograd example 1               #
# ================================================================== #
x = torch.tensor(1.0, requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
y = w * x + b
y.backward()
print(x.grad)
print(w.grad)
print(b.grad)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].__class__.__name__, y.is_leaf, x.is_leaf)

# ================================================================== #
#                    2. Basic autograd example 2                     #
# ================================================================== #
torch.manual_seed(1)
x = torch.randn(10, 3)
y = torch.randn(10, 2)
linear = nn.Linear(3, 2)
print("w: ", linear.weight)
print("b: ", linear.bias)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(linear.parameters(), lr=0.01)
pred = linear(x)
loss = criterion(pred, y)
print("loss: ", loss.item())
loss.backward()
print("dL/dw: ", linear.weight.grad)
print("dL/db: ", linear.bias.grad)
optimizer.step()
pred = linear(x)
loss = criterion(pred, y)
print("loss after 1 step optimization: ", loss.item())
for i in range(5):
    optimizer.zero_grad()
    loss = criterion(linear(x), y)
    loss.backward()
    optimizer.step()
print("loss after 6 steps: {:.4f}".format(loss.item()))
print(optimizer.param_groups[0]["lr"], len(optimizer.param_groups[0]["params"]))
optimizer.zero_grad(set_to_none=True)
print(linear.weight.grad)

# manual gradient check
x = torch.randn(4, 3, requires_grad=True)
wt = torch.randn(3, 2, requires_grad=True)
out = (x @ wt).tanh().sum()
gx, gw = torch.autograd.grad(out, [x, wt])
print(gx.shape, gw)
h = x.exp()
h.retain_grad()
z = (h * 2).mean()
z.backward()
print(h.grad, x.grad.shape)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v.register_hook(lambda g: print("hook sees", g))
(v**2).sum().backward()
print(v.grad)
with torch.no_grad():
    nog = v * 2
print(nog.requires_grad, (v * 2).requires_grad, v.detach().requires_grad)
with torch.set_grad_enabled(False):
    print((v + 1).requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    k = v * 3
    k.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
m = v.sum() * 2
m.backward(retain_graph=True)
m.backward()
print(v.grad)
try:
    v2 = v.clone().sum()
    v2.backward()
    v2.backward()
except RuntimeError as e:
    print(str(e)[:80])

# in-place writes through views, under autograd
base = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = base * 1.0
flat = h.view(-1)
flat[0] = 10.0
print(h, h.grad_fn.name(), flat._base is h)
hT = h.t()
hT.mul_(2)
print(h)
h.sum().backward()
print(base.grad)
act = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True) * 1
act.view(2, 2).relu_()
print(act)
act.sum().backward()

# ================================================================== #
#                     3. Loading data from numpy                     #
# ================================================================== #
x = np.array([[1, 2], [3, 4]])
y = torch.from_numpy(x)
z = y.numpy()
print(y, y.dtype, z, z.dtype)
print(
    torch.tensor(x, dtype=torch.float32),
    torch.Tensor(x),
    torch.FloatTensor([1, 2]),
    torch.LongTensor([3, 4]),
)

# ================================================================== #
#                         4. Input pipeline                          #
# ================================================================== #


class CustomDataset(torch.utils.data.Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(3)
        self.data = torch.randn(20, 3, generator=g)
        self.labels = (self.data.sum(1) > 0).long()

    def __getitem__(self, index):
        return self.data[index], self.labels[index]

    def __len__(self):
        return len(self.data)


custom_dataset = CustomDataset()
train_loader = torch.utils.data.DataLoader(dataset=custom_dataset, batch_size=6, shuffle=True)
data_iter = iter(train_loader)
images, labels = next(data_iter)
print(images.shape, labels)
for images, labels in train_loader:
    print(images.size(), labels.tolist())
loader2 = torch.utils.data.DataLoader(custom_dataset, batch_size=6, drop_last=True)
print(len(loader2), len(train_loader), [b[0].shape[0] for b in loader2])


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).sum(1), torch.tensor(ys)


loader3 = torch.utils.data.DataLoader(custom_dataset, batch_size=5, collate_fn=collate)
print(next(iter(loader3)))
sampler = torch.utils.data.SubsetRandomSampler(
    list(range(5)), generator=torch.Generator().manual_seed(0)
)
print([i for i in sampler])
wsampler = torch.utils.data.WeightedRandomSampler(
    [0.1, 0.9, 0.5], num_samples=6, replacement=True, generator=torch.Generator().manual_seed(0)
)
print(list(wsampler))
bs = torch.utils.data.BatchSampler(
    torch.utils.data.SequentialSampler(range(7)), batch_size=3, drop_last=False
)
print(list(bs))
concat = torch.utils.data.ConcatDataset([custom_dataset, custom_dataset])
print(len(concat), concat[25][1])
sub = torch.utils.data.Subset(custom_dataset, [0, 2, 4])
print(len(sub), sub[1][0])

# ================================================================== #
#                        5. Save and load the model                  #
# ================================================================== #
torch.manual_seed(2)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
torch.save(model, "model.ckpt")
model = torch.load("model.ckpt", weights_only=False)
print(model)
torch.save(model.state_dict(), "params.ckpt")
sd = torch.load("params.ckpt")
print(type(sd).__name__, list(sd.keys()), sd["0.weight"].dtype)
model.load_state_dict(sd)
bad = {k: v for k, v in sd.items() if k != "2.bias"}
try:
    model.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
res = model.load_state_dict(bad, strict=False)
print(res.missing_keys, res.unexpected_keys)
ckpt = {
    "epoch": 5,
    "model_state_dict": model.state_dict(),
    "optimizer_state_dict": torch.optim.Adam(model.parameters()).state_dict(),
    "loss": 0.25,
}
torch.save(ckpt, "checkpoint.tar")
loaded = torch.load("checkpoint.tar")
print(
    loaded["epoch"],
    loaded["loss"],
    loaded["optimizer_state_dict"]["param_groups"][0]["lr"],
    loaded["optimizer_state_dict"]["param_groups"][0]["betas"],
)
