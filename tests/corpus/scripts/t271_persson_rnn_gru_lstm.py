"""Persson-style RNN / GRU / LSTM / bidirectional LSTM classifiers on a toy sequence task."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)

input_size = 5
hidden_size = 16
num_layers = 2
num_classes = 3
sequence_length = 7
batch_size = 8

# task: class = which of the first 3 features has the largest sum over time
X = torch.randn(64, sequence_length, input_size)
y = X[:, :, :3].sum(dim=1).argmax(dim=1)
print("X:", X.shape, "y counts:", torch.bincount(y))


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes, cell="rnn"):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.cell = cell
        kind = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[cell]
        self.rnn = kind(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size * sequence_length, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)
        if self.cell == "lstm":
            c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)
            out, _ = self.rnn(x, (h0, c0))
        else:
            out, _ = self.rnn(x, h0)
        out = out.reshape(out.shape[0], -1)
        return self.fc(out)


class BRNN(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(BRNN, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(
            input_size, hidden_size, num_layers, batch_first=True, bidirectional=True
        )
        self.fc = nn.Linear(hidden_size * 2, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size)
        c0 = torch.zeros(self.num_layers * 2, x.size(0), self.hidden_size)
        out, (hn, cn) = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])


def train(model, epochs=4, lr=0.005):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for i in range(0, len(X), batch_size):
            scores = model(X[i : i + batch_size])
            loss = F.cross_entropy(scores, y[i : i + batch_size])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            acc = (model(X).argmax(1) == y).float().mean().item()
        print(f"   epoch {epoch} loss {loss.item():.5f} acc {acc:.4f}")


for cell in ["rnn", "gru", "lstm"]:
    torch.manual_seed(10)
    m = RNN(input_size, hidden_size, num_layers, num_classes, cell)
    print(cell, "->", m.rnn)
    print("   params:", [(n, tuple(p.shape)) for n, p in m.rnn.named_parameters()][:4])
    train(m)

torch.manual_seed(10)
b = BRNN(input_size, hidden_size, num_layers, num_classes)
print(b)
print(
    "bidirectional params:",
    len(list(b.lstm.parameters())),
    [n for n, _ in b.lstm.named_parameters()][4:8],
)
train(b)

# shapes of every output
rnn = nn.LSTM(4, 6, num_layers=2, bidirectional=True)  # seq-first
inp = torch.randn(5, 3, 4)
out, (h, c) = rnn(inp)
print("seq-first out:", out.shape, "h:", h.shape, "c:", c.shape)
print("last fwd step == h[-2]:", torch.allclose(out[-1, :, :6], h[-2]))
print("first bwd step == h[-1]:", torch.allclose(out[0, :, 6:], h[-1]))
gru = nn.GRU(4, 6)
o, hn = gru(inp)
print("GRU out/hn:", o.shape, hn.shape, torch.equal(o[-1], hn[0]))
print("GRU hn:", hn)
o2, _ = gru(inp[:, 0])  # unbatched input
print("unbatched:", o2.shape)

# cells, stepping by hand
cell = nn.LSTMCell(4, 3)
hx, cx = torch.zeros(2, 3), torch.zeros(2, 3)
for t in range(3):
    hx, cx = cell(torch.ones(2, 4) * t, (hx, cx))
print("LSTMCell hx:", hx)
rc = nn.RNNCell(4, 3, nonlinearity="relu")
print("RNNCell:", rc(torch.ones(1, 4)))
gc = nn.GRUCell(4, 3)
print("GRUCell:", gc(torch.ones(1, 4), torch.ones(1, 3)))

# dropout between layers, proj_size
lp = nn.LSTM(4, 8, num_layers=2, proj_size=3, batch_first=True)
o, (h, c) = lp(torch.randn(2, 5, 4))
print("proj_size:", o.shape, h.shape, c.shape, lp.weight_hr_l0.shape)

try:
    nn.LSTM(4, 6, batch_first=True)(torch.randn(2, 5, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.GRU(4, 6)(torch.randn(5, 3, 4), torch.zeros(2, 3, 6))
except RuntimeError as e:
    print("RuntimeError:", e)
