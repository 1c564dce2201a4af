"""02 classification style: circles data built by hand, BCEWithLogitsLoss, non-linearity, multiclass blobs."""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(42)
n_samples = 400


def make_circles(n, noise=0.03, factor=0.8):
    n_out = n // 2
    n_in = n - n_out
    lin_out = torch.linspace(0, 2 * math.pi, n_out + 1)[:-1]
    lin_in = torch.linspace(0, 2 * math.pi, n_in + 1)[:-1]
    outer = torch.stack([torch.cos(lin_out), torch.sin(lin_out)], dim=1)
    inner = torch.stack([torch.cos(lin_in), torch.sin(lin_in)], dim=1) * factor
    X = torch.cat([outer, inner])
    y = torch.cat([torch.zeros(n_out), torch.ones(n_in)])
    X = X + noise * torch.randn_like(X)
    perm = torch.randperm(n)
    return X[perm], y[perm]


X, y = make_circles(n_samples)
print(f"First 5 X features:\n{X[:5]}")
print(f"\nFirst 5 y labels:\n{y[:5]}")
print(X.shape, y.shape, X.dtype, y.dtype, y.unique(return_counts=True))
X_sample, y_sample = X[0], y[0]
print(f"Values for one sample of X: {X_sample} and the same for y: {y_sample}")


def train_test_split(X, y, test_size=0.2, seed=42):
    g = torch.Generator().manual_seed(seed)
    idx = torch.randperm(len(X), generator=g)
    n_test = int(len(X) * test_size)
    return X[idx[n_test:]], X[idx[:n_test]], y[idx[n_test:]], y[idx[:n_test]]


X_train, X_test, y_train, y_test = train_test_split(X, y)
print(len(X_train), len(X_test), len(y_train), len(y_test))

device = "cpu"


class CircleModelV0(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(in_features=2, out_features=5)
        self.layer_2 = nn.Linear(in_features=5, out_features=1)

    def forward(self, x):
        return self.layer_2(self.layer_1(x))


torch.manual_seed(42)
model_0 = CircleModelV0().to(device)
print(model_0)
model_seq = nn.Sequential(nn.Linear(2, 5), nn.Linear(5, 1)).to(device)
print(model_seq, model_seq.state_dict().keys())

with torch.inference_mode():
    untrained_preds = model_0(X_test.to(device))
print(f"Length of predictions: {len(untrained_preds)}, Shape: {untrained_preds.shape}")
print(f"First 10 predictions:\n{untrained_preds[:10]}")

loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.1)


def accuracy_fn(y_true, y_pred):
    correct = torch.eq(y_true, y_pred).sum().item()
    acc = (correct / len(y_pred)) * 100
    return acc


y_logits = model_0(X_test.to(device))[:5]
print(y_logits)
y_pred_probs = torch.sigmoid(y_logits)
print(y_pred_probs, torch.round(y_pred_probs))
y_pred_labels = torch.round(torch.sigmoid(model_0(X_test.to(device))[:5]))
print(torch.eq(y_preds := torch.round(y_pred_probs), y_pred_labels.detach()).squeeze())
print(y_preds.squeeze())

torch.manual_seed(42)
epochs = 100
for epoch in range(epochs):
    model_0.train()
    y_logits = model_0(X_train).squeeze()
    y_pred = torch.round(torch.sigmoid(y_logits))
    loss = loss_fn(y_logits, y_train)
    acc = accuracy_fn(y_true=y_train, y_pred=y_pred)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_0.eval()
    with torch.inference_mode():
        test_logits = model_0(X_test).squeeze()
        test_pred = torch.round(torch.sigmoid(test_logits))
        test_loss = loss_fn(test_logits, y_test)
        test_acc = accuracy_fn(y_true=y_test, y_pred=test_pred)
    if epoch % 20 == 0:
        print(
            f"Epoch: {epoch} | Loss: {loss:.5f}, Accuracy: {acc:.2f}% | Test loss: {test_loss:.5f}, Test acc: {test_acc:.2f}%"
        )


class CircleModelV2(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(in_features=2, out_features=10)
        self.layer_2 = nn.Linear(in_features=10, out_features=10)
        self.layer_3 = nn.Linear(in_features=10, out_features=1)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))


torch.manual_seed(42)
model_3 = CircleModelV2().to(device)
print(model_3)
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model_3.parameters(), lr=0.1)
epochs = 1000
for epoch in range(epochs):
    y_logits = model_3(X_train).squeeze()
    y_pred = torch.round(torch.sigmoid(y_logits))
    loss = loss_fn(y_logits, y_train)
    acc = accuracy_fn(y_true=y_train, y_pred=y_pred)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_3.eval()
    with torch.inference_mode():
        test_logits = model_3(X_test).squeeze()
        test_pred = torch.round(torch.sigmoid(test_logits))
        test_loss = loss_fn(test_logits, y_test)
        test_acc = accuracy_fn(y_true=y_test, y_pred=test_pred)
    model_3.train()
    if epoch % 200 == 0:
        print(
            f"Epoch: {epoch} | Loss: {loss:.5f}, Accuracy: {acc:.2f}% | Test Loss: {test_loss:.5f}, Test Accuracy: {test_acc:.2f}%"
        )

# Replicating non-linear activation functions
A = torch.arange(-10, 10, 1, dtype=torch.float32)
print(A, torch.relu(A))


def relu(x):
    return torch.maximum(torch.tensor(0), x)


def sigmoid(x):
    return 1 / (1 + torch.exp(-x))


print(relu(A), torch.allclose(sigmoid(A), torch.sigmoid(A)), F.relu(A).equal(relu(A)))
print(
    torch.tanh(A)[:4], F.leaky_relu(A, 0.1)[:4], F.softplus(A)[:3], F.gelu(A)[8:12], F.silu(A)[8:12]
)

# Multiclass: blobs
NUM_CLASSES = 4
NUM_FEATURES = 2
RANDOM_SEED = 42
torch.manual_seed(RANDOM_SEED)
centers = torch.tensor([[-5.0, 5.0], [5.0, 5.0], [-5.0, -5.0], [5.0, -5.0]])
y_blob = torch.randint(0, NUM_CLASSES, (300,))
X_blob = centers[y_blob] + 1.5 * torch.randn(300, NUM_FEATURES)
print(X_blob[:5], y_blob[:5], torch.bincount(y_blob))
X_blob_train, X_blob_test, y_blob_train, y_blob_test = train_test_split(
    X_blob, y_blob, test_size=0.2, seed=RANDOM_SEED
)


class BlobModel(nn.Module):
    def __init__(self, input_features, output_features, hidden_units=8):
        super().__init__()
        self.linear_layer_stack = nn.Sequential(
            nn.Linear(in_features=input_features, out_features=hidden_units),
            nn.Linear(in_features=hidden_units, out_features=hidden_units),
            nn.Linear(in_features=hidden_units, out_features=output_features),
        )

    def forward(self, x):
        return self.linear_layer_stack(x)


model_4 = BlobModel(input_features=NUM_FEATURES, output_features=NUM_CLASSES, hidden_units=8).to(
    device
)
print(model_4)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model_4.parameters(), lr=0.1)
print(model_4(X_blob_train.to(device))[:5])
print(model_4(X_blob_train.to(device))[0].shape, NUM_CLASSES)
y_logits = model_4(X_blob_test.to(device))
y_pred_probs = torch.softmax(y_logits, dim=1)
print(y_logits[:5])
print(y_pred_probs[:5], torch.sum(y_pred_probs[0]), torch.argmax(y_pred_probs[0]))

torch.manual_seed(42)
epochs = 100
for epoch in range(epochs):
    model_4.train()
    y_logits = model_4(X_blob_train)
    y_pred = torch.softmax(y_logits, dim=1).argmax(dim=1)
    loss = loss_fn(y_logits, y_blob_train)
    acc = accuracy_fn(y_true=y_blob_train, y_pred=y_pred)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_4.eval()
    with torch.inference_mode():
        test_logits = model_4(X_blob_test)
        test_pred = torch.softmax(test_logits, dim=1).argmax(dim=1)
        test_loss = loss_fn(test_logits, y_blob_test)
        test_acc = accuracy_fn(y_true=y_blob_test, y_pred=test_pred)
    if epoch % 10 == 0:
        print(
            f"Epoch: {epoch} | Loss: {loss:.5f}, Acc: {acc:.2f}% | Test Loss: {test_loss:.5f}, Test Acc: {test_acc:.2f}%"
        )

model_4.eval()
with torch.inference_mode():
    y_logits = model_4(X_blob_test)
y_preds = y_logits.argmax(dim=1)
print(f"Predictions: {y_preds[:10]}\nLabels: {y_blob_test[:10]}")
print(f"Test accuracy: {accuracy_fn(y_true=y_blob_test, y_pred=y_preds)}%")
conf = torch.zeros(NUM_CLASSES, NUM_CLASSES, dtype=torch.int64)
for t, p in zip(y_blob_test, y_preds):
    conf[t, p] += 1
print(conf)
conf2 = torch.bincount(y_blob_test * NUM_CLASSES + y_preds, minlength=NUM_CLASSES**2).reshape(
    NUM_CLASSES, NUM_CLASSES
)
print(torch.equal(conf, conf2), conf.diag().sum() / conf.sum(), conf.diag() / conf.sum(1))
print(F.one_hot(y_preds[:5], num_classes=NUM_CLASSES))
logits_for_plot = model_4(X_blob_test[:3])
print(logits_for_plot.requires_grad)
print(logits_for_plot.numpy(force=True).round(3))
