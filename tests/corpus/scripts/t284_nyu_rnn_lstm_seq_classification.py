"""NYU DL style: sequence classification with RNN / LSTM ("which symbols appear in which order?")."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)

torch.manual_seed(1)

# symbols: 0 pad, 1..4 distractors, 5 = X, 6 = Y; class = order of X and Y (XX, XY, YX, YY)
VOCAB, N_CLASSES = 7, 4


def make_seq(length):
    seq = torch.randint(1, 5, (length,))
    cls = torch.randint(0, 4, (1,)).item()
    a, b = (5 if cls in (0, 1) else 6), (5 if cls in (0, 2) else 6)
    p1 = torch.randint(0, length // 2, (1,)).item()
    p2 = torch.randint(length // 2, length, (1,)).item()
    seq[p1], seq[p2] = a, b
    return seq, cls


seqs, labels = zip(*[make_seq(int(torch.randint(6, 12, (1,)))) for _ in range(160)])
lengths = torch.tensor([len(s) for s in seqs])
print(lengths[:10], lengths.min(), lengths.max())
padded = pad_sequence(list(seqs), batch_first=True)
labels = torch.tensor(labels)
print(padded.shape, padded[:3])
print(torch.bincount(labels))

# packing demo
packed = pack_padded_sequence(padded[:4], lengths[:4], batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape)
unpacked, ulens = pad_packed_sequence(packed, batch_first=True)
print(unpacked.shape, ulens, torch.equal(unpacked, padded[:4, : unpacked.shape[1]]))
ps = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])])
print(ps)
try:
    pack_padded_sequence(padded[:4], lengths[:4], batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])

# raw modules: shapes
rnn = nn.RNN(input_size=3, hidden_size=5, num_layers=2, batch_first=True)
xx = torch.randn(2, 4, 3)
o, h = rnn(xx)
print(rnn)
print(o.shape, h.shape, [n for n, _ in rnn.named_parameters()])
lstm = nn.LSTM(3, 5, bidirectional=True)
o, (h, c) = lstm(xx.transpose(0, 1))
print(
    o.shape, h.shape, c.shape, torch.allclose(o[-1, :, :5], h[0]), torch.allclose(o[0, :, 5:], h[1])
)
gru = nn.GRU(3, 5, batch_first=True)
o, h = gru(xx, torch.zeros(1, 2, 5))
print(o.shape, h.shape, o[0, -1], h[0, 0])
cell = nn.LSTMCell(3, 5)
hx, cx = torch.zeros(2, 5), torch.zeros(2, 5)
for t_ in range(4):
    hx, cx = cell(xx[:, t_], (hx, cx))
print(hx)
rc = nn.RNNCell(3, 5, nonlinearity="relu")
print(rc(xx[:, 0]).shape)
try:
    lstm(torch.randn(4, 2, 4))
except RuntimeError as e:
    print("RuntimeError:", e)


# classifier
class SeqClassifier(nn.Module):
    def __init__(self, kind="lstm", emb=8, hid=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb, padding_idx=0)
        self.kind = kind
        cls = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[kind]
        self.rnn = cls(emb, hid, batch_first=True)
        self.out = nn.Linear(hid, N_CLASSES)

    def forward(self, x, lens):
        e = self.emb(x)
        pk = pack_padded_sequence(e, lens, batch_first=True, enforce_sorted=False)
        _, h = self.rnn(pk)
        if self.kind == "lstm":
            h = h[0]
        return self.out(h[-1])


for kind in ["rnn", "lstm", "gru"]:
    torch.manual_seed(7)
    model = SeqClassifier(kind)
    if kind == "lstm":
        print(model)
        print(model.emb.weight[0], model.emb.weight.shape)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(15):
        perm = torch.randperm(128)
        for i in range(0, 128, 32):
            b = perm[i : i + 32]
            logits = model(padded[b], lengths[b])
            loss = F.cross_entropy(logits, labels[b])
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        if epoch % 5 == 4:
            with torch.no_grad():
                te = model(padded[128:], lengths[128:])
                acc = (te.argmax(1) == labels[128:]).float().mean()
            print(f"{kind} epoch {epoch + 1} loss {loss.item():.4f} test acc {acc.item():.4f}")
    with torch.no_grad():
        print(kind, F.softmax(model(padded[:2], lengths[:2]), dim=1))

# extra: deeper / fancier recurrent modules from the lecture slides
torch.manual_seed(3)
deep = nn.GRU(4, 6, num_layers=2, dropout=0.0, bidirectional=True, batch_first=True)
xs = torch.randn(3, 5, 4)
o, h = deep(xs)
print(o.shape, h.shape, deep.weight_hh_l1_reverse.shape, deep.bias_ih_l0.shape)
print(
    h.view(2, 2, 3, 6)[-1].shape,
    torch.allclose(o[:, -1, :6], h[2]),
    torch.allclose(o[:, 0, 6:], h[3]),
)
proj = nn.LSTM(4, 8, proj_size=3, batch_first=True)
o, (h, c) = proj(xs)
print(o.shape, h.shape, c.shape, [n for n, _ in proj.named_parameters()])
print(proj)
seqs2 = [torch.randn(4, 4), torch.randn(2, 4), torch.randn(3, 4)]
pp = pack_sequence(seqs2, enforce_sorted=False)
po, (ph, pc) = nn.LSTM(4, 5)(pp)
print(type(po).__name__, po.data.shape, ph.shape)
unp, ln_ = pad_packed_sequence(po, total_length=6)
print(unp.shape, ln_, unp[3:, 1].abs().sum())
print([t.shape for t in nn.utils.rnn.unpad_sequence(unp, ln_)])
print(pad_sequence(seqs2, padding_value=-1.0)[:, 1, 0])
print(nn.utils.rnn.unpack_sequence(pp)[1].shape)
gc = nn.GRUCell(4, 6)
hcell = gc(xs[:, 0])
print(hcell.shape, gc.weight_ih.shape)
r1 = nn.RNN(4, 6, nonlinearity="relu", bias=False)
print(r1(xs.transpose(0, 1))[0].min() >= 0, r1.all_weights[0][0].shape, len(r1.all_weights[0]))
print(nn.utils.parameters_to_vector(gc.parameters()).shape)
vec = torch.zeros(nn.utils.parameters_to_vector(gc.parameters()).numel())
nn.utils.vector_to_parameters(vec, gc.parameters())
print(gc.weight_hh.abs().sum())
deep(xs)[0].pow(2).sum().backward()
print(deep.weight_ih_l0.grad.abs().max() > 0.1)
print(nn.utils.clip_grad_value_(deep.parameters(), 0.1))
print(
    deep.weight_ih_l0.grad.abs().max(),
    nn.utils.clip_grad_norm_(deep.parameters(), 0.5, norm_type=2.0),
)
print(nn.utils.clip_grad_norm_(deep.parameters(), 0.5, norm_type="inf"))
