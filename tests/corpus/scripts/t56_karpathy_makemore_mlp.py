"""Karpathy's makemore, part 2: a character-level MLP language model (Bengio et al. 2003)
with an embedding table C indexed by the context, tanh hidden layer, cross-entropy, and
sampling names with a seeded generator."""

import torch
import torch.nn.functional as F

words = [
    "emma",
    "olivia",
    "ava",
    "isabella",
    "sophia",
    "mia",
    "amelia",
    "harper",
    "evelyn",
    "abigail",
    "emily",
    "ella",
    "elizabeth",
    "camila",
    "luna",
    "sofia",
    "avery",
    "mila",
]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab = len(itos)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


X, Y = build_dataset(words)
print(X.shape, X.dtype, Y.shape, Y.dtype, vocab)
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab, 2), generator=g)
print(C[5], F.one_hot(torch.tensor(5), num_classes=vocab).float() @ C)
emb = C[X]
print(emb.shape, C[torch.tensor([5, 6, 7])].shape)
W1 = torch.randn((6, 100), generator=g)
b1 = torch.randn(100, generator=g)
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
W2 = torch.randn((100, vocab), generator=g)
b2 = torch.randn(vocab, generator=g)
logits = h @ W2 + b2
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
manual = -prob[torch.arange(len(Y)), Y].log().mean()
print(prob.shape, torch.allclose(F.cross_entropy(logits, Y), manual))
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
for i in range(60):
    ix = torch.randint(0, X.shape[0], (16,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 40 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 20 == 0:
        print(i, f"{loss.item():.4f}")
emb = C[X]
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(f"full loss {F.cross_entropy(h @ W2 + b2, Y).item():.4f}")
g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(5):
    out, context = [], [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print("".join(itos[i] for i in out))
