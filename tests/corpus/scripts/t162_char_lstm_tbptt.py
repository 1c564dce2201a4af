# A character-level LSTM: one-hot encoded batches, hidden state carried across batches and
# detached (truncated BPTT), clip_grad_norm_, then sampling with a temperature.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
np.random.seed(3)
text = "hello world, hello pytorch, hello lstm. " * 6
chars = tuple(sorted(set(text)))
int2char = dict(enumerate(chars))
char2int = {ch: ii for ii, ch in int2char.items()}
encoded = np.array([char2int[ch] for ch in text])
print(len(chars), encoded[:10])


def one_hot_encode(arr, n_labels):
    one_hot = np.zeros((arr.size, n_labels), dtype=np.float32)
    one_hot[np.arange(one_hot.shape[0]), arr.flatten()] = 1.0
    return one_hot.reshape((*arr.shape, n_labels))


print(one_hot_encode(np.array([[3, 5, 1]]), 8))


def get_batches(arr, batch_size, seq_length):
    batch_size_total = batch_size * seq_length
    n_batches = len(arr) // batch_size_total
    arr = arr[: n_batches * batch_size_total]
    arr = arr.reshape((batch_size, -1))
    for n in range(0, arr.shape[1], seq_length):
        x = arr[:, n : n + seq_length]
        y = np.zeros_like(x)
        try:
            y[:, :-1], y[:, -1] = x[:, 1:], arr[:, n + seq_length]
        except IndexError:
            y[:, :-1], y[:, -1] = x[:, 1:], arr[:, 0]
        yield x, y


class CharRNN(nn.Module):
    def __init__(self, tokens, n_hidden=32, n_layers=2, drop_prob=0.5):
        super().__init__()
        self.drop_prob = drop_prob
        self.n_layers = n_layers
        self.n_hidden = n_hidden
        self.chars = tokens
        self.lstm = nn.LSTM(
            len(self.chars), n_hidden, n_layers, dropout=drop_prob, batch_first=True
        )
        self.dropout = nn.Dropout(drop_prob)
        self.fc = nn.Linear(n_hidden, len(self.chars))

    def forward(self, x, hidden):
        r_output, hidden = self.lstm(x, hidden)
        out = self.dropout(r_output)
        out = out.contiguous().view(-1, self.n_hidden)
        out = self.fc(out)
        return out, hidden

    def init_hidden(self, batch_size):
        weight = next(self.parameters()).data
        hidden = (
            weight.new(self.n_layers, batch_size, self.n_hidden).zero_(),
            weight.new(self.n_layers, batch_size, self.n_hidden).zero_(),
        )
        return hidden


net = CharRNN(chars)
print(net)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
batch_size, seq_length, clip = 4, 10, 5
counter = 0
for e in range(3):
    h = net.init_hidden(batch_size)
    for x, y in get_batches(encoded, batch_size, seq_length):
        counter += 1
        x = one_hot_encode(x, len(chars))
        inputs, targets = torch.from_numpy(x), torch.from_numpy(y)
        h = tuple([each.data for each in h])
        net.zero_grad()
        output, h = net(inputs, h)
        loss = criterion(output, targets.view(batch_size * seq_length).long())
        loss.backward()
        norm = nn.utils.clip_grad_norm_(net.parameters(), clip)
        opt.step()
        if counter % 5 == 0:
            print(
                "Epoch: {}/{}...".format(e + 1, 3),
                "Step: {}...".format(counter),
                "Loss: {:.4f}...".format(loss.item()),
                "Norm: {:.4f}".format(norm),
            )


def predict(net, char, h=None, top_k=None):
    x = np.array([[net.chars.index(char)]])
    x = one_hot_encode(x, len(net.chars))
    inputs = torch.from_numpy(x)
    h = tuple([each.data for each in h])
    out, h = net(inputs, h)
    p = F.softmax(out, dim=1).data
    p, top_ch = p.topk(top_k)
    top_ch = top_ch.numpy().squeeze()
    p = p.numpy().squeeze()
    char = np.random.choice(top_ch, p=p / p.sum())
    return net.chars[char], h


def sample(net, size, prime="hel", top_k=3):
    net.eval()
    chars = [ch for ch in prime]
    h = net.init_hidden(1)
    for ch in prime:
        char, h = predict(net, ch, h, top_k=top_k)
    chars.append(char)
    for ii in range(size):
        char, h = predict(net, chars[-1], h, top_k=top_k)
        chars.append(char)
    return "".join(chars)


print(repr(sample(net, 20)))

# the same step with nn.GRU and a manual temperature sample via torch.multinomial
gru = nn.GRU(input_size=len(chars), hidden_size=16, batch_first=True)
head = nn.Linear(16, len(chars))
h0 = torch.zeros(1, 1, 16)
xb = torch.from_numpy(one_hot_encode(np.array([[char2int["h"]]]), len(chars)))
out, hn = gru(xb, h0)
logits = head(out[:, -1]) / 0.8
probs = F.softmax(logits, dim=-1)
print(out.shape, hn.shape, torch.multinomial(probs, num_samples=5, replacement=True))
