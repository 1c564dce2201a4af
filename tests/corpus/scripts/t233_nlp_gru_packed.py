"""Rao & McMahan / Raschka style: variable-length sequences -- pad_sequence, pack_padded_sequence, GRU/LSTM on packed batches,
bidirectional final states, and a GRU sentiment-ish classifier."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)

torch.manual_seed(21)

seqs = [
    torch.tensor([4, 2, 7, 1]),
    torch.tensor([3, 5]),
    torch.tensor([6, 6, 2]),
    torch.tensor([8]),
]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print("padded:\n", padded, padded.dtype)
print(
    "time-major:",
    pad_sequence(seqs).shape,
    "padding_value=-1:\n",
    pad_sequence(seqs, batch_first=True, padding_value=-1),
)

emb = nn.Embedding(10, 3, padding_idx=0)
x = emb(padded)
print("embedded:", x.shape)
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print("packed type:", type(packed).__name__)
print("data:", packed.data.shape, "batch_sizes:", packed.batch_sizes)
print("sorted_indices:", packed.sorted_indices, "unsorted_indices:", packed.unsorted_indices)
try:
    pack_padded_sequence(x, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])

gru = nn.GRU(input_size=3, hidden_size=5, batch_first=True)
print(gru)
print("gru params:", [(n, tuple(p.shape)) for n, p in gru.named_parameters()])
out_packed, h_n = gru(packed)
print("out is packed:", isinstance(out_packed, nn.utils.rnn.PackedSequence), "h_n:", h_n.shape)
out, out_lens = pad_packed_sequence(out_packed, batch_first=True)
print("unpacked:", out.shape, "lens:", out_lens)
print("padding positions are zero:", out[1, 2:].abs().sum().item(), out[3, 1:].abs().sum().item())
last = out[torch.arange(4), out_lens - 1]
print("last valid outputs == h_n:", torch.allclose(last, h_n[0]))
out_t, _ = pad_packed_sequence(out_packed, batch_first=True, total_length=6)
print("total_length=6:", out_t.shape)

# without packing, the final hidden state of the shorter rows has read the pads
out_np, h_np = gru(x)
print("unpacked run h_n differs for short rows:", (h_np[0] - h_n[0]).abs().sum(1) > 1e-6)

# pack_sequence on sorted sequences
srt = sorted(seqs, key=len, reverse=True)
ps = pack_sequence([emb(s) for s in srt])
print("pack_sequence batch_sizes:", ps.batch_sizes, ps.sorted_indices)
print(
    "unpack_sequence lens:",
    [t.shape[0] for t in nn.utils.rnn.unpack_sequence(pack_sequence(seqs, enforce_sorted=False))],
)

# bidirectional, multi-layer LSTM
lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True, dropout=0.0)
print(lstm)
print("lstm param names:", [n for n, _ in lstm.named_parameters()][:8])
print("weight_ih_l0 shape:", lstm.weight_ih_l0.shape, "reverse:", lstm.weight_hh_l1_reverse.shape)
o, (h, c) = lstm(packed)
o, ol = pad_packed_sequence(o, batch_first=True)
print("bi out:", o.shape, "h:", h.shape, "c:", c.shape)
h_view = h.view(2, 2, 4, 4)  # layers, directions, batch, hidden
final = torch.cat([h[-2], h[-1]], dim=1)
print(
    "final concat:", final.shape, torch.equal(final, torch.cat([h_view[1, 0], h_view[1, 1]], dim=1))
)
print("fwd last == o at len-1:", torch.allclose(o[torch.arange(4), ol - 1, :4], h[-2]))
print("bwd first == o at 0:", torch.allclose(o[:, 0, 4:], h[-1]))
h0 = torch.zeros(4, 4, 4)
c0 = torch.zeros(4, 4, 4)
o2, _ = lstm(packed, (h0, c0))
print("explicit zero state same:", torch.allclose(pad_packed_sequence(o2, batch_first=True)[0], o))
try:
    lstm(x, (torch.zeros(2, 4, 4), c0))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
proj = nn.LSTM(3, 6, proj_size=2, batch_first=True)
po, (ph, pc) = proj(x)
print("proj_size:", po.shape, ph.shape, pc.shape, proj.weight_hr_l0.shape)

# LSTM step by step with LSTMCell: same math
cell = nn.LSTMCell(3, 4)
uni = nn.LSTM(3, 4, batch_first=True)
with torch.no_grad():
    uni.weight_ih_l0.copy_(cell.weight_ih)
    uni.weight_hh_l0.copy_(cell.weight_hh)
    uni.bias_ih_l0.copy_(cell.bias_ih)
    uni.bias_hh_l0.copy_(cell.bias_hh)
hx, cx = torch.zeros(4, 4), torch.zeros(4, 4)
steps = []
for t in range(x.shape[1]):
    hx, cx = cell(x[:, t], (hx, cx))
    steps.append(hx)
ref, (hr, cr) = uni(x)
print(
    "LSTMCell loop == LSTM:",
    torch.allclose(torch.stack(steps, 1), ref, atol=1e-6),
    torch.allclose(cx, cr[0], atol=1e-6),
)
gates = x[:, 0] @ cell.weight_ih.T + cell.bias_ih + cell.bias_hh
i, f, g, o_ = gates.chunk(4, 1)
c1 = torch.sigmoid(i) * torch.tanh(g)
h1 = torch.sigmoid(o_) * torch.tanh(c1)
print("gate math == first step:", torch.allclose(h1, steps[0], atol=1e-6))
gc = nn.GRUCell(3, 5)
print(gc, gc(x[:, 0]).shape)


# --- a GRU classifier on synthetic "reviews": label = does token 7 appear before token 3?
def make_batch(n, vocab=10, min_len=3, max_len=9):
    xs, ys = [], []
    for _ in range(n):
        L = int(torch.randint(min_len, max_len + 1, (1,)))
        s = torch.randint(1, vocab, (L,))
        pos7 = (s == 7).nonzero()
        pos3 = (s == 3).nonzero()
        y = int(len(pos7) > 0 and (len(pos3) == 0 or pos7[0] < pos3[0]))
        xs.append(s)
        ys.append(y)
    return xs, torch.tensor(ys)


class GRUClassifier(nn.Module):
    def __init__(self, vocab, emb_dim, hidden, n_cls, bidirectional=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=bidirectional)
        self.fc = nn.Linear(hidden * (2 if bidirectional else 1), n_cls)

    def forward(self, seqs):
        lens = torch.tensor([len(s) for s in seqs])
        x = self.emb(pad_sequence(seqs, batch_first=True))
        packed = pack_padded_sequence(x, lens.cpu(), batch_first=True, enforce_sorted=False)
        _, h = self.rnn(packed)
        h = torch.cat([h[-2], h[-1]], dim=-1) if self.rnn.bidirectional else h[-1]
        return self.fc(h)


xs_tr, ys_tr = make_batch(160)
xs_va, ys_va = make_batch(40)
print("label balance:", ys_tr.float().mean())
clf = GRUClassifier(10, 8, 16, 2)
print(clf)
opt = torch.optim.RMSprop(clf.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(6):
    clf.train()
    losses = []
    for i in range(0, 160, 32):
        logits = clf(xs_tr[i : i + 32])
        loss = F.cross_entropy(logits, ys_tr[i : i + 32])
        opt.zero_grad()
        loss.backward()
        total_norm = nn.utils.clip_grad_norm_(clf.parameters(), max_norm=1.0, norm_type=2.0)
        opt.step()
        losses.append(loss.item())
    sched.step()
    clf.eval()
    with torch.no_grad():
        acc = (clf(xs_va).argmax(-1) == ys_va).float().mean()
    print(
        f"epoch {epoch}: loss {sum(losses) / len(losses):.4f} clip norm {total_norm:.4f} val acc {acc:.3f} lr {sched.get_last_lr()[0]:.5f}"
    )
nn.utils.clip_grad_value_(clf.parameters(), 0.01)
print("after clip_grad_value_:", max(p.grad.abs().max().item() for p in clf.parameters()))
print("rnn state_dict keys:", list(clf.rnn.state_dict().keys()))
print("all_weights:", [[tuple(w.shape) for w in layer] for layer in clf.rnn.all_weights])
