""" "Deep Learning with PyTorch Step-by-Step" style: a StepByStep training class, TensorDataset, random_split, DataLoader, checkpoints via state_dict"""

import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

true_b, true_w, N = 1, 2, 100
np.random.seed(42)
x = np.random.rand(N, 1)
epsilon = 0.1 * np.random.randn(N, 1)
y = true_b + true_w * x + epsilon
print(x.dtype, x.shape, y[:3].ravel())

torch.manual_seed(13)
x_tensor = torch.as_tensor(x).float()
y_tensor = torch.from_numpy(y).float()
print(type(x_tensor), x_tensor.dtype, x_tensor.shape, torch.as_tensor(x).dtype)
dataset = TensorDataset(x_tensor, y_tensor)
print(len(dataset), dataset[0], type(dataset.tensors))
ratio = 0.8
n_train = int(len(dataset) * ratio)
n_val = len(dataset) - n_train
train_data, val_data = random_split(dataset, [n_train, n_val])
print(type(dataset), type(train_data), type(x_tensor))
print(type(train_data).__name__, len(train_data), len(val_data), train_data.indices[:8])
train_loader = DataLoader(dataset=train_data, batch_size=16, shuffle=True)
val_loader = DataLoader(dataset=val_data, batch_size=16)
print(len(train_loader), len(val_loader), type(train_loader))
xb, yb = next(iter(train_loader))
print("first batch", xb.shape, xb[:3].ravel(), yb.dtype)


class StepByStep(object):
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.device = "cpu"
        self.model.to(self.device)
        self.train_loader = None
        self.val_loader = None
        self.losses = []
        self.val_losses = []
        self.total_epochs = 0
        self.train_step_fn = self._make_train_step_fn()
        self.val_step_fn = self._make_val_step_fn()

    def to(self, device):
        self.device = device
        self.model.to(self.device)

    def set_loaders(self, train_loader, val_loader=None):
        self.train_loader = train_loader
        self.val_loader = val_loader

    def _make_train_step_fn(self):
        def perform_train_step_fn(x, y):
            self.model.train()
            yhat = self.model(x)
            loss = self.loss_fn(yhat, y)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            return loss.item()

        return perform_train_step_fn

    def _make_val_step_fn(self):
        def perform_val_step_fn(x, y):
            self.model.eval()
            yhat = self.model(x)
            loss = self.loss_fn(yhat, y)
            return loss.item()

        return perform_val_step_fn

    def _mini_batch(self, validation=False):
        if validation:
            data_loader = self.val_loader
            step_fn = self.val_step_fn
        else:
            data_loader = self.train_loader
            step_fn = self.train_step_fn
        if data_loader is None:
            return None
        mini_batch_losses = []
        for x_batch, y_batch in data_loader:
            x_batch = x_batch.to(self.device)
            y_batch = y_batch.to(self.device)
            mini_batch_losses.append(step_fn(x_batch, y_batch))
        return np.mean(mini_batch_losses)

    def set_seed(self, seed=42):
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.manual_seed(seed)
        np.random.seed(seed)
        random.seed(seed)
        try:
            self.train_loader.sampler.generator.manual_seed(seed)
        except AttributeError:
            pass

    def train(self, n_epochs, seed=42):
        self.set_seed(seed)
        for epoch in range(n_epochs):
            self.total_epochs += 1
            loss = self._mini_batch(validation=False)
            self.losses.append(loss)
            with torch.no_grad():
                val_loss = self._mini_batch(validation=True)
                self.val_losses.append(val_loss)

    def save_checkpoint(self, filename):
        checkpoint = {
            "epoch": self.total_epochs,
            "model_state_dict": self.model.state_dict(),
            "optimizer_state_dict": self.optimizer.state_dict(),
            "loss": self.losses,
            "val_loss": self.val_losses,
        }
        torch.save(checkpoint, filename)

    def load_checkpoint(self, filename):
        checkpoint = torch.load(filename, weights_only=False)
        self.model.load_state_dict(checkpoint["model_state_dict"])
        self.optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
        self.total_epochs = checkpoint["epoch"]
        self.losses = checkpoint["loss"]
        self.val_losses = checkpoint["val_loss"]
        self.model.train()

    def predict(self, x):
        self.model.eval()
        x_tensor = torch.as_tensor(x).float()
        y_hat_tensor = self.model(x_tensor.to(self.device))
        self.model.train()
        return y_hat_tensor.detach().cpu().numpy()

    def count_parameters(self):
        return sum(p.numel() for p in self.model.parameters() if p.requires_grad)


lr = 0.1
torch.manual_seed(42)
model = nn.Sequential()
model.add_module("linear", nn.Linear(1, 1))
print(model, model.state_dict())
optimizer = optim.SGD(model.parameters(), lr=lr)
loss_fn = nn.MSELoss(reduction="mean")
sbs = StepByStep(model, loss_fn, optimizer)
sbs.set_loaders(train_loader, val_loader)
sbs.train(n_epochs=50)
print(model.state_dict())
print("total epochs", sbs.total_epochs, "params", sbs.count_parameters())
print("losses", [round(float(l), 6) for l in sbs.losses[::10]])
print("val losses", [round(float(l), 6) for l in sbs.val_losses[::10]])
print("predict", sbs.predict(np.array([[0.5], [0.3], [0.7]])).ravel())

sbs.save_checkpoint("model_checkpoint.pth")
ckpt = torch.load("model_checkpoint.pth", weights_only=False)
print(sorted(ckpt.keys()), ckpt["epoch"], ckpt["optimizer_state_dict"]["param_groups"][0]["lr"])
print(ckpt["optimizer_state_dict"])

torch.manual_seed(42)
new_model = nn.Sequential()
new_model.add_module("linear", nn.Linear(1, 1))
new_optimizer = optim.SGD(new_model.parameters(), lr=lr)
print("fresh", new_model.state_dict())
new_sbs = StepByStep(new_model, loss_fn, new_optimizer)
new_sbs.load_checkpoint("model_checkpoint.pth")
print("loaded", new_model.state_dict())
new_sbs.set_loaders(train_loader, val_loader)
new_sbs.train(n_epochs=50)
print("resumed to epoch", new_sbs.total_epochs, new_model.state_dict())
print(len(new_sbs.losses), round(float(new_sbs.losses[-1]), 6))


# a custom Dataset and a generator for reproducible shuffling
class CustomDataset(Dataset):
    def __init__(self, x_tensor, y_tensor):
        self.x = x_tensor
        self.y = y_tensor

    def __getitem__(self, index):
        return (self.x[index], self.y[index])

    def __len__(self):
        return len(self.x)


cds = CustomDataset(x_tensor, y_tensor)
g = torch.Generator()
g.manual_seed(7)
loader = DataLoader(cds, batch_size=32, shuffle=True, generator=g, drop_last=True)
print(len(loader), [b[0].shape[0] for b in loader])
g.manual_seed(7)
first_a = next(iter(loader))[0][:4].ravel()
g.manual_seed(7)
first_b = next(iter(loader))[0][:4].ravel()
print("same with reseeded generator:", torch.equal(first_a, first_b), first_a)
splits = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print([list(s) for s in splits])
try:
    random_split(range(10), [5, 6])
except ValueError as e:
    print("ValueError:", e)


# the same regression with Adam and a Linear model class
class ManualLinearRegression(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = nn.Parameter(torch.randn(1, requires_grad=True, dtype=torch.float))
        self.w = nn.Parameter(torch.randn(1, requires_grad=True, dtype=torch.float))

    def forward(self, x):
        return self.b + self.w * x


torch.manual_seed(42)
mlr = ManualLinearRegression()
print(list(mlr.parameters()), mlr.state_dict())
sbs2 = StepByStep(mlr, nn.MSELoss(), optim.Adam(mlr.parameters(), lr=0.05))
sbs2.set_loaders(train_loader, val_loader)
sbs2.train(30, seed=7)
print(mlr.state_dict(), round(float(sbs2.losses[-1]), 6))
print(
    sbs2.optimizer.state_dict()["state"][0]["step"],
    sbs2.optimizer.state_dict()["state"][0]["exp_avg"],
)

# --- collate functions, dict samples, whole-model save, feature extraction with nn.Identity ---
from torch.utils.data import default_collate


class DictDataset(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "label": i % 3, "name": f"item{i}", "w": 0.5 * i}


dl = DataLoader(DictDataset(5), batch_size=2)
for batch in dl:
    print(
        {
            k: (v if not isinstance(v, torch.Tensor) else (v.dtype, v.tolist()))
            for k, v in batch.items()
        }
    )
print(default_collate([(1, 2.0), (3, 4.0)]), default_collate([torch.ones(2), torch.zeros(2)]))


def pad_collate(batch):
    seqs = [b[0] for b in batch]
    ys = torch.tensor([b[1] for b in batch])
    lens = torch.tensor([len(s) for s in seqs])
    return torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1), lens, ys


var = [(torch.arange(n, dtype=torch.float32), n % 2) for n in (3, 1, 4, 2)]
for xb, lens, yb in DataLoader(var, batch_size=2, collate_fn=pad_collate):
    print(xb, lens, yb)
print(
    dl.batch_size,
    len(dl.dataset),
    type(dl.sampler).__name__,
    type(dl.batch_sampler).__name__,
    dl.drop_last,
)
try:
    next(iter(DataLoader(var, batch_size=2)))
except RuntimeError as e:
    print("RuntimeError:", e)

torch.manual_seed(3)
clf = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
torch.save(clf, "whole_model.pt")
loaded = torch.load("whole_model.pt", weights_only=False)
print(type(loaded).__name__, loaded)
inp = torch.randn(3, 4)
print(torch.equal(loaded(inp), clf(inp)))
try:
    torch.load("whole_model.pt", weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:80])
clf[2] = nn.Identity()


@torch.no_grad()
def preprocessed_dataset(model, loader):
    features, labels = None, None
    for xb, yb in loader:
        out = model(xb)
        features = out if features is None else torch.cat([features, out])
        labels = yb if labels is None else torch.cat([labels, yb])
    return TensorDataset(features, labels)


feat_ds = preprocessed_dataset(
    clf, DataLoader(TensorDataset(torch.randn(10, 4), torch.arange(10)), batch_size=4)
)
print(len(feat_ds), feat_ds.tensors[0].shape, feat_ds.tensors[0].requires_grad, feat_ds[9])

# classification metrics by sorting scores (ROC / PR curves without sklearn)
torch.manual_seed(8)
scores = torch.rand(20)
truth = (scores + 0.3 * torch.randn(20) > 0.5).long()
order = scores.argsort(descending=True)
tps = truth[order].cumsum(0).float()
fps = (1 - truth[order]).cumsum(0).float()
tpr = tps / truth.sum()
fpr = fps / (1 - truth).sum()
precision = tps / torch.arange(1, 21)
print("tpr", tpr[:6], "fpr", fpr[:6])
print(
    "AUC trapezoid",
    torch.trapezoid(torch.cat([torch.zeros(1), tpr]), torch.cat([torch.zeros(1), fpr])),
    torch.trapz(tpr, fpr),
    torch.cumulative_trapezoid(tpr[:4], fpr[:4]),
)
print("precision", precision[:5], "best threshold", scores[order][(tpr - fpr).argmax()])
