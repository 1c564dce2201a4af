"""11-785 recitation style: RNN, GRU and LSTM cells written by hand, weights copied from nn, outputs and gradients compared."""

import torch
import torch.nn as nn

torch.manual_seed(0)
input_size, hidden_size, batch, T = 3, 4, 2, 5


class RNNCellScratch(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.W_ih = nn.Parameter(torch.randn(hidden_size, input_size) * 0.1)
        self.W_hh = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.b_ih = nn.Parameter(torch.zeros(hidden_size))
        self.b_hh = nn.Parameter(torch.zeros(hidden_size))

    def forward(self, x, h):
        return torch.tanh(x @ self.W_ih.T + self.b_ih + h @ self.W_hh.T + self.b_hh)


ref_cell = nn.RNNCell(input_size, hidden_size)
mine = RNNCellScratch(input_size, hidden_size)
print(ref_cell)
for name, p in ref_cell.named_parameters():
    print(name, tuple(p.shape))
with torch.no_grad():
    mine.W_ih.copy_(ref_cell.weight_ih)
    mine.W_hh.copy_(ref_cell.weight_hh)
    mine.b_ih.copy_(ref_cell.bias_ih)
    mine.b_hh.copy_(ref_cell.bias_hh)
x = torch.randn(T, batch, input_size)
h_ref = torch.zeros(batch, hidden_size)
h_mine = torch.zeros(batch, hidden_size)
for t in range(T):
    h_ref = ref_cell(x[t], h_ref)
    h_mine = mine(x[t], h_mine)
print("RNN cell match:", torch.allclose(h_ref, h_mine, atol=1e-6))
h_ref.sum().backward()
h_mine.sum().backward()
print("W_hh grad match:", torch.allclose(ref_cell.weight_hh.grad, mine.W_hh.grad, atol=1e-6))
print(mine.W_hh.grad)

# full nn.RNN unrolled by hand
rnn = nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity="tanh")
out, h_n = rnn(x)
h = torch.zeros(batch, hidden_size)
outs = []
for t in range(T):
    h = torch.tanh(
        x[t] @ rnn.weight_ih_l0.T + rnn.bias_ih_l0 + h @ rnn.weight_hh_l0.T + rnn.bias_hh_l0
    )
    outs.append(h)
outs = torch.stack(outs)
print(out.shape, h_n.shape, torch.allclose(out, outs, atol=1e-6), torch.equal(out[-1], h_n[0]))
relu_rnn = nn.RNN(input_size, hidden_size, nonlinearity="relu", bias=False)
print(relu_rnn, relu_rnn.all_weights.__len__())


def gru_step(x, h, cell):
    W_ir, W_iz, W_in = cell.weight_ih.chunk(3, 0)
    W_hr, W_hz, W_hn = cell.weight_hh.chunk(3, 0)
    b_ir, b_iz, b_in = cell.bias_ih.chunk(3)
    b_hr, b_hz, b_hn = cell.bias_hh.chunk(3)
    r = torch.sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = torch.sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = torch.tanh(x @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    return (1 - z) * n + z * h


gru_cell = nn.GRUCell(input_size, hidden_size)
h0 = torch.randn(batch, hidden_size)
print(
    "GRU cell match:", torch.allclose(gru_cell(x[0], h0), gru_step(x[0], h0, gru_cell), atol=1e-6)
)
print(gru_cell.weight_ih.shape, gru_cell.weight_hh.shape)


class LSTMCellScratch(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.x2h = nn.Linear(input_size, 4 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 4 * hidden_size)

    def forward(self, x, state):
        h, c = state
        gates = self.x2h(x) + self.h2h(h)
        i, f, g, o = gates.chunk(4, dim=1)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


lstm_cell = nn.LSTMCell(input_size, hidden_size)
mine_lstm = LSTMCellScratch(input_size, hidden_size)
mine_lstm.x2h.weight = nn.Parameter(lstm_cell.weight_ih.detach().clone())
mine_lstm.x2h.bias = nn.Parameter(lstm_cell.bias_ih.detach().clone())
mine_lstm.h2h.weight = nn.Parameter(lstm_cell.weight_hh.detach().clone())
mine_lstm.h2h.bias = nn.Parameter(lstm_cell.bias_hh.detach().clone())
state_ref = (torch.zeros(batch, hidden_size), torch.zeros(batch, hidden_size))
state_mine = state_ref
for t in range(T):
    state_ref = lstm_cell(x[t], state_ref)
    state_mine = mine_lstm(x[t], state_mine)
print("LSTM h match:", torch.allclose(state_ref[0], state_mine[0], atol=1e-6))
print("LSTM c match:", torch.allclose(state_ref[1], state_mine[1], atol=1e-6))
print(state_ref[0])

# nn.LSTM: layers, directions, batch_first, proj_size
lstm = nn.LSTM(
    input_size, hidden_size, num_layers=2, bidirectional=True, batch_first=True, dropout=0.0
)
xb = x.transpose(0, 1)
print("batch_first input:", xb.shape, xb.is_contiguous())
out, (h_n, c_n) = lstm(xb)
print("out:", out.shape, "h_n:", h_n.shape, "c_n:", c_n.shape)
h_n_view = h_n.view(2, 2, batch, hidden_size)
print(
    "last layer fwd == out[:, -1, :H]:", torch.allclose(h_n_view[-1, 0], out[:, -1, :hidden_size])
)
print("last layer bwd == out[:, 0, H:]:", torch.allclose(h_n_view[-1, 1], out[:, 0, hidden_size:]))
for name, p in lstm.named_parameters():
    if "l1" in name:
        print(f"  {name:24} {tuple(p.shape)}")
print("lstm params:", sum(p.numel() for p in lstm.parameters()))
proj = nn.LSTM(input_size, hidden_size, proj_size=2, batch_first=True)
po, (ph, pc) = proj(xb)
print("proj_size:", po.shape, ph.shape, pc.shape, proj.weight_hr_l0.shape)
try:
    lstm(xb.unsqueeze(1))
except ValueError as e:
    print("ValueError:", e)
try:
    lstm(xb, (torch.zeros(1, batch, hidden_size), torch.zeros(1, batch, hidden_size)))
except RuntimeError as e:
    print("RuntimeError:", e)

# backprop through time: gradient of the last output wrt each input step
x_req = x.clone().requires_grad_(True)
out, _ = nn.RNN(input_size, hidden_size)(x_req)
out[-1].sum().backward()
print("grad norm per time step:", [round(v, 4) for v in x_req.grad.norm(dim=(1, 2)).tolist()])
print("unbatched input:", nn.GRU(input_size, hidden_size)(x[:, 0]).__getitem__(0).shape)
