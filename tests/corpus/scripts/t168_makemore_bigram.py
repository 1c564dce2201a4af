# Karpathy makemore part 1: bigram model, counts then a neural net
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
]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
print("vocab size:", V)

N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for c1, c2 in zip(chs, chs[1:]):
        N[stoi[c1], stoi[c2]] += 1
print("N[0]:", N[0])
P = (N + 1).float()
P /= P.sum(1, keepdim=True)
print("row sums:", P.sum(1)[:4])

g = torch.Generator().manual_seed(2147483647)
for _ in range(3):
    out, ix = [], 0
    while True:
        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
        if ix == 0:
            break
        out.append(itos[ix])
    print("sample:", "".join(out))

log_likelihood, n = 0.0, 0
for w in words:
    chs = ["."] + list(w) + ["."]
    for c1, c2 in zip(chs, chs[1:]):
        log_likelihood += torch.log(P[stoi[c1], stoi[c2]])
        n += 1
print(f"nll per char: {(-log_likelihood / n).item():.4f}")

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for c1, c2 in zip(chs, chs[1:]):
        xs.append(stoi[c1])
        ys.append(stoi[c2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("examples:", num, xs.dtype)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)
for k in range(30):
    xenc = F.one_hot(xs, num_classes=V).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
    if k % 10 == 0:
        print(k, f"{loss.item():.4f}")
ce = F.cross_entropy(F.one_hot(xs, num_classes=V).float() @ W, ys)
print("cross_entropy:", round(ce.item(), 4))
print("W.grad norm:", W.grad.norm().item() > 0, W.grad.shape)
