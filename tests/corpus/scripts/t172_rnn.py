# RNN / LSTM / GRU chapter: shapes, hidden state, tiny sequence regression
import torch
from torch import nn

torch.manual_seed(7)

batch, seq_len, n_in, n_hid = 3, 5, 4, 6
x = torch.randn(batch, seq_len, n_in)

rnn = nn.RNN(n_in, n_hid, batch_first=True)
out, h = rnn(x)
print("RNN out", out.shape, "h", h.shape)
print("last step equals h:", torch.allclose(out[:, -1], h[0]))

lstm = nn.LSTM(n_in, n_hid, num_layers=2, batch_first=True)
out, (h, c) = lstm(x)
print("LSTM out", out.shape, "h", h.shape, "c", c.shape)
for name, p in lstm.named_parameters():
    print(f"  {name:14s} {tuple(p.shape)}")

gru = nn.GRU(n_in, n_hid)  # seq-first layout
out, h = gru(x.transpose(0, 1))
print("GRU out", out.shape, "h", h.shape)

# manual RNN cell matches nn.RNNCell
cell = nn.RNNCell(n_in, n_hid)
hx = torch.zeros(batch, n_hid)
manual = torch.tanh(
    x[:, 0] @ cell.weight_ih.T + cell.bias_ih + hx @ cell.weight_hh.T + cell.bias_hh
)
print("RNNCell matches manual:", torch.allclose(cell(x[:, 0], hx), manual, atol=1e-6))

lcell = nn.LSTMCell(n_in, n_hid)
hx, cx = torch.zeros(batch, n_hid), torch.zeros(batch, n_hid)
for t in range(seq_len):
    hx, cx = lcell(x[:, t], (hx, cx))
print("LSTMCell final h[0]:", hx[0])


class SeqSum(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 16, batch_first=True)
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        o, _ = self.lstm(x)
        return self.head(o[:, -1])


model = SeqSum()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
data = torch.rand(32, 6, 1)
target = data.sum(dim=1)
for epoch in range(40):
    pred = model(data)
    loss = nn.functional.mse_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    if epoch % 10 == 0 or epoch == 39:
        print(f"epoch {epoch:2d} mse {loss.item():.5f}")
test = torch.tensor([[[0.1], [0.2], [0.3], [0.4], [0.5], [0.6]]])
print("pred sum of 0.1..0.6:", model(test).item())
emb = nn.Embedding(10, 3)
print("embedding:", emb(torch.tensor([[1, 2], [3, 4]])).shape)
