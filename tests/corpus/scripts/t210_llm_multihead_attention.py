"""LLM from scratch, ch.3 end: multi-head attention, wrapper vs efficient version, vs nn.MultiheadAttention and SDPA."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
        )

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = q @ k.transpose(1, 2)
        s.masked_fill_(self.mask.bool()[:n, :n], -torch.inf)
        w = torch.softmax(s / k.shape[-1] ** 0.5, dim=-1)
        return self.dropout(w) @ v


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [
                CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
                for _ in range(num_heads)
            ]
        )

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)


torch.manual_seed(123)
inputs = torch.rand(6, 3)
batch = torch.stack((inputs, inputs), dim=0)
mha_w = MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)
cv = mha_w(batch)
print(cv)
print("context_vecs.shape:", cv.shape)
print(mha_w)
print(len(mha_w.heads), type(mha_w.heads).__name__)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
        )

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        print("  is_contiguous before:", context_vec.is_contiguous())
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


a = torch.tensor(
    [
        [
            [
                [0.2745, 0.6584, 0.2775, 0.8573],
                [0.8993, 0.0390, 0.9268, 0.7388],
                [0.7179, 0.7058, 0.9156, 0.4340],
            ],
            [
                [0.0772, 0.3565, 0.1479, 0.5331],
                [0.4066, 0.2318, 0.4545, 0.9737],
                [0.4606, 0.5159, 0.4220, 0.5786],
            ],
        ]
    ]
)
print(a @ a.transpose(2, 3))
first_head = a[0, 0, :, :]
first_res = first_head @ first_head.T
print("First head:\n", first_res)
print(
    "matmul same as bmm:",
    torch.allclose(torch.matmul(a, a.transpose(2, 3))[0], torch.bmm(a[0], a[0].transpose(1, 2))),
)

torch.manual_seed(123)
mha = MultiHeadAttention(3, 4, 6, 0.0, num_heads=2)
context_vecs = mha(batch)
print(context_vecs)
print("context_vecs.shape:", context_vecs.shape)
print("params:", sum(p.numel() for p in mha.parameters()))
try:
    MultiHeadAttention(3, 5, 6, 0.0, num_heads=2)
except AssertionError as e:
    print("AssertionError:", e)

try:
    x = torch.randn(2, 6, 4).transpose(1, 2)
    x.view(2, 24)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print(torch.randn(2, 6, 4).transpose(1, 2).reshape(2, 24).shape)

# the same with scaled_dot_product_attention
torch.manual_seed(0)
q = torch.randn(2, 2, 5, 4)
k = torch.randn(2, 2, 5, 4)
v = torch.randn(2, 2, 5, 4)
manual = (
    torch.softmax(
        (q @ k.transpose(-2, -1)) / math.sqrt(4) + torch.triu(torch.full((5, 5), float("-inf")), 1),
        dim=-1,
    )
    @ v
)
sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(sdpa.shape, torch.allclose(manual, sdpa, atol=1e-6))
print(torch.triu(torch.full((5, 5), float("-inf")), 1))

# nn.MultiheadAttention with a causal mask
torch.manual_seed(1)
ref = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True, bias=False)
print(ref)
print([(n, tuple(p.shape)) for n, p in ref.named_parameters()])
x = torch.randn(2, 5, 4)
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
out, w = ref(x, x, x, attn_mask=causal, need_weights=True)
print(out.shape, w.shape)
print(w[0])
out2, w2 = ref(x, x, x, attn_mask=causal, need_weights=True, average_attn_weights=False)
print(w2.shape, torch.allclose(w2.mean(dim=1), w))

# rebuild from in_proj_weight
Wq, Wk, Wv = ref.in_proj_weight.chunk(3, dim=0)
Q = (x @ Wq.T).view(2, 5, 2, 2).transpose(1, 2)
K = (x @ Wk.T).view(2, 5, 2, 2).transpose(1, 2)
V = (x @ Wv.T).view(2, 5, 2, 2).transpose(1, 2)
att = torch.softmax(Q @ K.transpose(-1, -2) / math.sqrt(2) + causal, dim=-1)
mine = ref.out_proj((att @ V).transpose(1, 2).reshape(2, 5, 4))
print("matches nn.MultiheadAttention:", torch.allclose(mine, out, atol=1e-6))
print("max diff: {:.2e}".format((mine - out).abs().max().item() < 1e-5))
