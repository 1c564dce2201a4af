"""A transformer encoder for sequence classification, as in the 'Attention is all you need'
lessons: token embeddings plus sinusoidal positional encodings, nn.TransformerEncoder over
nn.TransformerEncoderLayer with a padding mask, mean pooling, a classifier head; and
nn.MultiheadAttention's weights on their own."""

import math

import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=50):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(0)]


class Classifier(nn.Module):
    def __init__(self, vocab, d_model=16, nhead=2, layers=2, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d_model, classes)
        self.d_model = d_model

    def forward(self, src, pad_mask):
        x = self.pos(self.embed(src) * math.sqrt(self.d_model))
        x = self.encoder(x, src_key_padding_mask=pad_mask)
        keep = (~pad_mask).T.unsqueeze(-1).float()
        pooled = (x * keep).sum(0) / keep.sum(0)
        return self.head(pooled)


torch.manual_seed(0)
pe = PositionalEncoding(4, 6)
print(pe.pe[:3, 0])
src = torch.tensor([[1, 4, 2, 0], [3, 3, 5, 6], [2, 0, 0, 0]]).T
pad_mask = (src == 0).T
labels = torch.tensor([0, 1, 0])
model = Classifier(vocab=8)
print(model.encoder.layers[0])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    logits = model(src, pad_mask)
    loss = nn.functional.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
print(logits.argmax(1), sum(p.numel() for p in model.parameters()))
mha = nn.MultiheadAttention(embed_dim=4, num_heads=2)
q = torch.randn(3, 1, 4)
out, weights = mha(q, q, q)
print(out.shape, weights.shape)
print(weights[0])
mask = nn.Transformer.generate_square_subsequent_mask(3)
print(mask)
out, weights = mha(q, q, q, attn_mask=mask)
print(weights[0])
