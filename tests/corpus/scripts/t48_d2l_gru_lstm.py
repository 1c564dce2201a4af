"""Gated recurrent units and LSTMs, from scratch and concise (d2l.ai style): the gates
computed by hand against nn.GRU's and nn.LSTM's weights, stacked and bidirectional layers."""

import torch
from torch import nn

torch.manual_seed(10)
num_inputs, num_hiddens = 5, 4
gru = nn.GRU(num_inputs, num_hiddens)
lstm = nn.LSTM(num_inputs, num_hiddens)
X = torch.randn(3, 2, num_inputs)

W_ir, W_iz, W_in = gru.weight_ih_l0.chunk(3, 0)
W_hr, W_hz, W_hn = gru.weight_hh_l0.chunk(3, 0)
b_ir, b_iz, b_in = gru.bias_ih_l0.chunk(3)
b_hr, b_hz, b_hn = gru.bias_hh_l0.chunk(3)
H = torch.zeros(2, num_hiddens)
outs = []
for x in X:
    R = torch.sigmoid(x @ W_ir.T + b_ir + H @ W_hr.T + b_hr)
    Z = torch.sigmoid(x @ W_iz.T + b_iz + H @ W_hz.T + b_hz)
    H_tilde = torch.tanh(x @ W_in.T + b_in + R * (H @ W_hn.T + b_hn))
    H = Z * H + (1 - Z) * H_tilde
    outs.append(H)
mine = torch.stack(outs)
theirs, h_n = gru(X)
print((mine - theirs).abs().max() < 1e-6, theirs.shape, h_n.shape)
print(theirs[-1])

W_i, W_f, W_g, W_o = lstm.weight_ih_l0.chunk(4, 0)
U_i, U_f, U_g, U_o = lstm.weight_hh_l0.chunk(4, 0)
b = (lstm.bias_ih_l0 + lstm.bias_hh_l0).chunk(4)
H = C = torch.zeros(2, num_hiddens)
for x in X:
    I = torch.sigmoid(x @ W_i.T + H @ U_i.T + b[0])
    F_ = torch.sigmoid(x @ W_f.T + H @ U_f.T + b[1])
    C_tilde = torch.tanh(x @ W_g.T + H @ U_g.T + b[2])
    O = torch.sigmoid(x @ W_o.T + H @ U_o.T + b[3])
    C = F_ * C + I * C_tilde
    H = O * torch.tanh(C)
out, (h, c) = lstm(X)
print((H - out[-1]).abs().max() < 1e-6, (C - c[0]).abs().max() < 1e-6)
print(out[-1], c)

deep = nn.LSTM(num_inputs, num_hiddens, num_layers=2)
bi = nn.GRU(num_inputs, num_hiddens, bidirectional=True)
o1, (h1, c1) = deep(X)
o2, h2 = bi(X)
print(o1.shape, h1.shape, c1.shape, o2.shape, h2.shape)
print(deep, bi)
loss = o1.pow(2).sum() + o2.pow(2).sum()
loss.backward()
print(deep.weight_hh_l1.grad.shape, bi.weight_ih_l0_reverse.grad.abs().sum() > 0)
print(round(loss.item(), 4))
