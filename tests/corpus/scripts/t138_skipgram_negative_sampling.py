# Word embeddings: a skip-gram model with negative sampling on a toy corpus, then nearest
# neighbours by cosine similarity (the word2vec chapter of many NLP courses).
import collections
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(1)
np.random.seed(1)
torch.manual_seed(1)

corpus = (
    "the king rules the kingdom the queen rules the kingdom the man walks the dog "
    "the woman walks the dog a king is a man a queen is a woman the dog barks"
).split()
counter = collections.Counter(corpus)
vocab = sorted(counter, key=lambda w: (-counter[w], w))
word2idx = {w: i for i, w in enumerate(vocab)}
idx2word = {i: w for w, i in word2idx.items()}
print(len(corpus), len(vocab), vocab[:5])

window = 2
pairs = []
for i, word in enumerate(corpus):
    for j in range(max(0, i - window), min(len(corpus), i + window + 1)):
        if i != j:
            pairs.append((word2idx[word], word2idx[corpus[j]]))
print(len(pairs), pairs[:4])

freqs = np.array([counter[w] for w in vocab], dtype=np.float64) ** 0.75
noise_dist = torch.tensor(freqs / freqs.sum(), dtype=torch.float)
print(noise_dist[:4])


class SkipGramNeg(nn.Module):
    def __init__(self, n_vocab, n_embed, noise_dist=None):
        super().__init__()
        self.n_vocab = n_vocab
        self.n_embed = n_embed
        self.noise_dist = noise_dist
        self.in_embed = nn.Embedding(n_vocab, n_embed)
        self.out_embed = nn.Embedding(n_vocab, n_embed)
        self.in_embed.weight.data.uniform_(-1, 1)
        self.out_embed.weight.data.uniform_(-1, 1)

    def forward_input(self, input_words):
        return self.in_embed(input_words)

    def forward_output(self, output_words):
        return self.out_embed(output_words)

    def forward_noise(self, batch_size, n_samples):
        noise_words = torch.multinomial(self.noise_dist, batch_size * n_samples, replacement=True)
        return self.out_embed(noise_words).view(batch_size, n_samples, self.n_embed)


class NegativeSamplingLoss(nn.Module):
    def forward(self, input_vectors, output_vectors, noise_vectors):
        batch_size, embed_size = input_vectors.shape
        input_vectors = input_vectors.view(batch_size, embed_size, 1)
        output_vectors = output_vectors.view(batch_size, 1, embed_size)
        out_loss = torch.bmm(output_vectors, input_vectors).sigmoid().log()
        out_loss = out_loss.squeeze()
        noise_loss = torch.bmm(noise_vectors.neg(), input_vectors).sigmoid().log()
        noise_loss = noise_loss.squeeze().sum(1)
        return -(out_loss + noise_loss).mean()


model = SkipGramNeg(len(vocab), 6, noise_dist=noise_dist)
criterion = NegativeSamplingLoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)


def get_batches(pairs, batch_size):
    random.shuffle(pairs)
    for k in range(0, len(pairs), batch_size):
        chunk = pairs[k : k + batch_size]
        yield [p[0] for p in chunk], [p[1] for p in chunk]


for epoch in range(5):
    total = 0.0
    for inputs, targets in get_batches(pairs, 16):
        inputs, targets = torch.LongTensor(inputs), torch.LongTensor(targets)
        input_vectors = model.forward_input(inputs)
        output_vectors = model.forward_output(targets)
        noise_vectors = model.forward_noise(inputs.shape[0], 3)
        loss = criterion(input_vectors, output_vectors, noise_vectors)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total:.4f}")

embeds = model.in_embed.weight.detach()
norms = embeds.pow(2).sum(dim=1).sqrt().unsqueeze(0)
valid = torch.LongTensor([word2idx["king"], word2idx["dog"]])
sims = torch.mm(embeds[valid], embeds.t()) / norms
for i, row in zip(valid.tolist(), sims):
    top = row.topk(3).indices.tolist()
    print(idx2word[i], "|", ", ".join(idx2word[t] for t in top), row.max().item() > 0.99)
print(F.cosine_similarity(embeds[word2idx["king"]], embeds[word2idx["queen"]], dim=0))

# The CBOW twin: average the context embeddings, predict the centre with log_softmax/NLL
torch.manual_seed(2)
emb = nn.EmbeddingBag(len(vocab), 5, mode="mean")
lin = nn.Linear(5, len(vocab))
ctx = torch.tensor([word2idx[w] for w in ["the", "rules", "the", "kingdom"]])
centre = torch.tensor([word2idx["king"]])
logp = F.log_softmax(lin(emb(ctx.view(1, -1))), dim=1)
nll = F.nll_loss(logp, centre)
nll.backward()
print(logp.shape, nll, emb.weight.grad.abs().sum(dim=1)[:6])
