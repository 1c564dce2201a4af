"""Berkeley CS182 style: a small transformer block from scratch, compared with nn modules, on a toy task."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.h, self.d_k).transpose(1, 2)
        k = k.view(B, T, self.h, self.d_k).transpose(1, 2)
        v = v.view(B, T, self.h, self.d_k).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.d_k))
        if mask is not None:
            att = att.masked_fill(mask[:T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        self.last_att = att.detach()
        y = self.drop(att) @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.0):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model), nn.Dropout(dropout)
        )

    def forward(self, x, mask=None):
        x = x + self.attn(self.ln1(x), mask)
        x = x + self.mlp(self.ln2(x))
        return x


def sinusoidal(T, d):
    pe = torch.zeros(T, d)
    position = torch.arange(0, T, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


pe = sinusoidal(10, 8)
print(pe.shape)
print(pe[:3])

blk = Block(16, 4, 32)
print(blk)
print(sum(p.numel() for p in blk.parameters()))
x = torch.randn(2, 6, 16)
mask = torch.tril(torch.ones(6, 6))
y = blk(x, mask)
print(y.shape, y[0, 0, :4])
print(blk.attn.last_att[0, 0])
# causal check: changing a future token must not change earlier outputs
x2 = x.clone()
x2[:, -1] += 1.0
y2 = blk(x2, mask)
print(torch.allclose(y[:, :-1], y2[:, :-1], atol=1e-6), torch.allclose(y[:, -1], y2[:, -1]))

# compare our attention with nn.MultiheadAttention given the same weights
mha = nn.MultiheadAttention(16, 4, batch_first=True, bias=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(blk.attn.qkv.weight)
    mha.in_proj_bias.copy_(blk.attn.qkv.bias)
    mha.out_proj.weight.copy_(blk.attn.proj.weight)
    mha.out_proj.bias.copy_(blk.attn.proj.bias)
causal_bool = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
ref, w = mha(x, x, x, attn_mask=causal_bool)
ours = blk.attn(x, mask)
print(torch.allclose(ref, ours, atol=1e-5), (ref - ours).abs().max() < 1e-5, w.shape)
print(nn.Transformer.generate_square_subsequent_mask(4))

# nn.TransformerEncoderLayer (norm_first) shapes
torch.manual_seed(1)
enc_layer = nn.TransformerEncoderLayer(
    d_model=16,
    nhead=4,
    dim_feedforward=32,
    dropout=0.0,
    batch_first=True,
    norm_first=True,
    activation="gelu",
)
enc = nn.TransformerEncoder(enc_layer, num_layers=2, enable_nested_tensor=False)
print(enc.layers[0].self_attn.embed_dim, len(enc.layers))
eo = enc(x, mask=nn.Transformer.generate_square_subsequent_mask(6), is_causal=True)
print(eo.shape, eo[0, 0, :4])

# toy task: reverse a sequence of digits with a tiny encoder-only model
V, T, D = 10, 6, 32


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.zeros(1, T, D))
        self.blocks = nn.ModuleList([Block(D, 4, 64), Block(D, 4, 64)])
        self.ln = nn.LayerNorm(D)
        self.head = nn.Linear(D, V)
        self.apply(self._init)

    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)

    def forward(self, idx):
        h = self.tok(idx) + self.pos
        for b in self.blocks:
            h = b(h)
        return self.head(self.ln(h))


torch.manual_seed(2)
model = TinyTransformer()
print(sum(p.numel() for p in model.parameters()), model.pos.shape)
decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
print(len(decay), len(no_decay))
opt = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
    lr=3e-3,
    betas=(0.9, 0.98),
)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 20))
for step in range(120):
    src = torch.randint(0, V, (32, T))
    tgt = src.flip(1)
    logits = model(src)
    loss = F.cross_entropy(logits.view(-1, V), tgt.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 30 == 0 or step == 119:
        acc = (logits.argmax(-1) == tgt).float().mean()
        print(
            f"step {step} loss {loss.item():.4f} acc {acc.item():.3f} grad norm {gn.item():.4f} lr {sched.get_last_lr()[0]:.5f}"
        )
model.eval()
with torch.no_grad():
    s = torch.tensor([[1, 2, 3, 4, 5, 6]])
    print(model(s).argmax(-1), F.softmax(model(s)[0, 0], -1).max())
print(opt.param_groups[0]["weight_decay"], opt.param_groups[1]["lr"])

# encoder-decoder pieces of the homework
torch.manual_seed(5)
dec_layer = nn.TransformerDecoderLayer(
    d_model=16, nhead=2, dim_feedforward=24, dropout=0.0, batch_first=True
)
memory = torch.randn(2, 5, 16)
tgt = torch.randn(2, 3, 16)
tmask = nn.Transformer.generate_square_subsequent_mask(3)
print(dec_layer(tgt, memory, tgt_mask=tmask).shape)
print(dec_layer.multihead_attn.num_heads, dec_layer.norm3)
full = nn.Transformer(
    d_model=16,
    nhead=2,
    num_encoder_layers=1,
    num_decoder_layers=1,
    dim_feedforward=24,
    dropout=0.0,
    batch_first=True,
)
out = full(
    memory,
    tgt,
    tgt_mask=tmask,
    src_key_padding_mask=torch.tensor([[False] * 5, [False, False, False, True, True]]),
)
print(out.shape, out[1, 0, :3])
print(sum(p.numel() for p in full.parameters()))
print([n for n, _ in full.named_children()], type(full.encoder.layers).__name__)
try:
    nn.MultiheadAttention(10, 3)
except AssertionError as e:
    print("AssertionError:", e)
try:
    full(memory, torch.randn(2, 3, 8))
except RuntimeError as e:
    print("RuntimeError:", e)
# GELU variants and learning-rate warmup by hand
z = torch.linspace(-3, 3, 7)
print(F.gelu(z), F.gelu(z, approximate="tanh"), nn.GELU(approximate="tanh"))
print(F.silu(z), F.mish(z), F.softplus(z, beta=2), F.elu(z), F.hardswish(z), F.relu6(z * 3))
warm = [min((s + 1) ** -0.5, (s + 1) * 4**-1.5) * 16**-0.5 for s in range(8)]
print([round(w, 5) for w in warm])
