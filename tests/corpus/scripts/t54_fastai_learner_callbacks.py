"""fast.ai's minimal training framework built from scratch: a Dataset, a DataLoader, an
optimizer by hand, and a Learner whose callbacks fire before and after each step."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class ArrayDataset(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Optimizer:
    def __init__(self, params, lr=0.5):
        self.params, self.lr = list(params), lr

    def step(self):
        with torch.no_grad():
            for p in self.params:
                p -= p.grad * self.lr

    def zero_grad(self):
        for p in self.params:
            p.grad.data.zero_()


class Callback:
    order = 0


class MetricsCB(Callback):
    def __init__(self):
        self.losses, self.correct, self.count = [], 0, 0

    def before_epoch(self, learn):
        self.losses, self.correct, self.count = [], 0, 0

    def after_batch(self, learn):
        self.losses.append(learn.loss.item() * len(learn.yb))
        self.correct += (learn.preds.argmax(dim=1) == learn.yb).sum().item()
        self.count += len(learn.yb)

    def after_epoch(self, learn):
        mode = "train" if learn.model.training else "eval"
        print(
            f"{learn.epoch} {mode} loss {sum(self.losses) / self.count:.4f} "
            f"acc {self.correct / self.count:.3f}"
        )


class Learner:
    def __init__(self, model, train_dl, valid_dl, loss_func, lr, cbs):
        self.model, self.train_dl, self.valid_dl = model, train_dl, valid_dl
        self.loss_func, self.lr, self.cbs = loss_func, lr, sorted(cbs, key=lambda c: c.order)

    def callback(self, name):
        for cb in self.cbs:
            method = getattr(cb, name, None)
            if method is not None:
                method(self)

    def one_batch(self):
        self.preds = self.model(self.xb)
        self.loss = self.loss_func(self.preds, self.yb)
        if self.model.training:
            self.loss.backward()
            self.opt.step()
            self.opt.zero_grad()
        self.callback("after_batch")

    def one_epoch(self, train):
        self.model.train(train)
        self.callback("before_epoch")
        dl = self.train_dl if train else self.valid_dl
        for self.xb, self.yb in dl:
            self.one_batch()
        self.callback("after_epoch")

    def fit(self, n_epochs):
        self.opt = Optimizer(self.model.parameters(), self.lr)
        for self.epoch in range(n_epochs):
            self.one_epoch(True)
            with torch.no_grad():
                self.one_epoch(False)


torch.manual_seed(16)
x = torch.randn(60, 4)
y = (x[:, 0] + 2 * x[:, 1] > 0).long() + (x[:, 2] > 1).long()
train_ds, valid_ds = ArrayDataset(x[:48], y[:48]), ArrayDataset(x[48:], y[48:])
print(len(train_ds), train_ds[0])
train_dl = DataLoader(train_ds, batch_size=16, shuffle=True)
valid_dl = DataLoader(valid_ds, batch_size=24)
xb, yb = next(iter(valid_dl))
print(xb.shape, yb.shape, yb[:6])
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
learn = Learner(model, train_dl, valid_dl, F.cross_entropy, lr=0.2, cbs=[MetricsCB()])
learn.fit(3)
print(model[0].weight.grad.abs().sum().item() == 0.0)
