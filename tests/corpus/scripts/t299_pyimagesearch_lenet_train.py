"""PyImageSearch style: "Training your first CNN with PyTorch" -- LeNet on synthetic 'digits'"""

import os
import tempfile
import time

import torch
from torch import flatten, nn
from torch.nn import Conv2d, Linear, LogSoftmax, MaxPool2d, Module, ReLU
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset, random_split

CONFIG = {
    "INIT_LR": 5e-3,
    "BATCH_SIZE": 16,
    "EPOCHS": 6,
    "TRAIN_SPLIT": 0.75,
    "VAL_SPLIT": 0.25,
    "NUM_CLASSES": 3,
    "IMG_SIZE": 16,
    "SEED": 42,
}
print("[INFO] config:", CONFIG)
torch.manual_seed(CONFIG["SEED"])
device = torch.device("cpu")
print("[INFO] device:", device)


# synthetic dataset: class 0 = horizontal bar, 1 = vertical bar, 2 = diagonal
def make_images(n):
    S = CONFIG["IMG_SIZE"]
    imgs = torch.rand(n, 1, S, S) * 0.3
    labels = torch.randint(0, CONFIG["NUM_CLASSES"], (n,))
    for i in range(n):
        pos = int(torch.randint(3, S - 3, (1,)))
        if labels[i] == 0:
            imgs[i, 0, pos - 1 : pos + 1, :] += 0.7
        elif labels[i] == 1:
            imgs[i, 0, :, pos - 1 : pos + 1] += 0.7
        else:
            idx = torch.arange(S)
            imgs[i, 0, idx, idx] += 0.7
    return imgs.clamp(0, 1), labels


X, Y = make_images(160)
print("[INFO] data:", X.shape, X.dtype, Y.shape, Y.dtype)
print("[INFO] class counts:", torch.bincount(Y, minlength=3))
print("[INFO] pixel stats: min=%.4f max=%.4f mean=%.4f" % (X.min(), X.max(), X.mean()))

full = TensorDataset(X, Y)
n_train = int(len(full) * CONFIG["TRAIN_SPLIT"])
n_val = len(full) - n_train
train_ds, val_ds = random_split(full, [n_train, n_val], generator=torch.Generator().manual_seed(42))
print("[INFO] train/val sizes:", len(train_ds), len(val_ds))
print("[INFO] first train indices:", train_ds.indices[:8])

train_loader = DataLoader(train_ds, batch_size=CONFIG["BATCH_SIZE"], shuffle=True)
val_loader = DataLoader(val_ds, batch_size=CONFIG["BATCH_SIZE"])
train_steps = len(train_loader.dataset) // CONFIG["BATCH_SIZE"]
val_steps = len(val_loader.dataset) // CONFIG["BATCH_SIZE"]
print("[INFO] steps:", train_steps, val_steps, "num batches:", len(train_loader), len(val_loader))


class LeNet(Module):
    def __init__(self, numChannels, classes):
        super(LeNet, self).__init__()
        self.conv1 = Conv2d(in_channels=numChannels, out_channels=6, kernel_size=(5, 5), padding=2)
        self.relu1 = ReLU()
        self.maxpool1 = MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
        self.conv2 = Conv2d(in_channels=6, out_channels=12, kernel_size=(3, 3))
        self.relu2 = ReLU()
        self.maxpool2 = MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
        self.fc1 = Linear(in_features=12 * 3 * 3, out_features=32)
        self.relu3 = ReLU()
        self.fc2 = Linear(in_features=32, out_features=classes)
        self.logSoftmax = LogSoftmax(dim=1)

    def forward(self, x):
        x = self.maxpool1(self.relu1(self.conv1(x)))
        x = self.maxpool2(self.relu2(self.conv2(x)))
        x = flatten(x, 1)
        x = self.relu3(self.fc1(x))
        x = self.fc2(x)
        return self.logSoftmax(x)


model = LeNet(numChannels=1, classes=CONFIG["NUM_CLASSES"]).to(device)
print(model)
print("[INFO] total params:", sum(p.numel() for p in model.parameters()))
# shape walk
with torch.no_grad():
    t = X[:2]
    for name in ["conv1", "relu1", "maxpool1", "conv2", "relu2", "maxpool2"]:
        t = getattr(model, name)(t)
        print(f"   after {name:9s}: {tuple(t.shape)}")

opt = Adam(model.parameters(), lr=CONFIG["INIT_LR"])
lossFn = nn.NLLLoss()
H = {"train_loss": [], "train_acc": [], "val_loss": [], "val_acc": []}

print("[INFO] training the network...")
startTime = time.time()
for e in range(CONFIG["EPOCHS"]):
    model.train()
    totalTrainLoss = 0
    totalValLoss = 0
    trainCorrect = 0
    valCorrect = 0
    for x, y in train_loader:
        (x, y) = (x.to(device), y.to(device))
        pred = model(x)
        loss = lossFn(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        totalTrainLoss += loss
        trainCorrect += (pred.argmax(1) == y).type(torch.float).sum().item()
    with torch.no_grad():
        model.eval()
        for x, y in val_loader:
            pred = model(x)
            totalValLoss += lossFn(pred, y)
            valCorrect += (pred.argmax(1) == y).type(torch.float).sum().item()
    avgTrainLoss = totalTrainLoss / train_steps
    avgValLoss = totalValLoss / val_steps
    trainCorrect = trainCorrect / len(train_loader.dataset)
    valCorrect = valCorrect / len(val_loader.dataset)
    H["train_loss"].append(avgTrainLoss.cpu().detach().numpy())
    H["train_acc"].append(trainCorrect)
    H["val_loss"].append(avgValLoss.cpu().detach().numpy())
    H["val_acc"].append(valCorrect)
    print("[INFO] EPOCH: {}/{}".format(e + 1, CONFIG["EPOCHS"]))
    print("Train loss: {:.6f}, Train accuracy: {:.4f}".format(avgTrainLoss, trainCorrect))
    print("Val loss: {:.6f}, Val accuracy: {:.4f}\n".format(avgValLoss, valCorrect))
elapsed = time.time() - startTime
print("[INFO] training finished:", elapsed < 60)
print(
    "[INFO] history types:",
    type(H["train_loss"][0]).__name__,
    H["train_loss"][0].dtype,
    H["train_loss"][0].shape,
)

# evaluation: confusion matrix + per-class precision/recall like classification_report
with torch.no_grad():
    model.eval()
    preds = []
    gts = []
    for x, y in val_loader:
        preds.extend(model(x).argmax(axis=1).cpu().numpy())
        gts.append(y)
    preds = torch.tensor(preds)
    gts = torch.cat(gts)
conf = torch.zeros(3, 3, dtype=torch.int64)
for t_, p_ in zip(gts, preds):
    conf[t_, p_] += 1
print("confusion matrix:\n", conf)
tp = conf.diag().float()
precision = tp / conf.sum(0).clamp(min=1)
recall = tp / conf.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-8)
print("              precision    recall  f1-score   support")
for c, name in enumerate(["horizontal", "vertical", "diagonal"]):
    print(
        f"{name:>12s}      {precision[c]:.2f}      {recall[c]:.2f}      {f1[c]:.2f}        {int(conf[c].sum())}"
    )
print("accuracy:", (tp.sum() / conf.sum()).item())

# serialize the model (PyImageSearch saves the whole model; we save state_dict)
path = os.path.join(tempfile.gettempdir(), "lenet_l05.pth")
torch.save(model.state_dict(), path)
model2 = LeNet(1, 3)
print(model2.load_state_dict(torch.load(path)))
model2.eval()
with torch.no_grad():
    same = torch.allclose(model2(X[:4]), model(X[:4]))
    print("reloaded predictions equal:", same)
    probs = model2(X[:4]).exp()
    print("probs:", probs)
    print("probs sum:", probs.sum(1))
os.remove(path)
