"""The concise recurrent network (d2l.ai style): nn.RNN, its state's shape, an output
layer over every step, and a few training steps with clipping."""

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(9)
vocab_size, num_hiddens = 12, 16
rnn_layer = nn.RNN(vocab_size, num_hiddens)
state = torch.zeros((1, 4, num_hiddens))
print(state.shape)
X = torch.rand(size=(5, 4, vocab_size))
Y, state_new = rnn_layer(X, state)
print(Y.shape, state_new.shape)
print(rnn_layer)
print([(n, tuple(p.shape)) for n, p in rnn_layer.named_parameters()])


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.num_directions = 2 if self.rnn.bidirectional else 1
        self.linear = nn.Linear(self.num_hiddens * self.num_directions, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, batch_size=1):
        return torch.zeros(
            (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
        )


net = RNNModel(rnn_layer, vocab_size)
data = torch.randint(0, vocab_size, (4, 7))
optimizer = torch.optim.SGD(net.parameters(), lr=1)
for epoch in range(3):
    state = net.begin_state(batch_size=4)
    y_hat, state = net(data[:, :-1], state)
    loss = F.cross_entropy(y_hat, data[:, 1:].T.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 1)
    optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")
print(y_hat.shape, state.shape)
print(state[0, :2])
