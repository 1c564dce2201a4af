"""Variable-length sequences through an LSTM, as the RNN classification lessons pack them:
pad_sequence, pack_padded_sequence (enforce_sorted=False), a bidirectional LSTM, the last
hidden states of both directions, pad_packed_sequence for the outputs."""

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(4)
seqs = [torch.randn(n, 3) for n in (5, 2, 4, 3)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, lengths)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 6, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(12, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        last = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(last), out


model = Classifier()
labels = torch.tensor([1, 0, 1, 0])
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(4):
    opt.zero_grad()
    logits, out = model(padded, lengths)
    loss = nn.functional.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
unpacked, out_lengths = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, out_lengths)
print(unpacked[1, :3])
print(model.lstm.weight_hh_l0_reverse.grad.shape)
gru = nn.GRU(3, 2)
o, h = gru(pack_padded_sequence(padded.transpose(0, 1), lengths, enforce_sorted=False))
print(h)
