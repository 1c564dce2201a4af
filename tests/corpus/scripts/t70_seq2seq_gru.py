"""Sequence to sequence with an encoder GRU and a decoder GRU (the PyTorch tutorial style):
embeddings, the encoder's last hidden state starting the decoder, teacher forcing, and
NLLLoss summed over the target steps; then greedy decoding."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS = 0, 1


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, input):
        embedded = self.embedding(input)
        output, hidden = self.gru(embedded)
        return output, hidden


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)

    def forward_step(self, input, hidden):
        output = F.relu(self.embedding(input))
        output, hidden = self.gru(output, hidden)
        return self.out(output), hidden

    def forward(self, encoder_hidden, target=None, max_len=6):
        batch_size = encoder_hidden.size(1)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS)
        decoder_hidden = encoder_hidden
        outputs = []
        for i in range(max_len):
            decoder_output, decoder_hidden = self.forward_step(decoder_input, decoder_hidden)
            outputs.append(decoder_output)
            if target is not None:
                decoder_input = target[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        outputs = torch.cat(outputs, dim=1)
        return F.log_softmax(outputs, dim=-1), decoder_hidden


random.seed(5)
torch.manual_seed(5)
vocab, hidden = 10, 16
pairs = []
for _ in range(12):
    seq = [random.randint(2, vocab - 1) for _ in range(5)]
    pairs.append((seq + [EOS], list(reversed(seq)) + [EOS]))
src = torch.tensor([p[0] for p in pairs])
tgt = torch.tensor([p[1] for p in pairs])
print(src[:2], tgt[:2])
encoder, decoder = EncoderRNN(vocab, hidden), DecoderRNN(hidden, vocab)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=0.01)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()
for epoch in range(1, 31):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    encoder_outputs, encoder_hidden = encoder(src)
    decoder_outputs, _ = decoder(encoder_hidden, tgt)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), tgt.view(-1))
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")
print(encoder_outputs.shape, encoder_hidden.shape)
with torch.no_grad():
    _, hidden_state = encoder(src[:3])
    decoded, _ = decoder(hidden_state)
    print(decoded.argmax(-1))
    print(tgt[:3])
