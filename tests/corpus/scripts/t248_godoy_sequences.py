"""Step-by-Step ch.8 style: the "square corners" sequence dataset, RNN/GRU/LSTM cells by hand vs modules, packed sequences, Conv1d over sequences"""

import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import rnn as rnn_utils


def generate_sequences(n=32, variable_len=False, seed=13):
    basic_corners = np.array([[-1, -1], [-1, 1], [1, 1], [1, -1]])
    np.random.seed(seed)
    bases = np.random.randint(4, size=n)
    if variable_len:
        lengths = np.random.randint(3, size=n) + 2
    else:
        lengths = [4] * n
    directions = np.random.randint(2, size=n)
    points = [
        basic_corners[[(b + i) % 4 for i in range(4)]][slice(None, None, d * 2 - 1)][:l]
        + np.random.randn(l, 2) * 0.1
        for b, d, l in zip(bases, directions, lengths)
    ]
    return points, directions


points, directions = generate_sequences(n=64)
test_points, test_directions = generate_sequences(n=16, seed=19)
print(len(points), points[0].round(4), directions[:10])

torch.manual_seed(19)
n_features, hidden_dim = 2, 2
rnn_cell = nn.RNNCell(input_size=n_features, hidden_size=hidden_dim)
print(rnn_cell.state_dict())
X = torch.as_tensor(points[0]).float()
print("X", X)
hidden = torch.zeros(1, hidden_dim)
lin_input = nn.Linear(n_features, hidden_dim)
lin_hidden = nn.Linear(hidden_dim, hidden_dim)
with torch.no_grad():
    lin_input.weight = nn.Parameter(rnn_cell.weight_ih)
    lin_input.bias = nn.Parameter(rnn_cell.bias_ih)
    lin_hidden.weight = nn.Parameter(rnn_cell.weight_hh)
    lin_hidden.bias = nn.Parameter(rnn_cell.bias_hh)
h_manual = hidden
for i in range(X.shape[0]):
    h_manual = torch.tanh(lin_hidden(h_manual) + lin_input(X[i : i + 1]))
    print("step", i, h_manual)
h_cell = hidden
for i in range(X.shape[0]):
    h_cell = rnn_cell(X[i : i + 1], h_cell)
print("cell", h_cell, torch.allclose(h_cell, h_manual))

torch.manual_seed(19)
rnn = nn.RNN(input_size=n_features, hidden_size=hidden_dim, batch_first=True)
print(rnn, rnn.state_dict().keys())
batch = torch.as_tensor(np.array(points[:3])).float()
print(batch.shape)
out, final_hidden = rnn(batch)
print(out.shape, final_hidden.shape, torch.equal(out[:, -1], final_hidden[0]))
print(final_hidden)
rnn_stacked = nn.RNN(input_size=2, hidden_size=2, num_layers=2, batch_first=True)
out, hid = rnn_stacked(batch)
print("stacked", out.shape, hid.shape, list(dict(rnn_stacked.named_parameters()).keys()))
rnn_bidirect = nn.RNN(input_size=2, hidden_size=2, bidirectional=True, batch_first=True)
out, hid = rnn_bidirect(batch)
print(
    "bidirectional",
    out.shape,
    hid.shape,
    torch.equal(out[:, -1, :2], hid[0]),
    torch.equal(out[:, 0, 2:], hid[1]),
)

# GRU cell by hand
torch.manual_seed(17)
gru_cell = nn.GRUCell(input_size=n_features, hidden_size=hidden_dim)
Wx, bx = gru_cell.weight_ih, gru_cell.bias_ih
Wh, bh = gru_cell.weight_hh, gru_cell.bias_hh
print(Wx.shape, Wh.shape, bx.shape)
Wxr, Wxz, Wxn = Wx.split(hidden_dim, dim=0)
bxr, bxz, bxn = bx.split(hidden_dim, dim=0)
Whr, Whz, Whn = Wh.split(hidden_dim, dim=0)
bhr, bhz, bhn = bh.split(hidden_dim, dim=0)


def gru_step(x, h):
    r = torch.sigmoid(x @ Wxr.t() + bxr + h @ Whr.t() + bhr)
    z = torch.sigmoid(x @ Wxz.t() + bxz + h @ Whz.t() + bhz)
    n = torch.tanh(x @ Wxn.t() + bxn + r * (h @ Whn.t() + bhn))
    return (1 - z) * n + z * h


h = torch.zeros(1, hidden_dim)
hc = torch.zeros(1, hidden_dim)
for i in range(4):
    h = gru_step(X[i : i + 1], h)
    hc = gru_cell(X[i : i + 1], hc)
print("gru manual", h, "cell", hc, torch.allclose(h, hc, atol=1e-6))

# LSTM cell by hand
torch.manual_seed(17)
lstm_cell = nn.LSTMCell(input_size=n_features, hidden_size=hidden_dim)
print({k: v.shape for k, v in lstm_cell.state_dict().items()})
Wi, Wf, Wg, Wo = lstm_cell.weight_ih.chunk(4)
Ui, Uf, Ug, Uo = lstm_cell.weight_hh.chunk(4)
bi = lstm_cell.bias_ih + lstm_cell.bias_hh
bI, bF, bG, bO = bi.chunk(4)
hl, cl = torch.zeros(1, 2), torch.zeros(1, 2)
hm, cm = torch.zeros(1, 2), torch.zeros(1, 2)
for i in range(4):
    x_ = X[i : i + 1]
    ig = torch.sigmoid(x_ @ Wi.t() + hm @ Ui.t() + bI)
    fg = torch.sigmoid(x_ @ Wf.t() + hm @ Uf.t() + bF)
    gg = torch.tanh(x_ @ Wg.t() + hm @ Ug.t() + bG)
    og = torch.sigmoid(x_ @ Wo.t() + hm @ Uo.t() + bO)
    cm = fg * cm + ig * gg
    hm = og * torch.tanh(cm)
    hl, cl = lstm_cell(x_, (hl, cl))
print("lstm manual", hm, cm, "cell", hl, cl, torch.allclose(hm, hl, atol=1e-6))


# a square-direction classifier, RNN/GRU/LSTM variants
class SquareModel(nn.Module):
    def __init__(self, n_features, hidden_dim, n_outputs, cell="rnn"):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.basic_rnn = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[cell](
            n_features, hidden_dim, batch_first=True
        )
        self.classifier = nn.Linear(hidden_dim, n_outputs)

    def forward(self, X):
        batch_first_output, self.hidden = self.basic_rnn(X)
        last_output = batch_first_output[:, -1]
        out = self.classifier(last_output)
        return out.view(-1, 1)


Xtr = torch.as_tensor(np.array(points)).float()
ytr = torch.as_tensor(directions).view(-1, 1).float()
Xte = torch.as_tensor(np.array(test_points)).float()
yte = torch.as_tensor(test_directions).view(-1, 1).float()
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(Xtr, ytr), batch_size=16, shuffle=True
)
for cell in ("rnn", "gru", "lstm"):
    torch.manual_seed(21)
    model = SquareModel(n_features=2, hidden_dim=2, n_outputs=1, cell=cell)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(20):
        for xb, yb in loader:
            loss = loss_fn(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        acc = ((model(Xte) > 0).float() == yte).float().mean()
        tr_loss = loss_fn(model(Xtr), ytr)
    print(
        f"{cell}: train loss {tr_loss.item():.6f} test acc {acc.item():.4f}",
        type(model.hidden).__name__,
    )

# two classic mistakes: float64 inputs from numpy, and (N, T, C) logits given to cross_entropy
try:
    SquareModel(2, 2, 1, cell="lstm")(torch.as_tensor(np.array(points[:2])))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    SquareModel(2, 2, 1, cell="rnn")(torch.as_tensor(np.array(points[:2])))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
seq_logits = torch.randn(4, 6, 3)  # batch, time, classes
seq_targets = torch.randint(0, 3, (4, 6))
print("permuted ok:", F.cross_entropy(seq_logits.permute(0, 2, 1), seq_targets))
try:
    F.cross_entropy(seq_logits, seq_targets)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)

# variable-length sequences: padding and packing
var_points, var_directions = generate_sequences(n=6, variable_len=True)
print([len(p) for p in var_points])
seq_tensors = [torch.as_tensor(seq).float() for seq in var_points]
padded = rnn_utils.pad_sequence(seq_tensors, batch_first=True)
print(padded.shape, padded[1])
lengths = [len(s) for s in seq_tensors]
packed = rnn_utils.pack_sequence(seq_tensors, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
packed2 = rnn_utils.pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(torch.equal(packed.data, packed2.data))
torch.manual_seed(5)
gru = nn.GRU(2, 3, batch_first=True)
out_packed, hid = gru(packed)
out_unpacked, seq_sizes = rnn_utils.pad_packed_sequence(out_packed, batch_first=True)
print(out_unpacked.shape, seq_sizes)
print(
    "last valid output == hidden:",
    torch.allclose(out_unpacked[torch.arange(6), seq_sizes - 1], hid[0]),
)
print(out_unpacked[1])
try:
    rnn_utils.pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# Conv1d over sequences: the book's 1D convolution on the square data (features as channels)
torch.manual_seed(21)
conv_model = nn.Sequential(nn.Conv1d(2, 1, kernel_size=2), nn.ReLU(), nn.Flatten(), nn.Linear(3, 1))
seqs = Xtr.permute(0, 2, 1)
print(seqs.shape, conv_model[0](seqs).shape, seqs.is_contiguous())
opt = torch.optim.Adam(conv_model.parameters(), lr=0.01)
for epoch in range(30):
    for xb, yb in loader:
        l = nn.BCEWithLogitsLoss()(conv_model(xb.permute(0, 2, 1)), yb)
        opt.zero_grad()
        l.backward()
        opt.step()
print("conv1d weights", conv_model[0].weight.data.squeeze(), conv_model[0].bias.data)
with torch.no_grad():
    print("conv1d test acc", ((conv_model(Xte.permute(0, 2, 1)) > 0).float() == yte).float().mean())
print(F.conv1d(torch.arange(1.0, 8.0).view(1, 1, 7), torch.ones(1, 1, 3), dilation=2, padding=1))
print(
    nn.MaxPool1d(2)(torch.arange(6.0).view(1, 1, 6)),
    nn.AvgPool1d(3, stride=1)(torch.arange(6.0).view(1, 1, 6)),
)


# --- EECS 498 A4 style: captioning pieces, word embeddings, temporal softmax loss with a mask ---
def word_embedding_forward(x, W):
    return W[x]


def temporal_softmax_loss(x, y, ignore_index=None):
    N, T, V = x.shape
    return (
        F.cross_entropy(
            x.reshape(N * T, V), y.reshape(N * T), ignore_index=ignore_index, reduction="sum"
        )
        / N
    )


torch.manual_seed(0)
N, T, V, Dw = 2, 4, 5, 3
x_idx = torch.tensor([[0, 3, 1, 2], [2, 1, 0, 3]])
Wemb = torch.linspace(0, 1, steps=V * Dw, dtype=torch.float64).reshape(V, Dw)
out = word_embedding_forward(x_idx, Wemb)
print("embedding", out.shape, out[0])
emb = nn.Embedding(V, Dw, padding_idx=0)
print(emb, emb.weight[0], emb.weight.shape)
e_out = emb(x_idx)
e_out.sum().backward()
print("padding row grad", emb.weight.grad[0], "row 1 grad", emb.weight.grad[1])
print(
    F.embedding(x_idx, Wemb).shape,
    nn.Embedding.from_pretrained(Wemb.float(), freeze=True).weight.requires_grad,
)
bag = nn.EmbeddingBag(V, Dw, mode="mean")
print(bag(torch.tensor([1, 2, 4, 4, 3]), torch.tensor([0, 2])).shape)
NULL = 0
for Nn, Tt, Vv, p in [(100, 1, 10, 1.0), (100, 10, 10, 1.0), (500, 10, 10, 0.1)]:
    torch.manual_seed(1)
    xx = 0.001 * torch.randn(Nn, Tt, Vv)
    yy = torch.randint(Vv, size=(Nn, Tt))
    mask = torch.rand(Nn, Tt) <= p
    yy[~mask] = NULL
    print(
        "temporal softmax loss %.6f" % temporal_softmax_loss(xx, yy, ignore_index=NULL).item(),
        "expected ~",
        round(Tt * p * math.log(Vv), 4) if False else "",
    )

print("log(10)*10 =", 10 * math.log(10))


def rnn_step_forward(x, prev_h, Wx, Wh, b):
    next_h = torch.tanh(x.mm(Wx) + prev_h.mm(Wh) + b)
    return next_h, (x, prev_h, Wx, Wh, next_h)


def rnn_step_backward(dnext_h, cache):
    x, prev_h, Wx, Wh, next_h = cache
    dtanh = dnext_h * (1 - next_h**2)
    return dtanh.mm(Wx.t()), dtanh.mm(Wh.t()), x.t().mm(dtanh), prev_h.t().mm(dtanh), dtanh.sum(0)


torch.manual_seed(2)
N, D, H = 3, 10, 4
xs = torch.linspace(-0.4, 0.7, steps=N * D, dtype=torch.float64).reshape(N, D)
prev_h = torch.linspace(-0.2, 0.5, steps=N * H, dtype=torch.float64).reshape(N, H)
Wx = torch.linspace(-0.1, 0.9, steps=D * H, dtype=torch.float64).reshape(D, H)
Wh = torch.linspace(-0.3, 0.7, steps=H * H, dtype=torch.float64).reshape(H, H)
bb = torch.linspace(-0.2, 0.4, steps=H, dtype=torch.float64)
next_h, cache = rnn_step_forward(xs, prev_h, Wx, Wh, bb)
print("next_h", next_h)
params = [t.clone().requires_grad_() for t in (xs, prev_h, Wx, Wh, bb)]
nh, _ = rnn_step_forward(*params)
dnext = torch.randn_like(nh)
nh.backward(dnext)
grads = rnn_step_backward(dnext, cache)
print("step backward matches autograd:", [torch.allclose(g, p.grad) for g, p in zip(grads, params)])
rnn_full = nn.RNN(D, H, batch_first=True).double()
with torch.no_grad():
    rnn_full.weight_ih_l0.copy_(Wx.t())
    rnn_full.weight_hh_l0.copy_(Wh.t())
    rnn_full.bias_ih_l0.copy_(bb)
    rnn_full.bias_hh_l0.zero_()
o, hN = rnn_full(xs.unsqueeze(1), prev_h.unsqueeze(0))
print("nn.RNN one step matches:", torch.allclose(o[:, 0], next_h), hN.shape)
lstm2 = nn.LSTM(3, 4, num_layers=2, dropout=0.0, batch_first=True, proj_size=2)
o, (hh, cc) = lstm2(torch.randn(2, 5, 3))
print("LSTM proj", o.shape, hh.shape, cc.shape, [tuple(p.shape) for p in lstm2.parameters()][:4])
print(
    packed
    if False
    else rnn_utils.pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0])])
)
