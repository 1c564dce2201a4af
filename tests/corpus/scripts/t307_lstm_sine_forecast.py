"""Time-series forecasting with an LSTM on a synthetic sine wave (sliding windows, MinMax scaling by hand)"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(99)

T = 300
t = torch.arange(T, dtype=torch.float32)
series = (
    torch.sin(2 * math.pi * t / 40)
    + 0.5 * torch.sin(2 * math.pi * t / 13)
    + 0.1 * torch.randn(T)
    + 0.002 * t
)
print("series:", series.shape, series.dtype, "first 5:", series[:5])
print(
    "stats: min %.5f max %.5f mean %.5f std %.5f"
    % (series.min(), series.max(), series.mean(), series.std())
)

split = 220
train_raw, test_raw = series[:split], series[split:]
s_min, s_max = train_raw.min(), train_raw.max()


def scale(x):
    return (x - s_min) / (s_max - s_min) * 2 - 1


def unscale(x):
    return (x + 1) / 2 * (s_max - s_min) + s_min


train_s, test_s = scale(train_raw), scale(test_raw)
print("scaled train range:", train_s.min().item(), train_s.max().item())
print("scaled test range:", test_s.min().item(), test_s.max().item())
print("roundtrip ok:", torch.allclose(unscale(train_s), train_raw, atol=1e-5))

LOOKBACK, HORIZON = 20, 5


def windows(x, lookback, horizon):
    w = x.unfold(0, lookback + horizon, 1)
    return w[:, :lookback].unsqueeze(-1), w[:, lookback:]


Xtr, Ytr = windows(train_s, LOOKBACK, HORIZON)
print("unfold windows:", Xtr.shape, Ytr.shape)
# same thing with a python loop as most tutorials do
xs, ys = [], []
for i in range(len(train_s) - LOOKBACK - HORIZON + 1):
    xs.append(train_s[i : i + LOOKBACK])
    ys.append(train_s[i + LOOKBACK : i + LOOKBACK + HORIZON])
print(
    "loop windows equal unfold:",
    torch.equal(torch.stack(xs).unsqueeze(-1), Xtr),
    torch.equal(torch.stack(ys), Ytr),
)
test_ctx = torch.cat([train_s[-LOOKBACK:], test_s])
Xte, Yte = windows(test_ctx, LOOKBACK, HORIZON)
print("test windows:", Xte.shape, Yte.shape)

loader = DataLoader(TensorDataset(Xtr, Ytr), batch_size=32, shuffle=True)


class LSTMForecaster(nn.Module):
    def __init__(self, hidden=24, layers=2, horizon=HORIZON):
        super().__init__()
        self.lstm = nn.LSTM(
            input_size=1, hidden_size=hidden, num_layers=layers, batch_first=True, dropout=0.1
        )
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x, state=None):
        out, (h, c) = self.lstm(x, state)
        return self.head(out[:, -1, :]), (h, c)


model = LSTMForecaster()
print(model)
for name, p in model.lstm.named_parameters():
    print(f"  {name:14s} {tuple(p.shape)}")
out, (h, c) = model.lstm(Xtr[:4])
print("lstm out:", out.shape, "h:", h.shape, "c:", c.shape)
print("last output equals top-layer h:", torch.allclose(out[:, -1], h[-1]))

# forget-gate bias trick
with torch.no_grad():
    for name, p in model.lstm.named_parameters():
        if "bias_ih" in name:
            H = p.shape[0] // 4
            p[H : 2 * H].fill_(1.0)
print("forget bias set:", model.lstm.bias_ih_l0[24:28])

opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=6, gamma=0.5)
crit = nn.MSELoss()
for epoch in range(15):
    model.train()
    tot = 0.0
    for xb, yb in loader:
        pred, _ = model(xb)
        loss = crit(pred, yb)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        tot += loss.item() * xb.size(0)
    sched.step()
    model.eval()
    with torch.no_grad():
        val_pred, _ = model(Xte)
        val = crit(val_pred, Yte).item()
    if epoch % 3 == 0 or epoch == 14:
        print(
            f"epoch {epoch:2d} train mse {tot / len(Xtr):.6f} val mse {val:.6f} lr {sched.get_last_lr()[0]:.5f}"
        )

# metrics in original units
model.eval()
with torch.no_grad():
    p, _ = model(Xte)
    p_u, y_u = unscale(p), unscale(Yte)
    mae = (p_u - y_u).abs().mean(0)
    rmse = ((p_u - y_u) ** 2).mean(0).sqrt()
    print("MAE per horizon step:", mae)
    print("RMSE per horizon step:", rmse)
    naive = unscale(Xte[:, -1, 0]).unsqueeze(1).expand_as(y_u)
    print("naive last-value MAE:", (naive - y_u).abs().mean().item())
    mape = ((p_u - y_u).abs() / y_u.abs().clamp(min=0.1)).mean() * 100
    print("MAPE %%: %.3f" % mape.item())

# recursive multi-step forecast using single-step of the multi-output head
with torch.no_grad():
    ctx = test_ctx[:LOOKBACK].clone().view(1, LOOKBACK, 1)
    preds = []
    for step in range(15):
        yhat, _ = model(ctx)
        nxt = yhat[:, :1]
        preds.append(nxt.item())
        ctx = torch.cat([ctx[:, 1:, :], nxt.view(1, 1, 1)], dim=1)
    rec = unscale(torch.tensor(preds))
    print("recursive forecast (first 5):", rec[:5])
    print("truth (first 5):", test_raw[:5])
    print("recursive MAE over 15:", (rec - test_raw[:15]).abs().mean().item())

# stateful use: feeding the sequence in two halves with carried state gives same result
with torch.no_grad():
    full, _ = model.lstm(Xte[:2])
    a, st = model.lstm(Xte[:2, :10])
    b, _ = model.lstm(Xte[:2, 10:], st)
    print("stateful split equals full:", torch.allclose(torch.cat([a, b], 1), full, atol=1e-6))

# GRU and LSTMCell comparisons
gru = nn.GRU(1, 8, batch_first=True, bidirectional=True)
go, gh = gru(Xtr[:3])
print("bi-GRU out:", go.shape, "h:", gh.shape)
cell = nn.LSTMCell(1, 6)
hx, cx = torch.zeros(3, 6), torch.zeros(3, 6)
for step in range(LOOKBACK):
    hx, cx = cell(Xtr[:3, step], (hx, cx))
print("LSTMCell final h:", hx.shape, hx[0, :3])
lstm_proj = nn.LSTM(1, 8, proj_size=3, batch_first=True)
po, (ph, pc) = lstm_proj(Xtr[:2])
print("proj_size LSTM:", po.shape, ph.shape, pc.shape)
try:
    model.lstm(Xtr[:2].squeeze(-1).unsqueeze(1).transpose(1, 2).reshape(2, 20, 1).repeat(1, 1, 2))
except RuntimeError as e:
    print("input size error:", e)


# ---- a tiny Transformer-encoder forecaster on the same windows (mixed-topics blog) ----
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class TSTransformer(nn.Module):
    def __init__(self, d_model=16, nhead=2, layers=1):
        super().__init__()
        self.inp = nn.Linear(1, d_model)
        self.pos = PositionalEncoding(d_model)
        enc_layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward=32, dropout=0.0, batch_first=True
        )
        self.enc = nn.TransformerEncoder(enc_layer, num_layers=layers, enable_nested_tensor=False)
        self.out = nn.Linear(d_model, HORIZON)

    def forward(self, x, mask=None):
        h = self.enc(self.pos(self.inp(x)), mask=mask)
        return self.out(h[:, -1])


torch.manual_seed(5)
tf = TSTransformer()
print(tf.enc.layers[0].self_attn)
causal = nn.Transformer.generate_square_subsequent_mask(LOOKBACK)
print("causal mask corner:", causal[:3, :3])
print("pe buffer:", tf.pos.pe.shape, tf.pos.pe[0, 1, :4])
opt = torch.optim.AdamW(tf.parameters(), lr=3e-3)
for epoch in range(6):
    tf.train()
    tot = 0.0
    for xb, yb in loader:
        loss = crit(tf(xb, mask=causal), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * xb.size(0)
    tf.eval()
    with torch.no_grad():
        v = crit(tf(Xte, mask=causal), Yte).item()
    print(f"transformer epoch {epoch} train {tot / len(Xtr):.5f} val {v:.5f}")

mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
q = torch.randn(2, 5, 8)
attn_out, attn_w = mha(q, q, q)
print(
    "MHA out:",
    attn_out.shape,
    "weights:",
    attn_w.shape,
    "rows sum to 1:",
    torch.allclose(attn_w.sum(-1), torch.ones(2, 5)),
)
_, w_heads = mha(q, q, q, average_attn_weights=False)
print("per-head weights:", w_heads.shape)
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
_, wm = mha(q, q, q, key_padding_mask=kpm)
print("padded keys get zero weight:", wm[0, :, 3:].abs().max().item())
sdpa = (
    F.scaled_dot_product_attention(q, q, q, is_causal=True)
    if hasattr(F, "scaled_dot_product_attention")
    else None
)
print("sdpa causal first row equals v[0]:", torch.allclose(sdpa[:, 0], q[:, 0], atol=1e-6))
manual = (
    torch.softmax(
        (q @ q.transpose(-2, -1)) / math.sqrt(8) + torch.triu(torch.full((5, 5), float("-inf")), 1),
        -1,
    )
    @ q
)
print("sdpa == manual:", torch.allclose(sdpa, manual, atol=1e-5))
