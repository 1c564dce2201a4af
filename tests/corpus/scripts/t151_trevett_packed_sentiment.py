# A sentiment classifier on padded, packed sequences: a bidirectional 2-layer LSTM over
# embeddings, the final hidden states concatenated, BCEWithLogitsLoss and binary accuracy
# (in the style of the "PyTorch Sentiment Analysis" tutorial series, on a made-up vocabulary).
import random

import torch
import torch.nn as nn
import torch.optim as optim
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

SEED = 1234
random.seed(SEED)
torch.manual_seed(SEED)
torch.backends.cudnn.deterministic = True

vocab = [
    "<pad>",
    "<unk>",
    "good",
    "great",
    "fun",
    "bad",
    "awful",
    "boring",
    "movie",
    "the",
    "a",
    "plot",
]
stoi = {w: i for i, w in enumerate(vocab)}
PAD_IDX = stoi["<pad>"]
positive, negative = ["good", "great", "fun"], ["bad", "awful", "boring"]


def make_review():
    label = random.random() < 0.5
    words = [random.choice(["the", "a", "movie", "plot"]) for _ in range(random.randint(2, 6))]
    words.insert(random.randrange(len(words) + 1), random.choice(positive if label else negative))
    return torch.tensor([stoi.get(w, 1) for w in words]), float(label)


data = [make_review() for _ in range(40)]
print(data[0])


def collate(batch):
    texts, labels = zip(*batch)
    lengths = torch.tensor([len(t) for t in texts])
    return pad_sequence(texts, padding_value=PAD_IDX), lengths, torch.tensor(labels)


class RNN(nn.Module):
    def __init__(
        self,
        vocab_size,
        embedding_dim,
        hidden_dim,
        output_dim,
        n_layers,
        bidirectional,
        dropout,
        pad_idx,
    ):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_idx)
        self.rnn = nn.LSTM(
            embedding_dim,
            hidden_dim,
            num_layers=n_layers,
            bidirectional=bidirectional,
            dropout=dropout,
        )
        self.fc = nn.Linear(hidden_dim * 2, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, text, text_lengths):
        embedded = self.dropout(self.embedding(text))
        packed_embedded = pack_padded_sequence(embedded, text_lengths, enforce_sorted=False)
        packed_output, (hidden, cell) = self.rnn(packed_embedded)
        output, output_lengths = pad_packed_sequence(packed_output)
        hidden = self.dropout(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1))
        return self.fc(hidden)


model = RNN(len(vocab), 8, 12, 1, 2, True, 0.0, PAD_IDX)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


print(f"The model has {count_parameters(model):,} trainable parameters")
print(model.embedding.weight[PAD_IDX])
optimizer = optim.Adam(model.parameters(), lr=0.01)
criterion = nn.BCEWithLogitsLoss()


def binary_accuracy(preds, y):
    rounded_preds = torch.round(torch.sigmoid(preds))
    correct = (rounded_preds == y).float()
    return correct.sum() / len(correct)


def train(model, batches, optimizer, criterion):
    epoch_loss = 0
    epoch_acc = 0
    model.train()
    for text, text_lengths, label in batches:
        optimizer.zero_grad()
        predictions = model(text, text_lengths).squeeze(1)
        loss = criterion(predictions, label)
        acc = binary_accuracy(predictions, label)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        epoch_acc += acc.item()
    return epoch_loss / len(batches), epoch_acc / len(batches)


batches = [collate(data[i : i + 8]) for i in range(0, len(data), 8)]
text, lengths, labels = batches[0]
print(text.shape, lengths, labels)
packed = pack_padded_sequence(model.embedding(text), lengths, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.data.shape)
for epoch in range(4):
    train_loss, train_acc = train(model, batches, optimizer, criterion)
    print(
        f"Epoch: {epoch + 1:02} | Train Loss: {train_loss:.3f} | Train Acc: {train_acc * 100:.2f}%"
    )


def predict_sentiment(model, sentence):
    model.eval()
    indexed = [stoi.get(t, 1) for t in sentence.split()]
    length = [len(indexed)]
    tensor = torch.LongTensor(indexed).unsqueeze(1)
    length_tensor = torch.LongTensor(length)
    prediction = torch.sigmoid(model(tensor, length_tensor))
    return prediction.item()


print(round(predict_sentiment(model, "the movie is awful"), 4))
print(round(predict_sentiment(model, "a great plot"), 4))
print(model.embedding.weight.grad[PAD_IDX])
