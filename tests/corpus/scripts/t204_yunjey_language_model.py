"""pytorch-tutorial language model style: a Dictionary/Corpus over an inline text, an LSTM LM, truncated BPTT, sampling."""

import os

import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

TEXT = """the cat sat on the mat
the dog sat on the log
a cat and a dog met on the mat
the log was by the mat and the cat sat
"""
with open("train.txt", "w") as f:
    f.write(TEXT * 3)


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = {}
        self.idx = 0

    def add_word(self, word):
        if word not in self.word2idx:
            self.word2idx[word] = self.idx
            self.idx2word[self.idx] = word
            self.idx += 1

    def __len__(self):
        return len(self.word2idx)


class Corpus(object):
    def __init__(self, path="./data"):
        self.dictionary = Dictionary()

    def get_data(self, path, batch_size=20):
        with open(path) as f:
            tokens = 0
            for line in f:
                words = line.split() + ["<eos>"]
                tokens += len(words)
                for word in words:
                    self.dictionary.add_word(word)
        ids = torch.LongTensor(tokens)
        token = 0
        with open(path) as f:
            for line in f:
                words = line.split() + ["<eos>"]
                for word in words:
                    ids[token] = self.dictionary.word2idx[word]
                    token += 1
        num_batches = ids.size(0) // batch_size
        ids = ids[: num_batches * batch_size]
        return ids.view(batch_size, -1)


embed_size = 16
hidden_size = 32
num_layers = 1
num_epochs = 5
num_samples = 12
batch_size = 4
seq_length = 6
learning_rate = 0.005

corpus = Corpus()
ids = corpus.get_data("train.txt", batch_size)
vocab_size = len(corpus.dictionary)
num_batches = ids.size(1) // seq_length
print(ids.shape, ids.dtype, vocab_size, num_batches)
print(ids[0, :10], corpus.dictionary.idx2word[int(ids[0, 0])])


class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)

    def forward(self, x, h):
        x = self.embed(x)
        out, (h, c) = self.lstm(x, h)
        out = out.reshape(out.size(0) * out.size(1), out.size(2))
        out = self.linear(out)
        return out, (h, c)


torch.manual_seed(0)
model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
print(model)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


def detach(states):
    return [state.detach() for state in states]


for epoch in range(num_epochs):
    states = (
        torch.zeros(num_layers, batch_size, hidden_size),
        torch.zeros(num_layers, batch_size, hidden_size),
    )
    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs = ids[:, i : i + seq_length]
        targets = ids[:, (i + 1) : (i + 1) + seq_length]
        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        model.zero_grad()
        loss.backward()
        total_norm = clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        step = (i + 1) // seq_length
        if step % 2 == 0:
            print(
                "Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}, grad norm {:.3f}".format(
                    epoch + 1,
                    num_epochs,
                    step,
                    num_batches,
                    loss.item(),
                    np.exp(loss.item()),
                    total_norm,
                )
            )

with torch.no_grad():
    with open("sample.txt", "w") as f:
        state = (torch.zeros(num_layers, 1, hidden_size), torch.zeros(num_layers, 1, hidden_size))
        prob = torch.ones(vocab_size)
        input = torch.multinomial(prob, num_samples=1).unsqueeze(1)
        for i in range(num_samples):
            output, state = model(input, state)
            prob = output.exp()
            word_id = torch.multinomial(prob, num_samples=1).item()
            input.fill_(word_id)
            word = corpus.dictionary.idx2word[word_id]
            word = "\n" if word == "<eos>" else word + " "
            f.write(word)
            if (i + 1) % 4 == 0:
                print(
                    "Sampled [{}/{}] words and saved to {}".format(i + 1, num_samples, "sample.txt")
                )
with open("sample.txt") as f:
    print(repr(f.read()))
print(os.path.getsize("sample.txt") > 0)

# greedy decoding, temperature, top-k
with torch.no_grad():
    state = None
    x = torch.tensor([[corpus.dictionary.word2idx["the"]]])
    words = ["the"]
    for _ in range(6):
        logits, state = model(x, state)
        nxt = logits.argmax(dim=-1)
        words.append(corpus.dictionary.idx2word[nxt.item()])
        x = nxt.view(1, 1)
    print(" ".join(words))
    probs = torch.softmax(logits / 0.7, dim=-1)
    print(probs.shape, probs.sum().item(), torch.topk(probs, k=3, dim=-1))
    v, ix = probs.topk(3)
    print([corpus.dictionary.idx2word[j] for j in ix[0].tolist()])
    print(
        torch.multinomial(probs, 5, replacement=True),
        torch.distributions.Categorical(probs=probs).sample((3,)),
    )

emb = model.embed
print(emb, emb.weight.shape, emb(torch.tensor([1, 2])).shape)
sim = nn.functional.cosine_similarity(
    emb.weight[corpus.dictionary.word2idx["cat"]], emb.weight, dim=-1
)
print(sim.shape, sim.argsort(descending=True)[:3])
print(nn.Embedding.from_pretrained(torch.eye(3), freeze=True).weight.requires_grad)
e2 = nn.Embedding(5, 2, padding_idx=0)
print(e2.weight[0], e2(torch.tensor([[0, 1]])).sum().backward(), e2.weight.grad[0])
try:
    emb(torch.tensor([vocab_size]))
except IndexError as e:
    print("IndexError:", e)
bag = nn.EmbeddingBag(vocab_size, 4, mode="mean")
print(bag(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 2])).shape)
