"""LLM from scratch, ch.5: greedy generation, temperature scaling, top-k, multinomial sampling."""

import torch
import torch.nn as nn

text = "every effort moves you forward. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
vocab_size = len(chars)
print(vocab_size, chars)


def text_to_token_ids(s):
    return torch.tensor([stoi[c] for c in s]).unsqueeze(0)


def token_ids_to_text(ids):
    return "".join(itos[i] for i in ids.squeeze(0).tolist())


class TinyLM(nn.Module):
    def __init__(self, vocab_size, emb_dim=8, context_length=6):
        super().__init__()
        self.context_length = context_length
        self.tok = nn.Embedding(vocab_size, emb_dim)
        self.pos = nn.Embedding(context_length, emb_dim)
        self.head = nn.Linear(emb_dim, vocab_size)

    def forward(self, idx):
        t = idx.size(1)
        return self.head(torch.tanh(self.tok(idx) + self.pos(torch.arange(t))))


def generate_text_simple(model, idx, max_new_tokens, context_size):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        probas = torch.softmax(logits, dim=-1)
        idx_next = torch.argmax(probas, dim=-1, keepdim=True)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


torch.manual_seed(123)
model = TinyLM(vocab_size)
model.eval()
encoded = text_to_token_ids("every ")
print("encoded:", encoded, encoded.shape)
out = generate_text_simple(model, encoded, max_new_tokens=6, context_size=6)
print("Output:", out)
print("Output length:", len(out[0]))
print(repr(token_ids_to_text(out)))

# temperature scaling on a fixed toy vocabulary
vocab = {
    "closer": 0,
    "every": 1,
    "effort": 2,
    "forward": 3,
    "inches": 4,
    "moves": 5,
    "pizza": 6,
    "toward": 7,
    "you": 8,
}
inverse_vocab = {v: k for k, v in vocab.items()}
next_token_logits = torch.tensor([4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79])
probas = torch.softmax(next_token_logits, dim=0)
next_token_id = torch.argmax(probas).item()
print(inverse_vocab[next_token_id])
torch.manual_seed(123)
next_token_id = torch.multinomial(probas, num_samples=1).item()
print(inverse_vocab[next_token_id])


def print_sampled_tokens(probas):
    torch.manual_seed(123)
    sample = [torch.multinomial(probas, num_samples=1).item() for _ in range(1_000)]
    sampled_ids = torch.bincount(torch.tensor(sample), minlength=len(probas))
    for i, freq in enumerate(sampled_ids):
        print(f"{freq} x {inverse_vocab[i]}")


print_sampled_tokens(probas)


def softmax_with_temperature(logits, temperature):
    scaled_logits = logits / temperature
    return torch.softmax(scaled_logits, dim=0)


temperatures = [1, 0.1, 5]
scaled_probas = [softmax_with_temperature(next_token_logits, T) for T in temperatures]
for T, p in zip(temperatures, scaled_probas):
    print(f"T={T}: {p}")
print_sampled_tokens(scaled_probas[2])

top_k = 3
top_logits, top_pos = torch.topk(next_token_logits, top_k)
print("Top logits:", top_logits)
print("Top positions:", top_pos)
new_logits = torch.where(
    condition=next_token_logits < top_logits[-1],
    input=torch.tensor(float("-inf")),
    other=next_token_logits,
)
print(new_logits)
new_logits2 = next_token_logits.masked_fill(next_token_logits < top_logits[-1], float("-inf"))
print(torch.equal(new_logits, new_logits2))
topk_probas = torch.softmax(new_logits, dim=0)
print(topk_probas)

# sampling many at once, with and without replacement
torch.manual_seed(5)
print(torch.multinomial(probas, 5, replacement=True))
print(torch.multinomial(probas, 4, replacement=False))
batch_probs = torch.stack([probas, topk_probas])
print(torch.multinomial(batch_probs, 3, replacement=True))
try:
    torch.multinomial(topk_probas, 5, replacement=False)
except RuntimeError as e:
    print("RuntimeError:", e)


def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        if top_k is not None:
            top_logits, _ = torch.topk(logits, top_k)
            min_val = top_logits[:, -1]
            logits = torch.where(
                logits < min_val, torch.tensor(float("-inf")).to(logits.device), logits
            )
        if temperature > 0.0:
            logits = logits / temperature
            probs = torch.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
        else:
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        if idx_next == eos_id:
            break
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


torch.manual_seed(123)
token_ids = generate(
    model, text_to_token_ids("every "), max_new_tokens=12, context_size=6, top_k=5, temperature=1.4
)
print("Output text:\n", repr(token_ids_to_text(token_ids)))
torch.manual_seed(123)
token_ids = generate(
    model, text_to_token_ids("move"), max_new_tokens=10, context_size=6, top_k=None, temperature=0.5
)
print(token_ids.tolist())
g = torch.Generator().manual_seed(42)
print(torch.multinomial(probas, 3, generator=g))
print(torch.distributions.Categorical(probs=probas).entropy())
print(torch.distributions.Categorical(logits=next_token_logits).probs)
print(torch.sort(probas, descending=True))
sorted_probs, sorted_idx = torch.sort(probas, descending=True)
cum = torch.cumsum(sorted_probs, dim=-1)
print("cumsum:", cum)
nucleus = cum - sorted_probs > 0.9
print(nucleus, sorted_idx[~nucleus])
