"""makemore part 2: embedding lookup C[X], view, tanh MLP, cross_entropy, minibatches, lr decay,
sampling with softmax+multinomial."""

import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
X = torch.randint(0, 27, (100, 3), generator=g)
Y = torch.randint(0, 27, (100,), generator=g)
C = torch.randn((27, 2), generator=g)
W1 = torch.randn((6, 100), generator=g)
b1 = torch.randn(100, generator=g)
W2 = torch.randn((100, 27), generator=g)
b2 = torch.randn(27, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
emb = C[X]
print(emb.shape, torch.cat(torch.unbind(emb, 1), 1).shape)
for i in range(50):
    ix = torch.randint(0, X.shape[0], (32,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 25 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 10 == 0:
        print(i, loss.item())
lre = torch.linspace(-3, 0, 5)
print(10**lre)
for _ in range(3):
    out = []
    context = [0] * 3
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 10:
            break
    print(out)
