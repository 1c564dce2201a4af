"""Karpathy's makemore, part 3: activation statistics at initialisation, Kaiming-scaled
weights, a batch-norm layer written by hand with running statistics kept under no_grad,
and how saturated the tanh units are."""

import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
vocab_size, block_size, n_embd, n_hidden = 27, 3, 10, 64
Xtr = torch.randint(0, vocab_size, (200, block_size), generator=g)
Ytr = torch.randint(0, vocab_size, (200,), generator=g)
C = torch.randn((vocab_size, n_embd), generator=g)
fan_in = n_embd * block_size
W1 = torch.randn((fan_in, n_hidden), generator=g) * (5 / 3) / (fan_in**0.5)
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.01
b2 = torch.randn(vocab_size, generator=g) * 0
bngain = torch.ones((1, n_hidden))
bnbias = torch.zeros((1, n_hidden))
bnmean_running = torch.zeros((1, n_hidden))
bnstd_running = torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

x = torch.randn(1000, 10)
w = torch.randn(10, 200) / 10**0.5
y = x @ w
print(f"{x.mean():.3f} {x.std():.3f} {y.mean():.3f} {y.std():.3f}")
print(f"{-torch.tensor(1 / 27.0).log():.4f}")

for i in range(30):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    if i % 10 == 0:
        print(f"{i:7d}: {loss.item():.4f}")
print(f"saturated: {(h.abs() > 0.97).float().mean():.4f}")
print(f"hpreact mean {hpreact.mean():.4f} std {hpreact.std():.4f}")
print(bnmean_running[0, :4], bnstd_running[0, :4])


@torch.no_grad()
def split_loss(x, y):
    emb = C[x]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    hpreact = bngain * (hpreact - bnmean_running) / bnstd_running + bnbias
    h = torch.tanh(hpreact)
    return F.cross_entropy(h @ W2 + b2, y).item()


print(f"train {split_loss(Xtr, Ytr):.4f}")
print(W1.grad.std().item() > 0, (W1.grad.std() / W1.std()).item() < 1)
