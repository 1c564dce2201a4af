# Tiny transformer block: hand-written attention vs nn.MultiheadAttention
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def scaled_dot_product(q, k, v, mask=None):
    d_k = q.size(-1)
    logits = q @ k.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        logits = logits.masked_fill(mask == 0, float("-inf"))
    attn = F.softmax(logits, dim=-1)
    return attn @ v, attn


seq, d = 4, 6
q = torch.randn(seq, d)
k = torch.randn(seq, d)
v = torch.randn(seq, d)
out, attn = scaled_dot_product(q, k, v)
print("attention weights:\n", attn)
print("rows sum to 1:", attn.sum(-1))
causal = torch.tril(torch.ones(seq, seq))
out_c, attn_c = scaled_dot_product(q, k, v, causal)
print("causal attention:\n", attn_c)


class Block(nn.Module):
    def __init__(self, d_model, heads, ff):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, ff), nn.GELU(), nn.Linear(ff, d_model))
        self.drop = nn.Dropout(0.1)

    def forward(self, x, mask=None):
        a, w = self.attn(x, x, x, attn_mask=mask)
        x = self.ln1(x + self.drop(a))
        x = self.ln2(x + self.drop(self.ff(x)))
        return x, w


block = Block(8, 2, 16)
block.eval()
x = torch.randn(2, 5, 8)
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
y, w = block(x, mask)
print("output shape:", y.shape, "weights shape:", w.shape)
print("avg attention weights (batch 0):\n", w[0])
print("layernorm output mean/std:", y.mean(-1)[0], y.std(-1, unbiased=False)[0])

# check MHA against manual computation with its own weights
mha = block.attn
Wq, Wk, Wv = mha.in_proj_weight.chunk(3)
bq, bk, bv = mha.in_proj_bias.chunk(3)
Q, K, V = x @ Wq.T + bq, x @ Wk.T + bk, x @ Wv.T + bv


def split(t):
    return t.view(2, 5, 2, 4).transpose(1, 2)


o, aw = scaled_dot_product(split(Q), split(K), split(V), (~mask).int())
o = o.transpose(1, 2).reshape(2, 5, 8)
manual = mha.out_proj(o)
ref, _ = mha(x, x, x, attn_mask=mask)
print("manual MHA matches:", torch.allclose(manual, ref, atol=1e-5))
print("manual avg weights match:", torch.allclose(aw.mean(1), w, atol=1e-6))

block.train()
y, _ = block(x)
y.pow(2).mean().backward()
print("in_proj grad norm:", round(block.attn.in_proj_weight.grad.norm().item(), 5))
print("n params:", sum(p.numel() for p in block.parameters()))
