# An LSTM language model over a character vocabulary, with get_batch from a long vectorised
# string, shape checks before training and a loss printed per step (in the style of MIT
# 6.S191's music-generation lab, on a made-up tune).
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
songs_joined = "X:1\nT:tune\nK:D\n|:A2FA DAFA|B2GB dBGB|A2FA DAFA|d2cd e2fe:|\n" * 4
vocab = sorted(set(songs_joined))
print("There are", len(vocab), "unique characters in the dataset")
char2idx = {u: i for i, u in enumerate(vocab)}
idx2char = np.array(vocab)


def vectorize_string(string):
    return np.array([char2idx[c] for c in string])


vectorized_songs = vectorize_string(songs_joined)
print(
    "{} ---- characters mapped to int ----> {}".format(
        repr(songs_joined[:10]), vectorized_songs[:10]
    )
)
assert isinstance(vectorized_songs, np.ndarray), "returned result should be a numpy array"


def get_batch(vectorized_songs, seq_length, batch_size):
    n = vectorized_songs.shape[0] - 1
    idx = np.random.choice(n - seq_length, batch_size)
    input_batch = [vectorized_songs[i : i + seq_length] for i in idx]
    output_batch = [vectorized_songs[i + 1 : i + seq_length + 1] for i in idx]
    x_batch = torch.tensor(np.array(input_batch), dtype=torch.long)
    y_batch = torch.tensor(np.array(output_batch), dtype=torch.long)
    return x_batch, y_batch


x_batch, y_batch = get_batch(vectorized_songs, seq_length=5, batch_size=1)
for i, (input_idx, target_idx) in enumerate(
    zip(np.squeeze(x_batch.numpy()), np.squeeze(y_batch.numpy()))
):
    if i > 2:
        break
    print("Step {:3d}".format(i))
    print("  input: {} ({:s})".format(input_idx, repr(idx2char[input_idx.item()])))
    print("  expected output: {} ({:s})".format(target_idx, repr(idx2char[target_idx.item()])))


class LSTMModel(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_size):
        super(LSTMModel, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, vocab_size)

    def init_hidden(self, batch_size, device):
        return (
            torch.zeros(1, batch_size, self.hidden_size).to(device),
            torch.zeros(1, batch_size, self.hidden_size).to(device),
        )

    def forward(self, x, state=None, return_state=False):
        x = self.embedding(x)
        if state is None:
            state = self.init_hidden(x.size(0), x.device)
        out, state = self.lstm(x, state)
        out = self.fc(out)
        return out if not return_state else (out, state)


device = torch.device("cpu")
model = LSTMModel(len(vocab), embedding_dim=16, hidden_size=32).to(device)
print(model)
x, y = get_batch(vectorized_songs, seq_length=20, batch_size=4)
x = x.to(device)
y = y.to(device)
pred = model(x)
print("Input shape:      ", x.shape, " # (batch_size, sequence_length)")
print("Prediction shape: ", pred.shape, "# (batch_size, sequence_length, vocab_size)")
cross_entropy = nn.CrossEntropyLoss()


def compute_loss(labels, logits):
    batched_labels = labels.view(-1)
    batched_logits = logits.view(-1, logits.size(-1))
    loss = cross_entropy(batched_logits, batched_labels)
    return loss


example_batch_loss = compute_loss(y, pred)
print(f"Prediction shape: {pred.shape} # (batch_size, sequence_length, vocab_size)")
print(f"scalar_loss:      {example_batch_loss.mean().item()}")
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)


def train_step(x, y):
    model.train()
    optimizer.zero_grad()
    y_hat = model(x)
    loss = compute_loss(y, y_hat)
    loss.backward()
    optimizer.step()
    return loss


history = []
for it in range(30):
    x_batch, y_batch = get_batch(vectorized_songs, 20, 8)
    loss = train_step(x_batch, y_batch)
    history.append(loss.item())
    if it % 10 == 0:
        print(it, round(loss.item(), 4))


def generate_text(model, start_string, generation_length=30):
    input_idx = [char2idx[s] for s in start_string]
    input_idx = torch.tensor([input_idx], dtype=torch.long).to(device)
    state = model.init_hidden(input_idx.size(0), device)
    text_generated = []
    for i in range(generation_length):
        predictions, state = model(input_idx, state, return_state=True)
        predictions = predictions.squeeze(0)
        input_idx = torch.multinomial(torch.softmax(predictions, dim=-1), num_samples=1)
        text_generated.append(idx2char[input_idx[-1].item()])
        input_idx = input_idx[-1:].view(1, 1)
    return start_string + "".join(text_generated)


model.eval()
with torch.no_grad():
    print(repr(generate_text(model, start_string="X:", generation_length=30)))
