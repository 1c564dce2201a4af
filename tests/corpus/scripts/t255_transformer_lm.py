"""Language modelling with nn.TransformerEncoder and positional encoding on a toy corpus."""

import math

import torch
from torch import Tensor, nn
from torch.nn import TransformerEncoder, TransformerEncoderLayer

torch.manual_seed(0)


class TransformerModel(nn.Module):
    def __init__(
        self, ntoken: int, d_model: int, nhead: int, d_hid: int, nlayers: int, dropout: float = 0.5
    ):
        super().__init__()
        self.model_type = "Transformer"
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(
            encoder_layers, nlayers, enable_nested_tensor=False
        )
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self) -> None:
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src: Tensor, src_mask: Tensor = None) -> Tensor:
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        output = self.linear(output)
        return output


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 500):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


pe = PositionalEncoding(8, dropout=0.0, max_len=6)
print("pe buffer", pe.pe.shape)
print(pe.pe[:, 0, :])
print("buffers:", [n for n, _ in pe.named_buffers()], "params:", list(pe.parameters()))

mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)

# --- toy corpus and vocab
text = (
    "the cat sat on the mat . the dog sat on the log . a cat saw a dog . "
    "the dog saw the cat on the mat . a bird sat on the dog . "
) * 6
tokens = text.split()
vocab = {w: i for i, w in enumerate(sorted(set(tokens)))}
itos = {i: w for w, i in vocab.items()}
print("vocab", vocab)
data = torch.tensor([vocab[t] for t in tokens], dtype=torch.long)
print("data", data.shape, data[:12])


def batchify(data: Tensor, bsz: int) -> Tensor:
    seq_len = data.size(0) // bsz
    data = data[: seq_len * bsz]
    data = data.view(bsz, seq_len).t().contiguous()
    return data


n = data.numel()
train_data = batchify(data[: int(0.8 * n)], 4)
val_data = batchify(data[int(0.8 * n) :], 2)
print("train_data", train_data.shape, "val_data", val_data.shape)
bptt = 8


def get_batch(source: Tensor, i: int):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].reshape(-1)
    return data, target


d, t = get_batch(train_data, 0)
print("batch", d.shape, t.shape)
print(d[:, 0], t[:8])

ntokens = len(vocab)
model = TransformerModel(ntokens, d_model=16, nhead=2, d_hid=32, nlayers=2, dropout=0.1)
print(model)
print("num params", sum(p.numel() for p in model.parameters()))
for name, p in list(model.named_parameters())[:8]:
    print(name, tuple(p.shape))

criterion = nn.CrossEntropyLoss()
lr = 1.0
optimizer = torch.optim.SGD(model.parameters(), lr=lr)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.9)


def train(model: nn.Module) -> float:
    model.train()
    total_loss = 0.0
    num_batches = len(train_data) // bptt
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        output = model(data)
        output_flat = output.view(-1, ntokens)
        loss = criterion(output_flat, targets)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_loss += loss.item()
        if batch % 3 == 0:
            print(
                f"| batch {batch:3d} | lr {scheduler.get_last_lr()[0]:02.2f} | loss {loss.item():5.3f} | grad norm {norm.item():.4f}"
            )
    return total_loss / (batch + 1)


def evaluate(model: nn.Module, eval_data: Tensor) -> float:
    model.eval()
    total_loss = 0.0
    with torch.no_grad():
        for i in range(0, eval_data.size(0) - 1, bptt):
            data, targets = get_batch(eval_data, i)
            seq_len = data.size(0)
            output = model(data)
            output_flat = output.view(-1, ntokens)
            total_loss += seq_len * criterion(output_flat, targets).item()
    return total_loss / (len(eval_data) - 1)


for epoch in range(1, 4):
    tl = train(model)
    val_loss = evaluate(model, val_data)
    val_ppl = math.exp(val_loss)
    print("-" * 60)
    print(
        f"| end of epoch {epoch:3d} | train loss {tl:5.3f} | valid loss {val_loss:5.3f} | valid ppl {val_ppl:8.3f}"
    )
    print("-" * 60)
    scheduler.step()

model.eval()
with torch.no_grad():
    prompt = torch.tensor([vocab[w] for w in "the cat sat on".split()]).unsqueeze(1)
    for _ in range(5):
        logits = model(prompt)
        nxt = logits[-1, 0].argmax()
        prompt = torch.cat([prompt, nxt.view(1, 1)], dim=0)
print(" ".join(itos[i] for i in prompt.squeeze(1).tolist()))

# attention weights from a standalone MultiheadAttention
mha = nn.MultiheadAttention(embed_dim=8, num_heads=2)
q = torch.randn(3, 1, 8)
attn_out, attn_w = mha(q, q, q, attn_mask=nn.Transformer.generate_square_subsequent_mask(3))
print(attn_out.shape, attn_w.shape)
print(attn_w)
attn_out, attn_w = mha(q, q, q, need_weights=True, average_attn_weights=False)
print(attn_w.shape, attn_w.sum(-1))
