# nn.Embedding + nn.GRU text classifier on a toy vocabulary
import torch
from torch import nn

torch.manual_seed(0)
sentences = [
    ("good great fun movie", 1),
    ("bad boring awful plot", 0),
    ("great acting good fun", 1),
    ("awful bad movie", 0),
    ("fun good plot", 1),
    ("boring plot bad acting", 0),
    ("great great fun", 1),
    ("awful boring", 0),
]
vocab = {"<pad>": 0}
for s, _ in sentences:
    for w in s.split():
        vocab.setdefault(w, len(vocab))
print("vocab:", vocab)


def encode(s, max_len=4):
    ids = [vocab[w] for w in s.split()][:max_len]
    return ids + [0] * (max_len - len(ids))


X = torch.tensor([encode(s) for s, _ in sentences])
y = torch.tensor([l for _, l in sentences], dtype=torch.float32)
lengths = (X != 0).sum(1)
print("X:\n", X)
print("lengths:", lengths)


class GRUClassifier(nn.Module):
    def __init__(self, vocab_size, emb=8, hidden=16):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        e = self.emb(x)
        out, h = self.gru(e)
        return self.fc(h[-1]).squeeze(-1), out


model = GRUClassifier(len(vocab))
logits, out = model(X)
print("GRU out shape:", out.shape, "logits shape:", logits.shape)
print("padding embedding row:", model.emb.weight[0])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(40):
    logits, _ = model(X)
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if epoch % 10 == 0 or epoch == 39:
        acc = ((logits > 0).float() == y).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc.item():.2f}")
print("padding grad stays zero:", model.emb.weight.grad[0])
with torch.no_grad():
    test = torch.tensor([encode("good fun"), encode("boring awful movie")])
    print("test probs:", torch.sigmoid(model(test)[0]))
print("gru weight names:", [n for n, _ in model.gru.named_parameters()])
