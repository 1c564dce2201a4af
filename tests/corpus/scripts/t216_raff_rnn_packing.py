"""Inside Deep Learning ch.4 style: classifying names by language with an RNN/GRU, padding and packing variable-length sequences."""

import torch
import torch.nn as nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
)
from torch.utils.data import DataLoader, Dataset

names = {
    "English": ["smith", "jones", "taylor", "brown", "wilson", "evans", "thomas", "walker"],
    "Italian": ["rossi", "russo", "ferrari", "esposito", "bianchi", "romano", "colombo", "ricci"],
    "Japanese": [
        "sato",
        "suzuki",
        "takahashi",
        "tanaka",
        "watanabe",
        "ito",
        "yamamoto",
        "nakamura",
    ],
}
all_letters = "abcdefghijklmnopqrstuvwxyz"
vocab = {"<pad>": 0, **{c: i + 1 for i, c in enumerate(all_letters)}}
classes = list(names)
print("vocab size:", len(vocab), "classes:", classes)


class LanguageNameDataset(Dataset):
    def __init__(self, lang_name_dict, vocabulary):
        self.label_names = [x for x in lang_name_dict.keys()]
        self.data, self.labels = [], []
        self.vocabulary = vocabulary
        for y, language in enumerate(self.label_names):
            for sample in lang_name_dict[language]:
                self.data.append(sample)
                self.labels.append(y)

    def __len__(self):
        return len(self.data)

    def string2InputVec(self, input_string):
        T = len(input_string)
        name_vec = torch.zeros((T), dtype=torch.long)
        for pos, character in enumerate(input_string):
            name_vec[pos] = self.vocabulary[character]
        return name_vec

    def __getitem__(self, idx):
        name = self.data[idx]
        label = self.labels[idx]
        label_vec = torch.tensor([label], dtype=torch.long)
        return self.string2InputVec(name), label


dataset = LanguageNameDataset(names, vocab)
print(len(dataset), dataset[0], dataset[9])


def pad_and_pack(batch):
    input_tensors, labels, lengths = [], [], []
    for x, y in batch:
        input_tensors.append(x)
        labels.append(y)
        lengths.append(x.shape[0])
    x_padded = pad_sequence(input_tensors, batch_first=False)
    x_packed = pack_padded_sequence(x_padded, lengths, batch_first=False, enforce_sorted=False)
    y_batched = torch.as_tensor(labels, dtype=torch.long)
    return x_packed, y_batched


seqs = [dataset[i][0] for i in (0, 8, 16)]
padded = pad_sequence(seqs, batch_first=True, padding_value=0)
print("padded:\n", padded)
print(padded.shape)
lengths = torch.tensor([len(s) for s in seqs])
print("lengths:", lengths)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.data)
print(packed.batch_sizes)
print(packed.sorted_indices, packed.unsorted_indices)
unpacked, lens = pad_packed_sequence(packed, batch_first=True)
print(torch.equal(unpacked, padded), lens)
try:
    pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
ps = pack_sequence(sorted(seqs, key=len, reverse=True))
print(type(ps).__name__, ps.batch_sizes.tolist())


class EmbeddingPackable(nn.Module):
    def __init__(self, embd_layer):
        super().__init__()
        self.embd_layer = embd_layer

    def forward(self, input):
        if type(input) == torch.nn.utils.rnn.PackedSequence:
            sequences, lengths = pad_packed_sequence(input.cpu(), batch_first=True)
            sequences = self.embd_layer(sequences)
            return pack_padded_sequence(
                sequences, lengths.cpu(), batch_first=True, enforce_sorted=False
            )
        return self.embd_layer(input)


class LastTimeStep(nn.Module):
    def __init__(self, rnn_layers=1, bidirectional=False):
        super().__init__()
        self.rnn_layers = rnn_layers
        self.num_directions = 2 if bidirectional else 1

    def forward(self, input):
        rnn_output = input[0]
        last_step = input[1]
        if type(last_step) == tuple:
            last_step = last_step[0]
        batch_size = last_step.shape[1]
        last_step = last_step.view(self.rnn_layers, self.num_directions, batch_size, -1)
        last_step = last_step[self.rnn_layers - 1]
        last_step = last_step.permute(1, 0, 2)
        return last_step.reshape(batch_size, -1)


D, hidden_nodes, n_classes = 8, 16, len(classes)
torch.manual_seed(1)
rnn_packed = nn.Sequential(
    EmbeddingPackable(nn.Embedding(len(vocab), D)),
    nn.RNN(D, hidden_nodes, num_layers=2, batch_first=True, bidirectional=True),
    LastTimeStep(rnn_layers=2, bidirectional=True),
    nn.Linear(hidden_nodes * 2, n_classes),
)
print(rnn_packed)
x_packed, yb = pad_and_pack([dataset[i] for i in (0, 8, 16, 3)])
print(type(x_packed).__name__, yb)
out = rnn_packed(x_packed)
print(out.shape)

# packed and unpacked give the same final state
rnn = rnn_packed[1]
emb = rnn_packed[0].embd_layer
single = emb(dataset[8][0]).unsqueeze(0)
_, h_single = rnn(single)
_, h_batch = rnn(pack_padded_sequence(emb(padded), lengths, batch_first=True, enforce_sorted=False))
print("h_n shape:", h_batch.shape)
print("same last state for 'rossi':", torch.allclose(h_single[:, 0], h_batch[:, 1], atol=1e-6))
_, h_padded = rnn(emb(padded))
print(
    "padding without packing changes it:",
    not torch.allclose(h_padded[:, 0], h_batch[:, 0], atol=1e-4),
)

torch.manual_seed(0)
loader = DataLoader(dataset, batch_size=6, shuffle=True, collate_fn=pad_and_pack)
gru_model = nn.Sequential(
    EmbeddingPackable(nn.Embedding(len(vocab), D)),
    nn.GRU(D, hidden_nodes, batch_first=True),
    LastTimeStep(),
    nn.Linear(hidden_nodes, n_classes),
)
opt = torch.optim.Adam(gru_model.parameters(), lr=0.02)
loss_func = nn.CrossEntropyLoss()
for epoch in range(8):
    total, correct = 0.0, 0
    for xb, yb in loader:
        logits = gru_model(xb)
        loss = loss_func(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        correct += (logits.argmax(1) == yb).sum().item()
    if epoch % 2 == 1:
        print(f"epoch {epoch}: loss={total / len(dataset):.4f} acc={correct / len(dataset):.3f}")

gru_model.eval()
with torch.no_grad():
    for name in ["sakamoto", "rossini", "johnson"]:
        x = dataset.string2InputVec(name).unsqueeze(0)
        p = torch.softmax(gru_model(x), dim=-1)
        print(
            name,
            classes[p.argmax().item()],
            p.squeeze().tolist() == p[0].tolist(),
            f"{p.max():.3f}",
        )
print(sum(p.numel() for p in gru_model.parameters()))
print([(n, tuple(p.shape)) for n, p in gru_model[1].named_parameters()])

# attention instead of recurrence: a transformer encoder that ignores the padding
torch.manual_seed(3)
emb_t = nn.Embedding(len(vocab), D, padding_idx=0)
encoder = nn.TransformerEncoder(
    nn.TransformerEncoderLayer(D, nhead=2, dim_feedforward=16, batch_first=True), num_layers=1
)
pad_mask = padded == 0
print("padding mask:\n", pad_mask)
encoder.eval()
with torch.no_grad():
    enc_out = encoder(emb_t(padded), src_key_padding_mask=pad_mask)
print(enc_out.shape)
print("outputs for 'sato' (last two positions are padding):\n", enc_out[2])
keep = (~pad_mask).unsqueeze(-1).float()
pooled = (enc_out * keep).sum(1) / keep.sum(1)
print("masked mean pool:", pooled.shape, pooled[:, :3])
