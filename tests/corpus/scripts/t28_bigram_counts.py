"""Character bigrams: a count matrix, probabilities, the negative log likelihood, and a
one-layer network trained on one-hot inputs (a video course's first language model)."""

import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "ella"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
print(N[0], N.sum())
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum(), P.shape)
log_likelihood = sum(torch.log(P[x, y]) for x, y in zip(xs, ys))
print(f"nll = {-log_likelihood.item() / len(xs):.4f}")

xs, ys = torch.tensor(xs), torch.tensor(ys)
xenc = F.one_hot(xs, num_classes=V).float()
W = torch.zeros((V, V), requires_grad=True)
for k in range(50):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(len(xs)), ys].log().mean() + 0.01 * (W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
    if k % 10 == 9:
        print(k, f"{loss.item():.4f}")
print(probs[0])
