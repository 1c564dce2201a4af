"""A small Seq2Seq (encoder/decoder LSTM with teacher forcing) that learns to reverse digit strings."""

import random

import torch
import torch.nn as nn
import torch.optim as optim

random.seed(0)
torch.manual_seed(0)

PAD, SOS, EOS = 0, 1, 2
VOCAB = 13  # 3 specials + digits 0..9 as tokens 3..12
itos = ["<pad>", "<sos>", "<eos>"] + [str(d) for d in range(10)]


def make_pair(n):
    src = [random.randint(3, 12) for _ in range(n)]
    return [SOS] + src + [EOS], [SOS] + src[::-1] + [EOS]


pairs = [make_pair(random.randint(2, 5)) for _ in range(48)]
print("example:", pairs[0])
print(
    "decoded:", " ".join(itos[t] for t in pairs[0][0]), "->", " ".join(itos[t] for t in pairs[0][1])
)


def batchify(batch):
    src = nn.utils.rnn.pad_sequence([torch.tensor(s) for s, _ in batch], padding_value=PAD)
    trg = nn.utils.rnn.pad_sequence([torch.tensor(t) for _, t in batch], padding_value=PAD)
    return src, trg  # (seq_len, batch)


class Encoder(nn.Module):
    def __init__(self, input_size, embedding_size, hidden_size, num_layers, p):
        super(Encoder, self).__init__()
        self.dropout = nn.Dropout(p)
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.embedding = nn.Embedding(input_size, embedding_size)
        self.rnn = nn.LSTM(embedding_size, hidden_size, num_layers, dropout=p)

    def forward(self, x):
        embedding = self.dropout(self.embedding(x))
        outputs, (hidden, cell) = self.rnn(embedding)
        return hidden, cell


class Decoder(nn.Module):
    def __init__(self, input_size, embedding_size, hidden_size, output_size, num_layers, p):
        super(Decoder, self).__init__()
        self.dropout = nn.Dropout(p)
        self.embedding = nn.Embedding(input_size, embedding_size)
        self.rnn = nn.LSTM(embedding_size, hidden_size, num_layers, dropout=p)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x, hidden, cell):
        x = x.unsqueeze(0)  # (1, N)
        embedding = self.dropout(self.embedding(x))
        outputs, (hidden, cell) = self.rnn(embedding, (hidden, cell))
        predictions = self.fc(outputs).squeeze(0)
        return predictions, hidden, cell


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super(Seq2Seq, self).__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, source, target, teacher_force_ratio=0.5):
        batch_size = source.shape[1]
        target_len = target.shape[0]
        outputs = torch.zeros(target_len, batch_size, VOCAB)
        hidden, cell = self.encoder(source)
        x = target[0]
        for t in range(1, target_len):
            output, hidden, cell = self.decoder(x, hidden, cell)
            outputs[t] = output
            best_guess = output.argmax(1)
            x = target[t] if random.random() < teacher_force_ratio else best_guess
        return outputs


enc = Encoder(VOCAB, 8, 24, 2, 0.1)
dec = Decoder(VOCAB, 8, 24, VOCAB, 2, 0.1)
model = Seq2Seq(enc, dec)
print(model)
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"The model has {n_params:,} trainable parameters")


def init_weights(m):
    for name, param in m.named_parameters():
        nn.init.uniform_(param.data, -0.08, 0.08)


model.apply(init_weights)
print("emb weight sample:", model.encoder.embedding.weight[0, :4])

optimizer = optim.Adam(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)

for epoch in range(6):
    model.train()
    random.shuffle(pairs)
    epoch_loss = 0.0
    for i in range(0, len(pairs), 12):
        src, trg = batchify(pairs[i : i + 12])
        output = model(src, trg)
        output = output[1:].reshape(-1, output.shape[2])
        target = trg[1:].reshape(-1)
        optimizer.zero_grad()
        loss = criterion(output, target)
        loss.backward()
        total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1)
        optimizer.step()
        epoch_loss += loss.item()
    print(f"[Epoch {epoch} / 6] loss {epoch_loss / 4:.5f} last grad norm {total_norm:.4f}")


def translate(model, tokens, max_length=8):
    model.eval()
    src = torch.tensor(tokens).unsqueeze(1)
    with torch.no_grad():
        hidden, cell = model.encoder(src)
    outputs = [SOS]
    for _ in range(max_length):
        prev = torch.LongTensor([outputs[-1]])
        with torch.no_grad():
            output, hidden, cell = model.decoder(prev, hidden, cell)
        best = output.argmax(1).item()
        outputs.append(best)
        if best == EOS:
            break
    return outputs


src, _ = make_pair(4)
print("src:", src)
print("translated:", translate(model, src))
src_b, trg_b = batchify(pairs[:3])
print("padded src batch:\n", src_b)
print("mask:", (src_b != PAD).sum(0))
print("ignore_index loss on pad-only:", criterion(torch.randn(2, VOCAB), torch.tensor([PAD, PAD])))
print("LongTensor:", torch.LongTensor([3, 4]), torch.LongTensor([3, 4]).dtype)
print("clip_grad_value_:", torch.nn.utils.clip_grad_value_(model.parameters(), 0.01))
print("max |grad| after clip:", max(p.grad.abs().max().item() for p in model.parameters()))
print("embedding padding_idx:", nn.Embedding(5, 2, padding_idx=0).weight[0])
