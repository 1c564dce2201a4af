"""D2L 10.2: GRU language model concise: embedding-free one-hot, nn.GRU, Linear head, train steps,
clip_grad_norm_."""

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(1)
vocab, hidden = 20, 24


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.linear = nn.Linear(rnn_layer.hidden_size, vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        return self.linear(Y.reshape((-1, Y.shape[-1]))), state

    def begin_state(self, batch_size=1):
        return torch.zeros((self.rnn.num_layers, batch_size, self.rnn.hidden_size))


net = RNNModel(nn.GRU(vocab, hidden), vocab)
print(net)
opt = torch.optim.SGD(net.parameters(), lr=1.0)
data = torch.randint(0, vocab, (4, 11))
X, Y = data[:, :-1], data[:, 1:]
for epoch in range(5):
    state = net.begin_state(4)
    y_hat, state = net(X, state)
    l = F.cross_entropy(y_hat, Y.T.reshape(-1))
    opt.zero_grad()
    l.backward()
    total = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    print(epoch, f"{l.item():.5f}", f"{total.item():.5f}")
print(state.shape, state[0, 0, :3])
lstm = nn.LSTM(vocab, 8, num_layers=2)
out, (h, c) = lstm(F.one_hot(X.T, vocab).float())
print(out.shape, h.shape, c.shape, out[0, 0, :3])
