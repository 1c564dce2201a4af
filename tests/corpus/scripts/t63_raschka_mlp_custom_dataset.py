"""Raschka-style multilayer perceptron: a custom Dataset class, a seeded DataLoader, an
MLP written as a Sequential inside a Module, softmax cross-entropy training, and
evaluation with a confusion count."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ToyDataset(Dataset):
    def __init__(self, X, y):
        self.features = X
        self.labels = y

    def __getitem__(self, index):
        return self.features[index], self.labels[index]

    def __len__(self):
        return self.labels.shape[0]


class NeuralNetwork(torch.nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(num_inputs, 30),
            torch.nn.ReLU(),
            torch.nn.Linear(30, 20),
            torch.nn.ReLU(),
            torch.nn.Linear(20, num_outputs),
        )

    def forward(self, x):
        return self.layers(x)


torch.manual_seed(123)
X_train = torch.tensor(
    [
        [-1.2, 3.1],
        [-0.9, 2.9],
        [-0.5, 2.6],
        [2.3, -1.1],
        [2.7, -1.5],
        [0.4, 0.1],
        [0.2, 0.3],
        [-1.1, 2.8],
        [2.5, -1.3],
        [0.3, 0.0],
    ]
)
y_train = torch.tensor([0, 0, 0, 1, 1, 2, 2, 0, 1, 2])
train_ds = ToyDataset(X_train, y_train)
print(len(train_ds), train_ds[3])
train_loader = DataLoader(
    dataset=train_ds, batch_size=4, shuffle=True, num_workers=0, drop_last=True
)
model = NeuralNetwork(num_inputs=2, num_outputs=3)
num_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("Total number of trainable model parameters:", num_params)
print(model.layers[0].weight.shape, model.layers[0].bias[:3])
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(4):
    model.train()
    for batch_idx, (features, labels) in enumerate(train_loader):
        logits = model(features)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(
            f"Epoch: {epoch + 1:03d}/004 | Batch {batch_idx:03d}/{len(train_loader):03d}"
            f" | Train Loss: {loss:.2f}"
        )
model.eval()
with torch.no_grad():
    outputs = model(X_train)
torch.set_printoptions(sci_mode=False)
probas = torch.softmax(outputs, dim=1)
print(probas[:3])
predictions = torch.argmax(probas, dim=1)
print(predictions, predictions == y_train, torch.sum(predictions == y_train))
confusion = torch.zeros(3, 3, dtype=torch.long)
for t, p in zip(y_train, predictions):
    confusion[t, p] += 1
print(confusion)
torch.save(model.state_dict(), "model.pth")
model2 = NeuralNetwork(2, 3)
print(model2.load_state_dict(torch.load("model.pth")))
print(torch.equal(model2(X_train), outputs))
