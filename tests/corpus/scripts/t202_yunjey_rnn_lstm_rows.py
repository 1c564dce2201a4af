"""pytorch-tutorial recurrent neural network style: an LSTM reads an image row by row."""

import torch
import torch.nn as nn

sequence_length = 8
input_size = 8
hidden_size = 16
num_layers = 2
num_classes = 3
batch_size = 12
num_epochs = 3
learning_rate = 0.01

torch.manual_seed(0)
labels_all = torch.randint(0, num_classes, (144,))
images_all = 0.3 * torch.randn(144, 1, 8, 8)
for k in range(num_classes):
    images_all[labels_all == k, 0, :, k * 2 : k * 2 + 3] += 1.0
train_ds = torch.utils.data.TensorDataset(images_all[:96], labels_all[:96])
test_ds = torch.utils.data.TensorDataset(images_all[96:], labels_all[96:])
train_loader = torch.utils.data.DataLoader(train_ds, batch_size=batch_size, shuffle=True)
test_loader = torch.utils.data.DataLoader(test_ds, batch_size=batch_size, shuffle=False)


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(x.device)
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(x.device)
        out, _ = self.lstm(x, (h0, c0))
        out = self.fc(out[:, -1, :])
        return out


model = RNN(input_size, hidden_size, num_layers, num_classes)
print(model)
for name, p in model.lstm.named_parameters():
    print(name, tuple(p.shape))
print(model.lstm.weight_ih_l0[:2, :3], model.lstm.bias_hh_l1[:4])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, sequence_length, input_size)
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 4 == 0:
            print(
                "Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}".format(
                    epoch + 1, num_epochs, i + 1, total_step, loss.item()
                )
            )

model.eval()
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, sequence_length, input_size)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    print("Test Accuracy of the model on the test images: {} %".format(100 * correct / total))

# shapes of everything an LSTM returns
torch.manual_seed(1)
lstm = nn.LSTM(input_size=4, hidden_size=3, num_layers=1)
x = torch.randn(5, 2, 4)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.allclose(out[-1], h[0]), out.grad_fn.__class__.__name__ != "", h)
out2, (h2, c2) = lstm(x[:3])
out3, (h3, c3) = lstm(x[3:], (h2, c2))
print(torch.allclose(h3, h, atol=1e-6), torch.allclose(torch.cat([out2, out3]), out, atol=1e-6))
cell = nn.LSTMCell(4, 3)
hx, cx = torch.zeros(2, 3), torch.zeros(2, 3)
outs = []
for t in range(x.size(0)):
    hx, cx = cell(x[t], (hx, cx))
    outs.append(hx)
print(torch.stack(outs).shape, hx)
rnn = nn.RNN(4, 3, nonlinearity="relu", bias=False)
print(rnn, [n for n, _ in rnn.named_parameters()])
o, hn = rnn(x)
print(o.shape, hn.shape, (o >= 0).all())
gru = nn.GRU(4, 3, num_layers=2, dropout=0.0)
o, hn = gru(x)
print(gru, o.shape, hn.shape)
print(o[0])
gcell = nn.GRUCell(4, 3)
print(gcell(x[0]).shape, nn.RNNCell(4, 3)(x[0], torch.zeros(2, 3)).shape)
try:
    lstm(torch.randn(5, 2, 7))
except RuntimeError as e:
    print("RuntimeError:", e)
unbatched, (hu, cu) = lstm(torch.randn(5, 4))
print(unbatched.shape, hu.shape)
projected = nn.LSTM(4, 6, proj_size=2, batch_first=True)
po, (ph, pc) = projected(torch.randn(2, 5, 4))
print(po.shape, ph.shape, pc.shape, [n for n, _ in projected.named_parameters()])
print(lstm.state_dict().keys())
loss = out.pow(2).mean()
loss.backward()
print(lstm.weight_hh_l0.grad.norm(), lstm.bias_ih_l0.grad)
