"""A char-level language model with an embedding + 2-layer LSTM/GRU, truncated BPTT, gradient clipping and sampling."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

text = "to be or not to be that is the question whether tis nobler in the mind to suffer " * 3
chars = sorted(set(text))
char2idx = {c: i for i, c in enumerate(chars)}
idx2char = dict(enumerate(chars))
encoded = torch.tensor([char2idx[c] for c in text], dtype=torch.int64)
print(f"{len(text)} chars, {len(chars)} unique")
print(encoded[:20], encoded.dtype)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i : i + seq_len], source[i + 1 : i + 1 + seq_len]


train = batchify(encoded, 4)
print("batchified:", train.shape, train.stride())
x0, y0 = get_batch(train, 0, 10)
print(x0.shape, y0.shape)
print(
    "".join(idx2char[i] for i in x0[:, 0].tolist()),
    "|",
    "".join(idx2char[i] for i in y0[:, 0].tolist()),
)


class CharRNN(nn.Module):
    def __init__(self, vocab_size, emb=12, hidden=32, layers=2, cell="LSTM", dropout=0.1):
        super().__init__()
        self.cell = cell
        self.hidden, self.layers = hidden, layers
        self.encoder = nn.Embedding(vocab_size, emb)
        rnn_cls = getattr(nn, cell)
        self.rnn = rnn_cls(emb, hidden, layers, dropout=dropout)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(hidden, vocab_size)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)
        for name, p in self.rnn.named_parameters():
            if "weight_hh" in name:
                nn.init.orthogonal_(p)
            elif "bias" in name:
                p.data.fill_(0)
                if self.cell == "LSTM":
                    p.data[self.hidden : 2 * self.hidden] = 1.0  # forget-gate bias

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        return F.log_softmax(decoded.view(-1, decoded.size(-1)), dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.cell == "LSTM":
            return (
                weight.new_zeros(self.layers, bsz, self.hidden),
                weight.new_zeros(self.layers, bsz, self.hidden),
            )
        return weight.new_zeros(self.layers, bsz, self.hidden)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def sample(model, prime="to ", length=30, temperature=0.8):
    model.eval()
    hidden = model.init_hidden(1)
    out = list(prime)
    inp = torch.tensor([[char2idx[c]] for c in prime])
    with torch.no_grad():
        logp, hidden = model(inp, hidden)
        for _ in range(length):
            probs = (logp[-1] / temperature).exp()
            nxt = torch.multinomial(probs, 1)
            out.append(idx2char[nxt.item()])
            logp, hidden = model(nxt.view(1, 1), hidden)
    return "".join(out)


for cell in ["LSTM", "GRU"]:
    torch.manual_seed(1111)
    model = CharRNN(len(chars), cell=cell)
    print(model)
    w_hh = model.rnn.weight_hh_l0
    print(
        cell,
        "orthogonal blocks?",
        w_hh.shape,
        torch.allclose(w_hh.T @ w_hh, torch.eye(w_hh.shape[1]), atol=1e-5),
    )
    criterion = nn.NLLLoss()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=0.01)
    bptt, clip = 12, 0.25
    for epoch in range(3):
        model.train()
        total_loss = 0.0
        hidden = model.init_hidden(4)
        n = 0
        for batch, i in enumerate(range(0, train.size(0) - 1, bptt)):
            data, targets = get_batch(train, i, bptt)
            hidden = repackage_hidden(hidden)
            model.zero_grad()
            output, hidden = model(data, hidden)
            loss = criterion(output, targets.reshape(-1))
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            total_loss += loss.item()
            n += 1
        cur = total_loss / n
        print(
            f"| {cell} epoch {epoch:3d} | {n} batches | loss {cur:5.2f} | ppl {math.exp(cur):8.2f} | last grad norm {gn:.3f}"
        )
    torch.manual_seed(7)
    print(repr(sample(model)))
    h = model.init_hidden(2)
    print(type(h).__name__, (h[0] if isinstance(h, tuple) else h).shape)
    print(
        "hidden requires_grad after repackage:",
        repackage_hidden(hidden)[0].requires_grad
        if cell == "LSTM"
        else repackage_hidden(hidden).requires_grad,
    )

# perplexity of a uniform model for reference
uniform = torch.full((5, len(chars)), 1.0 / len(chars)).log()
print(
    "uniform ppl:",
    torch.exp(F.nll_loss(uniform, torch.zeros(5, dtype=torch.long))).item(),
    len(chars),
)
print(F.nll_loss(uniform, torch.tensor([0, 1, 2, 3, 4]), reduction="sum"))
