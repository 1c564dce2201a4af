"""Stanford CS230 "PyTorch code examples" style: Params, RunningAverage, metrics dicts, checkpoints."""

import json
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class Params:
    """Loads hyperparameters from a dict (the course reads a json file)."""

    def __init__(self, d):
        self.__dict__.update(d)

    def update(self, d):
        self.__dict__.update(d)

    @property
    def dict(self):
        return self.__dict__


class RunningAverage:
    def __init__(self):
        self.steps = 0
        self.total = 0

    def update(self, val):
        self.total += val
        self.steps += 1

    def __call__(self):
        return self.total / float(self.steps)


def save_checkpoint(state, is_best, checkpoint):
    filepath = os.path.join(checkpoint, "last.pth.tar")
    if not os.path.exists(checkpoint):
        print("Checkpoint Directory does not exist! Making directory {}".format(checkpoint))
        os.mkdir(checkpoint)
    torch.save(state, filepath)
    if is_best:
        torch.save(state, os.path.join(checkpoint, "best.pth.tar"))


def load_checkpoint(checkpoint, model, optimizer=None):
    if not os.path.exists(checkpoint):
        raise FileNotFoundError("File doesn't exist {}".format(checkpoint))
    checkpoint = torch.load(checkpoint)
    model.load_state_dict(checkpoint["state_dict"])
    if optimizer:
        optimizer.load_state_dict(checkpoint["optim_dict"])
    return checkpoint


class Net(nn.Module):
    def __init__(self, params):
        super().__init__()
        self.fc1 = nn.Linear(params.in_dim, params.hidden)
        self.bn = nn.BatchNorm1d(params.hidden)
        self.fc2 = nn.Linear(params.hidden, params.num_classes)
        self.dropout_rate = params.dropout_rate

    def forward(self, s):
        s = F.relu(self.bn(self.fc1(s)))
        s = F.dropout(s, p=self.dropout_rate, training=self.training)
        return F.log_softmax(self.fc2(s), dim=1)


def loss_fn(outputs, labels):
    num_examples = outputs.size()[0]
    return -torch.sum(outputs[range(num_examples), labels]) / num_examples


def accuracy(outputs, labels):
    outputs = np.argmax(outputs, axis=1)
    return np.sum(outputs == labels) / float(labels.size)


metrics = {"accuracy": accuracy}


def train(model, optimizer, loss_fn, dataloader, metrics, params):
    model.train()
    summ = []
    loss_avg = RunningAverage()
    for i, (train_batch, labels_batch) in enumerate(dataloader):
        if params.cuda:
            train_batch, labels_batch = (
                train_batch.cuda(non_blocking=True),
                labels_batch.cuda(non_blocking=True),
            )
        train_batch, labels_batch = train_batch.to(device), labels_batch.to(device)
        output_batch = model(train_batch)
        loss = loss_fn(output_batch, labels_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % params.save_summary_steps == 0:
            output_np = output_batch.data.cpu().numpy()
            labels_np = labels_batch.data.cpu().numpy()
            summary_batch = {metric: metrics[metric](output_np, labels_np) for metric in metrics}
            summary_batch["loss"] = loss.item()
            summ.append(summary_batch)
        loss_avg.update(loss.item())
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Train metrics: " + metrics_string, "| running loss %.5f" % loss_avg())
    return metrics_mean


def evaluate(model, loss_fn, dataloader, metrics, params):
    model.eval()
    summ = []
    with torch.no_grad():
        for data_batch, labels_batch in dataloader:
            output_batch = model(data_batch)
            loss = loss_fn(output_batch, labels_batch)
            output_np = output_batch.numpy()
            labels_np = labels_batch.numpy()
            summary_batch = {metric: metrics[metric](output_np, labels_np) for metric in metrics}
            summary_batch["loss"] = loss.item()
            summ.append(summary_batch)
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Eval metrics : " + metrics_string)
    return metrics_mean


params = Params(
    {
        "learning_rate": 1e-2,
        "batch_size": 32,
        "num_epochs": 5,
        "dropout_rate": 0.3,
        "save_summary_steps": 2,
        "in_dim": 6,
        "hidden": 24,
        "num_classes": 3,
    }
)
print(json.dumps(params.dict, indent=2, sort_keys=True))
params.update({"num_epochs": 6})
params.cuda = torch.cuda.is_available()
device = torch.device("cuda" if params.cuda else "cpu")
print("cuda:", params.cuda, "device:", device)
print(params.num_epochs, params.dict["hidden"])

torch.manual_seed(230)
centers = torch.randn(3, 6) * 2
lab = torch.randint(0, 3, (300,))
feats = centers[lab] + torch.randn(300, 6)
train_dl = DataLoader(
    TensorDataset(feats[:240], lab[:240]), batch_size=params.batch_size, shuffle=True
)
val_dl = DataLoader(TensorDataset(feats[240:], lab[240:]), batch_size=params.batch_size)
print(len(train_dl.dataset), len(val_dl), train_dl.batch_size)

model = Net(params).to(device)
optimizer = optim.Adam(model.parameters(), lr=params.learning_rate)
scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
print(model)

best_val_acc = 0.0
os.makedirs("experiments", exist_ok=True)
for epoch in range(params.num_epochs):
    print("Epoch {}/{} lr {:.5f}".format(epoch + 1, params.num_epochs, scheduler.get_last_lr()[0]))
    train(model, optimizer, loss_fn, train_dl, metrics, params)
    val_metrics = evaluate(model, loss_fn, val_dl, metrics, params)
    scheduler.step()
    val_acc = val_metrics["accuracy"]
    is_best = val_acc >= best_val_acc
    save_checkpoint(
        {
            "epoch": epoch + 1,
            "state_dict": model.state_dict(),
            "optim_dict": optimizer.state_dict(),
        },
        is_best=is_best,
        checkpoint="experiments/base_model",
    )
    if is_best:
        print("- Found new best accuracy")
        best_val_acc = val_acc
        best_json = json.dumps({k: float(v) for k, v in val_metrics.items()}, indent=4)

print(best_json)
print(sorted(os.listdir("experiments/base_model")))

# restore and check
model2 = Net(params)
opt2 = optim.Adam(model2.parameters(), lr=params.learning_rate)
ck = load_checkpoint("experiments/base_model/best.pth.tar", model2, opt2)
print(ck["epoch"], list(ck.keys()), list(ck["optim_dict"].keys()))
print(ck["optim_dict"]["param_groups"][0]["lr"], ck["optim_dict"]["param_groups"][0]["betas"])
st = ck["optim_dict"]["state"][0]
print(sorted(st.keys()), st["step"], st["exp_avg"].shape)
print(opt2.state_dict()["state"][0]["step"])
model2.eval()
model.eval()
with torch.no_grad():
    a = model(feats[240:250])
    b = model2(feats[240:250])
print(torch.equal(a, b) or ck["epoch"] != params.num_epochs, a.exp()[:2])
try:
    load_checkpoint("experiments/nope.pth.tar", model2)
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
sd = model.state_dict()
sd.pop("fc2.bias")
try:
    model2.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
res = model2.load_state_dict(sd, strict=False)
print(res, res.missing_keys)
bad = dict(model.state_dict())
bad["fc1.weight"] = torch.zeros(3, 3)
try:
    model2.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
print(model2.bn.running_mean[:4], model2.bn.num_batches_tracked)


# learning-rate schedules the handout compares (no training, just the lr trace)
def lr_trace(make_sched, steps=8, metric=None):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    sch = make_sched(opt)
    out = []
    for s in range(steps):
        opt.step()
        if metric is not None:
            sch.step(metric[s])
        else:
            sch.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out, sch


print(lr_trace(lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.8))[0])
print(lr_trace(lambda o: optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01))[0])
print(lr_trace(lambda o: optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))[0])
print(lr_trace(lambda o: optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10))[0])
print(lr_trace(lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))[0])
print(
    lr_trace(lambda o: optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2))[0]
)
trace, plateau = lr_trace(
    lambda o: optim.lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1),
    metric=[1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7],
)
print(trace, plateau.num_bad_epochs, plateau.best)
trace, cos = lr_trace(lambda o: optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2))
print(trace, cos.T_cur, cos.T_i)
trace, seq = lr_trace(
    lambda o: optim.lr_scheduler.SequentialLR(
        o,
        [
            optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
            optim.lr_scheduler.ExponentialLR(o, 0.9),
        ],
        milestones=[3],
    )
)
print(trace)
_, st = lr_trace(lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
print(st.state_dict())
po = optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.1)
po.add_param_group({"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.01})
print(len(po.param_groups), [g["lr"] for g in po.param_groups], po.param_groups[1]["momentum"])
print(po)
try:
    po.add_param_group({"params": po.param_groups[0]["params"]})
except ValueError as e:
    print("ValueError:", e)
