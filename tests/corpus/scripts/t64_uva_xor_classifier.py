"""The UvA deep learning course's introduction: a noisy XOR dataset class, a simple
classifier module, training with BCEWithLogitsLoss over a DataLoader, evaluation, and
saving and loading the state_dict."""

import torch
import torch.nn as nn
import torch.utils.data as data


class XORDataset(data.Dataset):
    def __init__(self, size, std=0.1):
        super().__init__()
        self.size = size
        self.std = std
        self.generate_continuous_xor()

    def generate_continuous_xor(self):
        data = torch.randint(low=0, high=2, size=(self.size, 2), dtype=torch.float32)
        label = (data.sum(dim=1) == 1).to(torch.long)
        data += self.std * torch.randn(data.shape)
        self.data = data
        self.label = label

    def __len__(self):
        return self.size

    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


class SimpleClassifier(nn.Module):
    def __init__(self, num_inputs, num_hidden, num_outputs):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, num_hidden)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(num_hidden, num_outputs)

    def forward(self, x):
        x = self.linear1(x)
        x = self.act_fn(x)
        return self.linear2(x)


torch.manual_seed(42)
model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
print(model)
for name, param in model.named_parameters():
    print(f"Parameter {name}, shape {param.shape}")
dataset = XORDataset(size=200)
print("Size of dataset:", len(dataset))
print("Data point 0:", dataset[0])
data_loader = data.DataLoader(dataset, batch_size=8, shuffle=True)
data_inputs, data_labels = next(iter(data_loader))
print("Data inputs", data_inputs.shape, "\n", data_inputs[:2])
print("Data labels", data_labels.shape, "\n", data_labels)
loss_module = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = data.DataLoader(dataset, batch_size=32, shuffle=True)
model.train()
for epoch in range(20):
    for data_inputs, data_labels in train_loader:
        preds = model(data_inputs).squeeze(dim=1)
        loss = loss_module(preds, data_labels.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}")
state_dict = model.state_dict()
print(state_dict)
torch.save(state_dict, "our_model.tar")
new_model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
new_model.load_state_dict(torch.load("our_model.tar"))
print("Original model\n", model.state_dict()["linear1.weight"])
print("\nLoaded model\n", new_model.state_dict()["linear1.weight"])
test_dataset = XORDataset(size=100)
test_loader = data.DataLoader(test_dataset, batch_size=32, shuffle=False, drop_last=False)
model.eval()
true_preds, num_preds = 0.0, 0.0
with torch.no_grad():
    for data_inputs, data_labels in test_loader:
        preds = torch.sigmoid(model(data_inputs).squeeze(dim=1))
        pred_labels = (preds >= 0.5).long()
        true_preds += (pred_labels == data_labels).sum()
        num_preds += data_labels.shape[0]
print(f"Accuracy of the model: {100.0 * true_preds / num_preds:4.2f}%")
